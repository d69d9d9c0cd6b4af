/**
 * A child process holding one neural voice (sherpa-onnx) for live sessions. Native inference can crash its
 * process; here that ends only this child (the parent fails its sentences with engine_crashed and starts anew).
 * Sentences are spoken one at a time in arrival order and streamed back as 16-bit chunks.
 */
import { SherpaVoice } from '../tts/sherpa-tts-runtime.js';
import type { SherpaTtsEngineConfig } from '../tts/tts-families.js';
import { parentLink } from '../worker/parent-link.js';
import { designedVoiceConfig } from '../tts/design/designed-voice-run.js';
import { shiftPitch, speedBeforeShift } from '../tts/design/pitch-shift.js';
import type { VoiceRecipe } from '../tts/design/voice-recipe.js';
import { floatToInt16 } from '../audio/pcm.js';

export type ChildRequest =
  /** `design`: a saved designed voice (docs/voices.md), its voices file made here in `cacheDir`. */
  | { type: 'load'; config: SherpaTtsEngineConfig; design?: { recipe: VoiceRecipe; cacheDir: string } }
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

let voice: SherpaVoice | null = null;
/** A designed voice's pace and pitch shift (none for the model's own voices). */
let designed: { speed: number; semitones: number } | null = null;
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
      if (designed && designed.semitones !== 0) {
        // A pitch shift resamples the whole sentence (design/pitch-shift.ts): it is sent as one chunk.
        const speed = speedBeforeShift(Math.max(0.5, Math.min(2, request.speed * designed.speed)), designed.semitones);
        const shifted = await shiftPitch(await voice.synthesize(request.text, { speaker: 0, speed }), voice.sampleRate, designed.semitones);
        if (!cancelled.has(request.id) && shifted.length > 0) send({ type: 'chunk', id: request.id, samples: floatToInt16(shifted) });
      } else {
        const speed = designed ? Math.max(0.5, Math.min(2, request.speed * designed.speed)) : request.speed;
        await voice.synthesize(request.text, { speaker: designed ? 0 : request.speaker, speed }, (samples) => {
          if (cancelled.has(request.id)) return true;
          if (samples.length > 0) send({ type: 'chunk', id: request.id, samples: floatToInt16(samples) });
          return false;
        });
      }
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
      Promise.resolve()
        .then(() => {
          if (!request.design) return SherpaVoice.load(request.config);
          designed = { speed: request.design.recipe.speed, semitones: request.design.recipe.pitchSemitones };
          return SherpaVoice.load(designedVoiceConfig(request.config, request.design, request.design.cacheDir));
        })
        .then(
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
