/** EngineKind 'sherpa-tts': text-to-speech jobs with a neural voice (VITS/Piper, Kokoro, Matcha) via sherpa-onnx. */
import { JobError } from '../../common/errors.js';
import type { Engine, EngineFactory } from '../engine-types.js';
import { SherpaVoice } from './sherpa-tts-runtime.js';
import { SHERPA_TTS_LIMITS, isTtsFamily, type SherpaTtsEngineConfig } from './tts-families.js';
import type { VoiceRecipe } from './design/voice-recipe.js';
import { runTts } from './tts-run.js';
import { runDesignedVoice } from './design/designed-voice-run.js';
import { DesignedVoiceBank } from './design/designed-voice-bank.js';

/** Loaded voices kept per worker process; a worker rarely serves more than a couple. */
const MAX_CACHED_VOICES = 2;
/** Kokoros whose designed voices are kept loaded per worker (each one load for all its designed voices). */
const MAX_DESIGNED_BANKS = 2;

interface BankEntry {
  bank: DesignedVoiceBank;
  loaded: { key: string; voice: Promise<SherpaVoice> } | null;
}

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
  // Every designed voice of one Kokoro speaks from one load: its bank's (design/designed-voice-bank.ts).
  const banks = new Map<string, BankEntry>();
  const designedVoiceFor = async (config: SherpaTtsEngineConfig, recipe: VoiceRecipe, cacheDir: string): Promise<{ voice: SherpaVoice; speaker: number }> => {
    const baseKey = JSON.stringify(config.model);
    let entry = banks.get(baseKey);
    if (!entry) {
      if (banks.size >= MAX_DESIGNED_BANKS) banks.delete(banks.keys().next().value!);
      entry = { bank: new DesignedVoiceBank(config, cacheDir), loaded: null };
      banks.set(baseKey, entry);
    }
    const place = entry.bank.place(recipe);
    const key = JSON.stringify(place.config.model);
    if (entry.loaded?.key !== key) {
      const voice = SherpaVoice.load(place.config);
      const loaded = { key, voice };
      const owner = entry;
      voice.catch(() => {
        if (owner.loaded === loaded) owner.loaded = null;
      });
      entry.loaded = loaded;
    }
    return { voice: await entry.loaded.voice, speaker: place.speaker };
  };
  return {
    async run(task, ctx) {
      const config = sherpaConfigOf(task.engineConfig);
      if (task.input.designedVoice) return runDesignedVoice(task, ctx, config, task.input.designedVoice, designedVoiceFor);
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
      banks.clear();
    },
  };
};

export default createSherpaTtsEngine;
