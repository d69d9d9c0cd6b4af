/**
 * Speaking with a designed voice (voice design's preview, and text to speech in a saved designed voice): the
 * Kokoro of the job's model is loaded with a voices file whose every slot holds the blend (blended-voices.ts),
 * speaks at the recipe's pace times the request's `speed`, and its pitch is shifted after synthesis
 * (pitch-shift.ts). The result names the voice that spoke (`designed_voice`) and marks the audio synthetic.
 */
import type { DesignedVoiceResult } from '../../../common/api-types.js';
import { JobError } from '../../../common/errors.js';
import type { DesignedVoiceInput, EngineContext, EngineOutput, EngineTask } from '../../engine-types.js';
import type { SherpaVoice } from '../sherpa-tts-runtime.js';
import { SHERPA_TTS_LIMITS, type SherpaTtsEngineConfig } from '../tts-families.js';
import { runTts } from '../tts-run.js';
import { blendedVoicesFile, designedVoicesDir } from './blended-voices.js';
import { shiftPitch, speedBeforeShift } from './pitch-shift.js';
import { isUsableRecipe } from './voice-recipe.js';

/**
 * The engine settings that load the model with the designed voice in every speaker slot; its voices file is made in
 * `cacheDir` (blended-voices.ts) when missing.
 */
export function designedVoiceConfig(config: SherpaTtsEngineConfig, design: Pick<DesignedVoiceInput, 'recipe'>, cacheDir: string): SherpaTtsEngineConfig {
  const kokoro = config.model.kokoro;
  if (config.family !== 'kokoro' || !kokoro?.voices || config.numSpeakers < 2) {
    throw new JobError('model_unavailable', 'designed voices need a multi-speaker Kokoro model (its voices.bin holds the voices they are blended from)');
  }
  if (!isUsableRecipe(design.recipe, config.numSpeakers)) {
    throw new JobError('invalid_params', `the designed voice does not fit this model (${config.numSpeakers} speakers): design it again for this model`);
  }
  const voices = blendedVoicesFile(kokoro.voices, config.numSpeakers, design.recipe.voices, cacheDir);
  const lang = design.recipe.espeak;
  return {
    ...config,
    model: { kokoro: { ...kokoro, voices } },
    ...(config.speakerLanguages && lang ? { speakerLanguages: new Array<string>(config.numSpeakers).fill(lang) } : {}),
  };
}

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

export async function runDesignedVoice(
  task: EngineTask,
  ctx: EngineContext,
  config: SherpaTtsEngineConfig,
  design: DesignedVoiceInput,
  voiceFor: (config: SherpaTtsEngineConfig) => Promise<SherpaVoice>,
): Promise<EngineOutput> {
  const voice = await voiceFor(designedVoiceConfig(config, design, designedVoicesDir(task.workDir)));
  const asked = typeof task.params.speed === 'number' ? task.params.speed : 1;
  const semitones = design.recipe.pitchSemitones;
  const speed = speedBeforeShift(Math.max(0.5, Math.min(2, design.recipe.speed * asked)), semitones);
  const output = await runTts(
    task,
    ctx,
    {
      sampleRate: voice.sampleRate,
      synthesize: async (sentence) => shiftPitch(await voice.synthesize(sentence, { speaker: 0, speed }), voice.sampleRate, semitones),
    },
    config.maxTextChars ?? SHERPA_TTS_LIMITS.max_text_chars,
  );
  return { ...output, result: { ...output.result, designed_voice: designedVoiceResult(design), synthetic: true } };
}
