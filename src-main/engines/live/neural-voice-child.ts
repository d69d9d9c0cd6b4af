/**
 * A child process holding one neural voice (sherpa-onnx) for live sessions. Native inference can crash its
 * process; here that ends only this child (the parent fails its sentences with engine_crashed and starts anew).
 * Sentences are spoken one at a time in arrival order and streamed back as 16-bit chunks.
 */
import { SherpaVoice } from '../tts/sherpa-tts-runtime.js';
import type { SherpaTtsEngineConfig } from '../tts/tts-families.js';
import { parentLink } from '../worker/parent-link.js';

export type ChildRequest =
  | { type: 'load'; config: SherpaTtsEngineConfig }
  | { type: 'speak'; id: number; text: string; speaker: number; speed: number }
  | { type: 'cancel'; id: number };
export type ChildReply =
  | { type: 'ready'; sampleRate: number; numSpeakers: number }
  | { type: 'load-failed'; message: string }
  | { type: 'chunk'; id: number; samples: Int16Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; code: string; message: string };

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

let voice: SherpaVoice | null = null;
const queue: Extract<ChildRequest, { type: 'speak' }>[] = [];
const cancelled = new Set<number>();
let busy = false;

async function drain(): Promise<void> {
  if (busy || !voice) return;
  busy = true;
  while (queue.length > 0) {
    const request = queue.shift()!;
    if (cancelled.delete(request.id)) {
      send({ type: 'done', id: request.id });
      continue;
    }
    try {
      await voice.synthesize(request.text, { speaker: request.speaker, speed: request.speed }, (samples) => {
        if (cancelled.has(request.id)) return true;
        if (samples.length > 0) send({ type: 'chunk', id: request.id, samples: toInt16(samples) });
        return false;
      });
      cancelled.delete(request.id);
      send({ type: 'done', id: request.id });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      send({ type: 'error', id: request.id, code: typeof code === 'string' ? code : 'engine_failed', message: (error as Error).message });
    }
  }
  busy = false;
}

parent.onMessage((raw) => {
  const request = raw as ChildRequest;
  switch (request.type) {
    case 'load':
      SherpaVoice.load(request.config).then(
        (loaded) => {
          voice = loaded;
          send({ type: 'ready', sampleRate: loaded.sampleRate, numSpeakers: loaded.numSpeakers });
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
