/** EngineKind 'espeak': text-to-speech jobs with eSpeak NG (WASM) in the worker process. */
import type { Engine, EngineFactory } from '../engine-types.js';
import { ESPEAK_LIMITS } from './espeak-models.js';
import { EspeakSynth, type EspeakVoiceSettings } from './espeak-synth.js';
import { runTts, warmTts } from './tts-run.js';

export function espeakSettingsFromParams(params: Record<string, unknown>): EspeakVoiceSettings {
  const pick = <T>(key: string, type: string): T | undefined => (typeof params[key] === type ? (params[key] as T) : undefined);
  return {
    voice: pick<string>('voice', 'string'),
    language: pick<string>('language', 'string'),
    speaker: pick<string>('speaker', 'string'),
    speed: pick<number>('speed', 'number'),
    pitch: pick<number>('pitch', 'number'),
  };
}

const createEspeakEngine: EngineFactory = async (): Promise<Engine> => {
  const synth = await EspeakSynth.create();
  const sentences = { sampleRate: synth.sampleRate, synthesize: async (s: string) => synth.synthesize(s) };
  return {
    async warm() {
      synth.configure({});
      await warmTts(sentences);
    },
    async run(task, ctx) {
      synth.configure(espeakSettingsFromParams(task.params));
      const configured = task.engineConfig.maxTextChars;
      const maxChars = typeof configured === 'number' ? configured : ESPEAK_LIMITS.max_text_chars;
      return runTts(task, ctx, sentences, maxChars);
    },
  };
};

export default createEspeakEngine;
