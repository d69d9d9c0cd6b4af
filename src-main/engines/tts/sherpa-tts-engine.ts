/** EngineKind 'sherpa-tts': text-to-speech jobs with a neural voice (VITS/Piper, Kokoro, Matcha) via sherpa-onnx. */
import { JobError } from '../../common/errors.js';
import type { Engine, EngineFactory } from '../engine-types.js';
import { SherpaVoice } from './sherpa-tts-runtime.js';
import { SHERPA_TTS_LIMITS, isTtsFamily, type SherpaTtsEngineConfig } from './tts-families.js';
import { runTts } from './tts-run.js';
import { runDesignedVoice } from './design/designed-voice-run.js';

/** Loaded voices kept per worker process; a worker rarely serves more than a couple. */
const MAX_CACHED_VOICES = 2;

export function sherpaConfigOf(engineConfig: Record<string, unknown>): SherpaTtsEngineConfig {
  const config = engineConfig as Partial<SherpaTtsEngineConfig>;
  if (typeof config.family !== 'string' || !isTtsFamily(config.family) || typeof config.model !== 'object' || config.model === null) {
    throw new JobError('model_unavailable', 'the model has no usable sherpa-onnx voice settings');
  }
  return config as SherpaTtsEngineConfig;
}

const createSherpaTtsEngine: EngineFactory = (): Engine => {
  const voices = new Map<string, Promise<SherpaVoice>>();
  const voiceFor = (config: SherpaTtsEngineConfig): Promise<SherpaVoice> => {
    const key = JSON.stringify(config.model);
    let voice = voices.get(key);
    if (!voice) {
      if (voices.size >= MAX_CACHED_VOICES) voices.delete(voices.keys().next().value!);
      voice = SherpaVoice.load(config);
      voice.catch(() => voices.delete(key));
      voices.set(key, voice);
    }
    return voice;
  };
  return {
    async run(task, ctx) {
      const config = sherpaConfigOf(task.engineConfig);
      if (task.input.designedVoice) return runDesignedVoice(task, ctx, config, task.input.designedVoice, voiceFor);
      const voice = await voiceFor(config);
      const speaker = typeof task.params.speaker === 'number' ? task.params.speaker : 0;
      const speed = typeof task.params.speed === 'number' ? task.params.speed : 1;
      return runTts(
        task,
        ctx,
        { sampleRate: voice.sampleRate, synthesize: (s) => voice.synthesize(s, { speaker, speed }) },
        config.maxTextChars ?? SHERPA_TTS_LIMITS.max_text_chars,
      );
    },
    dispose() {
      voices.clear();
    },
  };
};

export default createSherpaTtsEngine;
