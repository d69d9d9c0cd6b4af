/**
 * A child process holding one neural voice (sherpa-onnx) for live sessions. Native inference can crash its
 * process; here that ends only this child (the parent fails its sentences with engine_crashed and starts anew).
 * Sentences are spoken one at a time in arrival order and streamed back as 16-bit chunks. A child of designed
 * voices holds every designed voice of its Kokoro in one load (tts/design/designed-voice-bank.ts): each sentence
 * names its voice's recipe, and a voice new to the bank rebuilds it between sentences.
 */
import { SherpaVoice } from '../tts/sherpa-tts-runtime.js';
import type { SherpaTtsEngineConfig } from '../tts/tts-families.js';
import { parentLink } from '../worker/parent-link.js';
import { DesignedVoiceBank } from '../tts/design/designed-voice-bank.js';
import { shiftPitch, speedBeforeShift } from '../tts/design/pitch-shift.js';
import type { VoiceRecipe } from '../tts/design/voice-recipe.js';

export type ChildRequest =
  /** `design`: saved designed voices (docs/voices.md), the first one's recipe; the bank's voices files made in `cacheDir`. */
  | { type: 'load'; config: SherpaTtsEngineConfig; design?: { recipe: VoiceRecipe; cacheDir: string } }
  /** `recipe`: the designed voice the sentence is spoken in (a child of designed voices). */
  | { type: 'speak'; id: number; text: string; speaker: number; speed: number; recipe?: VoiceRecipe }
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
/** A child of designed voices: its bank, and the voices file its loaded voice holds. */
let bank: DesignedVoiceBank | null = null;
let loadedModel = '';
const queue: Extract<ChildRequest, { type: 'speak' }>[] = [];
const cancelled = new Set<number>();
let busy = false;

/** The voice and speaker id of a sentence's designed voice, loading the rebuilt bank when the voice is new to it. */
async function designedVoice(recipe: VoiceRecipe): Promise<{ loaded: SherpaVoice; speaker: number }> {
  const place = bank!.place(recipe);
  const key = JSON.stringify(place.config.model);
  if (key !== loadedModel || !voice) {
    voice = await SherpaVoice.load(place.config);
    loadedModel = key;
  }
  return { loaded: voice, speaker: place.speaker };
}

async function speak(request: Extract<ChildRequest, { type: 'speak' }>): Promise<void> {
  const recipe = bank ? request.recipe : undefined;
  if (bank && !recipe) throw Object.assign(new Error('a designed voice child speaks only designed voices'), { code: 'invalid_params' });
  const { loaded, speaker } = recipe ? await designedVoice(recipe) : { loaded: voice!, speaker: request.speaker };
  if (recipe && recipe.pitchSemitones !== 0) {
    // A pitch shift resamples the whole sentence (design/pitch-shift.ts): it is sent as one chunk.
    const speed = speedBeforeShift(Math.max(0.5, Math.min(2, request.speed * recipe.speed)), recipe.pitchSemitones);
    const shifted = await shiftPitch(await loaded.synthesize(request.text, { speaker, speed }), loaded.sampleRate, recipe.pitchSemitones);
    if (!cancelled.has(request.id) && shifted.length > 0) send({ type: 'chunk', id: request.id, samples: toInt16(shifted) });
    return;
  }
  const speed = recipe ? Math.max(0.5, Math.min(2, request.speed * recipe.speed)) : request.speed;
  await loaded.synthesize(request.text, { speaker, speed }, (samples) => {
    if (cancelled.has(request.id)) return true;
    if (samples.length > 0) send({ type: 'chunk', id: request.id, samples: toInt16(samples) });
    return false;
  });
}

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
      await speak(request);
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
          bank = new DesignedVoiceBank(request.config, request.design.cacheDir);
          const place = bank.place(request.design.recipe);
          loadedModel = JSON.stringify(place.config.model);
          return SherpaVoice.load(place.config);
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
