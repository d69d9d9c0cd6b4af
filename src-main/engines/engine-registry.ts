/**
 * Loads the engine module for an EngineKind inside a worker process. Modules are imported lazily so that a worker
 * only pays for the engines it runs (sherpa-onnx is not loaded to speak with espeak-ng).
 */
import type { EngineFactory, EngineKind } from './engine-types.js';

type EngineModule = { default: EngineFactory };

const LOADERS: Record<Exclude<EngineKind, 'test'>, () => Promise<EngineModule>> = {
  espeak: () => import('./tts/espeak-engine.js'),
  'sherpa-tts': () => import('./tts/sherpa-tts-engine.js'),
  'sherpa-asr': () => import('./asr/sherpa-asr-engine.js'),
  pocketsphinx: () => import('./asr/pocketsphinx-engine.js'),
  rnnoise: () => import('./denoise/rnnoise-engine.js'),
  gtcrn: () => import('./denoise/gtcrn-engine.js'),
  dpdfnet: () => import('./denoise/dpdfnet-engine.js'),
  'sherpa-separation': () => import('./separation/separation-engine.js'),
  'sherpa-cloning': () => import('./cloning/cloning-engine.js'),
};

export async function loadEngineFactory(kind: EngineKind): Promise<EngineFactory> {
  if (kind === 'test') {
    // Tests crash, hang or slow a worker on purpose; never reachable unless the test switch is set.
    if (process.env.VOXDESK_TEST_ENGINES !== '1') throw new Error('test engines are disabled');
    return (await import('./test-engine.js')).default;
  }
  const loader = LOADERS[kind];
  if (!loader) throw new Error(`unknown engine kind: ${String(kind)}`);
  return (await loader()).default;
}
