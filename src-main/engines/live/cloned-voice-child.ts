/**
 * A child process holding one zero-shot voice model (ZipVoice or Pocket TTS, sherpa-onnx) for live sessions that speak
 * in saved cloned voices (docs/voices.md): every session and every voice of one model share its load; each sentence
 * names the reference recording it is spoken in. A zero-shot model makes a sentence whole (no partial samples), so
 * each sentence is sent as one chunk as soon as it is made, in arrival order (sentence-child.ts). Native inference can
 * crash the process; that ends only this child (the parent fails its sentences with engine_crashed), as for the other
 * neural voices.
 */
import { MAX_CLONING_TEXT_CHARS } from '../cloning/cloning-params.js';
import type { CloningEngineConfig } from '../cloning/cloning-families.js';
import { ZeroShotVoice } from '../cloning/cloning-runtime.js';
import { decodeReference } from '../cloning/reference-audio.js';
import { serveSentences } from './sentence-child.js';

/** A saved voice's recording (a path inside the data dir) and the words said in it (ZipVoice needs them). */
export interface LiveReference {
  path: string;
  text: string | null;
}

interface Load {
  config: CloningEngineConfig;
}
interface Speak {
  text: string;
  speed: number;
  reference: LiveReference;
}
export type ClonedChildRequest = ({ type: 'load' } & Load) | ({ type: 'speak'; id: number } & Speak) | { type: 'cancel'; id: number };

/** Flow-matching / sampling steps of a live sentence: the products' default (cloning-params.ts), the fastest that speaks well. */
const LIVE_STEPS = 4;
/** Decoded references kept (a 30 s one is 2.9 MB of samples): one per voice a few sessions speak at once. */
const KEPT_REFERENCES = 8;

let voice: ZeroShotVoice | null = null;
const references = new Map<string, Promise<Float32Array>>();

/** The reference's samples at the model's rate, decoded once per recording (least recently used dropped). */
function referenceSamples(path: string, rate: number): Promise<Float32Array> {
  let samples = references.get(path);
  if (samples) references.delete(path);
  else {
    samples = decodeReference(path, rate, new AbortController().signal, 'voice');
    samples.catch(() => references.delete(path));
  }
  references.set(path, samples);
  while (references.size > KEPT_REFERENCES) references.delete(references.keys().next().value!);
  return samples;
}

serveSentences<Load, Speak>({
  async load(request) {
    voice = await ZeroShotVoice.load(request.config);
    return { sampleRate: voice.sampleRate, numSpeakers: 1 };
  },
  async speak(request, emit, cancelled) {
    const loaded = voice!;
    // A live sentence is at most 300 characters (live-session.ts); the cut only guards the model's limit.
    emit(
      await loaded.speak({
        text: request.text.slice(0, MAX_CLONING_TEXT_CHARS),
        reference: await referenceSamples(request.reference.path, loaded.sampleRate),
        referenceRate: loaded.sampleRate,
        referenceText: request.reference.text,
        numSteps: LIVE_STEPS,
        speed: Math.max(0.5, Math.min(2, request.speed)),
        onProgress: () => !cancelled(),
      }),
    );
  },
});
