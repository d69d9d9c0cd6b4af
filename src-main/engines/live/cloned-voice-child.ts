/**
 * A child process holding one zero-shot voice model (ZipVoice or Pocket TTS, sherpa-onnx) for live sessions that speak
 * in saved cloned voices (docs/voices.md): every session and every voice of one model share its load; each sentence
 * names the reference recording it is spoken in. A zero-shot model makes a sentence whole (no partial samples), so
 * each sentence is sent as one chunk as soon as it is made, in arrival order. Native inference can crash the process;
 * that ends only this child (the parent fails its sentences with engine_crashed), as for the other neural voices.
 */
import { MAX_CLONING_TEXT_CHARS } from '../cloning/cloning-params.js';
import type { CloningEngineConfig } from '../cloning/cloning-families.js';
import { ZeroShotVoice } from '../cloning/cloning-runtime.js';
import { decodeReference } from '../cloning/reference-audio.js';
import { parentLink } from '../worker/parent-link.js';
import type { ChildReply } from './neural-voice-child.js';

/** A saved voice's recording (a path inside the data dir) and the words said in it (ZipVoice needs them). */
export interface LiveReference {
  path: string;
  text: string | null;
}

export type ClonedChildRequest =
  | { type: 'load'; config: CloningEngineConfig }
  | { type: 'speak'; id: number; text: string; speed: number; reference: LiveReference }
  | { type: 'cancel'; id: number };

/** Flow-matching / sampling steps of a live sentence: the products' default (cloning-params.ts), the fastest that speaks well. */
const LIVE_STEPS = 4;
/** Decoded references kept (a 30 s one is 2.9 MB of samples): one per voice a few sessions speak at once. */
const KEPT_REFERENCES = 8;

const parent = parentLink();
const send = (reply: ChildReply): void => parent.send(reply);

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.round(samples[i]! * 32768);
    out[i] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
  }
  return out;
}

let voice: ZeroShotVoice | null = null;
const references = new Map<string, Promise<Float32Array>>();
const queue: Extract<ClonedChildRequest, { type: 'speak' }>[] = [];
const cancelled = new Set<number>();
let busy = false;

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

async function speak(request: Extract<ClonedChildRequest, { type: 'speak' }>, loaded: ZeroShotVoice): Promise<void> {
  // A live sentence is at most 300 characters (live-session.ts); a longer one is cut by the model's own splitter.
  const text = request.text.slice(0, MAX_CLONING_TEXT_CHARS);
  const reference = await referenceSamples(request.reference.path, loaded.sampleRate);
  const samples = await loaded.speak({
    text,
    reference,
    referenceRate: loaded.sampleRate,
    referenceText: request.reference.text,
    numSteps: LIVE_STEPS,
    speed: Math.max(0.5, Math.min(2, request.speed)),
    onProgress: () => !cancelled.has(request.id),
  });
  if (!cancelled.has(request.id) && samples.length > 0) send({ type: 'chunk', id: request.id, samples: toInt16(samples) });
}

async function drain(): Promise<void> {
  if (busy || !voice) return;
  busy = true;
  while (queue.length > 0) {
    const request = queue.shift()!;
    if (!cancelled.has(request.id)) {
      try {
        await speak(request, voice);
      } catch (error) {
        cancelled.delete(request.id);
        const code = (error as { code?: unknown }).code;
        send({ type: 'error', id: request.id, code: typeof code === 'string' ? code : 'engine_failed', message: (error as Error).message });
        continue;
      }
    }
    cancelled.delete(request.id);
    send({ type: 'done', id: request.id });
  }
  busy = false;
}

parent.onMessage((raw) => {
  const request = raw as ClonedChildRequest;
  switch (request.type) {
    case 'load':
      ZeroShotVoice.load(request.config).then(
        (loaded) => {
          voice = loaded;
          send({ type: 'ready', sampleRate: loaded.sampleRate, numSpeakers: 1 });
          void drain();
        },
        (error: Error) => send({ type: 'load-failed', message: error.message }),
      );
      break;
    case 'speak':
      queue.push(request);
      void drain();
      break;
    case 'cancel':
      cancelled.add(request.id);
      break;
  }
});
parent.onParentGone(() => process.exit(0));
