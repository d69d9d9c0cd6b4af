/**
 * A child process holding one neural voice (sherpa-onnx) for live sessions. Native inference can crash its
 * process; here that ends only this child (the parent fails its sentences with engine_crashed and starts anew).
 * Sentences are spoken one at a time in arrival order and streamed back as 16-bit chunks (sentence-child.ts). A
 * child of designed voices holds every designed voice of its Kokoro in one load (tts/design/designed-voice-bank.ts):
 * each sentence names its voice's recipe, and a voice new to the bank rebuilds it between sentences.
 */
import { JobError } from '../../common/errors.js';
import { SherpaVoice } from '../tts/sherpa-tts-runtime.js';
import type { SherpaTtsEngineConfig } from '../tts/tts-families.js';
import { DesignedVoiceBank } from '../tts/design/designed-voice-bank.js';
import { shiftPitch, speedBeforeShift } from '../tts/design/pitch-shift.js';
import type { VoiceRecipe } from '../tts/design/voice-recipe.js';
import { serveSentences } from './sentence-child.js';

export type { ChildReply } from './sentence-child.js';

interface Load {
  config: SherpaTtsEngineConfig;
  /** Saved designed voices (docs/voices.md): the first one's recipe; the bank's voices files made in `cacheDir`. */
  design?: { recipe: VoiceRecipe; cacheDir: string };
}
interface Speak {
  text: string;
  speaker: number;
  speed: number;
  /** The designed voice the sentence is spoken in (a child of designed voices). */
  recipe?: VoiceRecipe;
}
export type ChildRequest = ({ type: 'load' } & Load) | ({ type: 'speak'; id: number } & Speak) | { type: 'cancel'; id: number };

let voice: SherpaVoice | null = null;
/** A child of designed voices: its bank, and the voices file its loaded voice holds. */
let bank: DesignedVoiceBank | null = null;
let loadedModel = '';

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

serveSentences<Load, Speak>({
  async load(request) {
    if (request.design) {
      bank = new DesignedVoiceBank(request.config, request.design.cacheDir);
      const place = bank.place(request.design.recipe);
      loadedModel = JSON.stringify(place.config.model);
      voice = await SherpaVoice.load(place.config);
    } else voice = await SherpaVoice.load(request.config);
    return { sampleRate: voice.sampleRate, numSpeakers: voice.numSpeakers };
  },
  async speak(request, emit, cancelled) {
    const recipe = bank ? request.recipe : undefined;
    if (bank && !recipe) throw new JobError('invalid_params', 'a designed voice child speaks only designed voices');
    const { loaded, speaker } = recipe ? await designedVoice(recipe) : { loaded: voice!, speaker: request.speaker };
    if (recipe && recipe.pitchSemitones !== 0) {
      // A pitch shift resamples the whole sentence (design/pitch-shift.ts): it is sent as one chunk.
      const speed = speedBeforeShift(Math.max(0.5, Math.min(2, request.speed * recipe.speed)), recipe.pitchSemitones);
      emit(await shiftPitch(await loaded.synthesize(request.text, { speaker, speed }), loaded.sampleRate, recipe.pitchSemitones));
      return;
    }
    const speed = recipe ? Math.max(0.5, Math.min(2, request.speed * recipe.speed)) : request.speed;
    await loaded.synthesize(request.text, { speaker, speed }, (samples) => {
      if (cancelled()) return true;
      emit(samples);
      return false;
    });
  },
});
