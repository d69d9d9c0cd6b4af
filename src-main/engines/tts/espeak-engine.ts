/** EngineKind 'espeak': text-to-speech jobs with eSpeak NG (compiled to JavaScript) in the worker process. */
import type { Engine, EngineFactory } from '../engine-types.js';
import { ESPEAK_LIMITS } from './espeak-models.js';
import { DEFAULT_ESPEAK_VOICE, EspeakSynth, type EspeakVoiceSettings } from './espeak-synth.js';
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

function int16ToFloat(chunk: Int16Array): Float32Array {
  const out = new Float32Array(chunk.length);
  for (let i = 0; i < chunk.length; i++) out[i] = chunk[i]! / 32768;
  return out;
}

const createEspeakEngine: EngineFactory = async (): Promise<Engine> => {
  const synth = await EspeakSynth.create();
  let voiceKey: string | null = null;
  const engine: Engine = {
    async warm(signal) {
      // Spoken as a default job is (the voice the catalogue's params default to), so that job finds its voice loaded.
      await warmTts((task, ctx) => engine.run(task, ctx), { engine: 'espeak', params: { voice: DEFAULT_ESPEAK_VOICE, speed: 1, pitch: 50 } }, signal);
    },
    async run(task, ctx) {
      // Loading a voice costs about a millisecond: a worker speaking with the same settings again skips it.
      const settings = espeakSettingsFromParams(task.params);
      const key = JSON.stringify(settings);
      if (key !== voiceKey) {
        voiceKey = null;
        synth.configure(settings);
        voiceKey = key;
      }
      const limit = task.engineConfig.maxTextChars;
      const maxChars = typeof limit === 'number' ? limit : ESPEAK_LIMITS.max_text_chars;
      const synthesize = async (sentence: string, onChunk?: (samples: Float32Array) => void): Promise<Float32Array> =>
        synth.synthesize(sentence, onChunk && ((chunk) => void (chunk.length > 0 && onChunk(int16ToFloat(chunk)))));
      return runTts(task, ctx, { sampleRate: synth.sampleRate, synthesize }, maxChars);
    },
  };
  return engine;
};

export default createEspeakEngine;
