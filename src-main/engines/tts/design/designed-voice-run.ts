/**
 * Speaking with a designed voice (voice design's preview, and text to speech in a saved designed voice): the
 * Kokoro of the job's model is loaded with a voices file in which the designed voices in use each hold a speaker
 * slot (designed-voice-bank.ts; one load for all of them), speaks at the recipe's pace times the request's `speed`, and its pitch is shifted after synthesis
 * (pitch-shift.ts). The result names the voice that spoke (`designed_voice`) and marks the audio synthetic.
 */
import type { DesignedVoiceResult } from '../../../common/api-types.js';
import type { DesignedVoiceInput, EngineContext, EngineOutput, EngineTask } from '../../engine-types.js';
import type { SherpaVoice } from '../sherpa-tts-runtime.js';
import { SHERPA_TTS_LIMITS, type SherpaTtsEngineConfig } from '../tts-families.js';
import { runTts } from '../tts-run.js';
import { designedVoicesDir } from './blended-voices.js';
import { shiftPitch, speedBeforeShift } from './pitch-shift.js';
import type { VoiceRecipe } from './voice-recipe.js';

export function designedVoiceResult(design: DesignedVoiceInput): DesignedVoiceResult {
  const { recipe } = design;
  return {
    model: recipe.model,
    voices: recipe.voices.map(({ name, weight }) => ({ name, weight })),
    speed: recipe.speed,
    pitch_semitones: recipe.pitchSemitones,
    attributes: { ...recipe.attributes } as Record<string, string | number>,
    seed: recipe.seed,
    unknown_words: [...design.unknownWords],
    notes: [...recipe.notes],
    saved_voice: design.savedVoice,
  };
}

/** The loaded Kokoro a designed voice speaks from and its speaker id there (the worker's bank, sherpa-tts-engine.ts). */
export type DesignedVoiceLoader = (config: SherpaTtsEngineConfig, recipe: VoiceRecipe, cacheDir: string) => Promise<{ voice: SherpaVoice; speaker: number }>;

export async function runDesignedVoice(task: EngineTask, ctx: EngineContext, config: SherpaTtsEngineConfig, design: DesignedVoiceInput, voiceFor: DesignedVoiceLoader): Promise<EngineOutput> {
  const { voice, speaker } = await voiceFor(config, design.recipe, designedVoicesDir(task.workDir));
  const asked = typeof task.params.speed === 'number' ? task.params.speed : 1;
  const semitones = design.recipe.pitchSemitones;
  const speed = speedBeforeShift(Math.max(0.5, Math.min(2, design.recipe.speed * asked)), semitones);
  const output = await runTts(
    task,
    ctx,
    {
      sampleRate: voice.sampleRate,
      synthesize: async (sentence) => shiftPitch(await voice.synthesize(sentence, { speaker, speed }), voice.sampleRate, semitones),
    },
    config.maxTextChars ?? SHERPA_TTS_LIMITS.max_text_chars,
  );
  return { ...output, result: { ...output.result, designed_voice: designedVoiceResult(design), synthetic: true } };
}
