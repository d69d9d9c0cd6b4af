/**
 * Designed voices of one Kokoro share one model load (design/designed-voice-bank.ts): the bank's slots, and the
 * engine worker's sherpa-tts engine speaking three designed voices of the tiny Kokoro v0.19 (../shared/models/tiny)
 * in turn — each loads the bank once on its first use, and every later sentence of any of them loads nothing, while
 * each voice still speaks its own style vector.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SherpaTtsEngineConfig } from '../../../../../src-main/engines/tts/tts-families.js';
import { ttsFamilyDefinition } from '../../../../../src-main/engines/tts/tts-families.js';
import { DesignedVoiceBank } from '../../../../../src-main/engines/tts/design/designed-voice-bank.js';
import type { VoiceRecipe } from '../../../../../src-main/engines/tts/design/voice-recipe.js';
import createSherpaTtsEngine from '../../../../../src-main/engines/tts/sherpa-tts-engine.js';
import { SherpaVoice } from '../../../../../src-main/engines/tts/sherpa-tts-runtime.js';
import { SHARED } from '../../../../helpers/system.js';
import { tempWorkDir, testContext, ttsTask } from '../../../../helpers/tts-context.js';
import { scaled } from '../../../../helpers/time-scale.js';

const work = tempWorkDir();
afterAll(() => work.remove());
afterEach(() => vi.restoreAllMocks());

const def = ttsFamilyDefinition('kokoro', {
  id: 'tiny-kokoro',
  dir: join(SHARED, 'models/tiny/tiny-kokoro'),
  languages: ['en'],
  files: { model: 'model.int8.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' },
  numSpeakers: 11,
  sampleRate: 24000,
});
const config = def.engineConfig as unknown as SherpaTtsEngineConfig;

function recipe(voices: [number, number][], over: Partial<VoiceRecipe> = {}): VoiceRecipe {
  return {
    model: 'tiny-kokoro',
    voices: voices.map(([speaker, weight]) => ({ name: `v${speaker}`, speaker, weight })),
    speed: 1,
    pitchSemitones: 0,
    espeak: null,
    attributes: {},
    seed: 0,
    notes: [],
    ...over,
  };
}

const A = recipe([[0, 0.5], [1, 0.5]]);
const B = recipe([[2, 0.7], [3, 0.3]]);
const C = recipe([[4, 1]], { pitchSemitones: 2, speed: 0.9 });

describe('a bank of designed voices', () => {
  it('gives each voice a speaker slot of one voices file, rebuilt only when a voice is new to it', () => {
    const bank = new DesignedVoiceBank(config, join(work.dir, 'bank-unit'));
    const a = bank.place(A);
    const b = bank.place(B);
    expect([a.speaker, b.speaker]).toEqual([0, 1]);
    expect(b.config.model.kokoro!.voices).not.toBe(a.config.model.kokoro!.voices);
    // Known voices (pace and pitch are not in the vectors: the same blend is the same slot) keep the file.
    expect(bank.place({ ...A, speed: 1.2 })).toEqual({ config: b.config, speaker: 0 });
    expect(bank.place(B)).toEqual(b);
    expect(bank.size).toBe(2);
  });

  it('past its speaker count, the least recently used voice gives up its slot', () => {
    const bank = new DesignedVoiceBank(config, join(work.dir, 'bank-full'));
    for (let s = 0; s < 11; s++) bank.place(recipe([[s, 1]]));
    bank.place(recipe([[0, 1]])); // used again: the oldest is now slot 1
    expect(bank.place(recipe([[0, 0.5], [10, 0.5]])).speaker).toBe(1);
    expect(bank.size).toBe(11);
  });

  it('refuses a recipe that does not fit the model, and a model that is not a multi-speaker Kokoro', () => {
    const bank = new DesignedVoiceBank(config, join(work.dir, 'bank-bad'));
    expect(() => bank.place(recipe([[11, 1]]))).toThrow(/does not fit this model/);
    expect(() => new DesignedVoiceBank({ ...config, numSpeakers: 1 }, work.dir)).toThrow(/multi-speaker Kokoro/);
  });
});

describe('the engine worker speaks several designed voices of a Kokoro from one load', () => {
  it('loads the bank once per first use of a voice, nothing after, and each voice speaks its own vector', { timeout: scaled(120_000) }, async () => {
    const engine = createSherpaTtsEngine() as Awaited<ReturnType<typeof createSherpaTtsEngine>>;
    const loads = vi.spyOn(SherpaVoice, 'load');
    let n = 0;
    const speak = async (voice: VoiceRecipe): Promise<Buffer> => {
      const dir = join(work.dir, 'data', 'artifacts', `job_${n++}`);
      mkdirSync(dir, { recursive: true });
      const task = ttsTask(dir, 'hello world', { speed: 1 }, { engine: 'sherpa-tts', modelId: 'tiny-kokoro', engineConfig: def.engineConfig });
      const out = await engine.run({ ...task, input: { text: 'hello world', designedVoice: { recipe: voice, unknownWords: [], savedVoice: null } } }, testContext());
      return readFileSync(out.artifacts[0]!.path);
    };
    const first = [await speak(A), await speak(B), await speak(C)];
    expect(loads).toHaveBeenCalledTimes(3);
    const again = [await speak(C), await speak(A), await speak(B), await speak(A)];
    expect(loads).toHaveBeenCalledTimes(3);
    expect(Buffer.compare(first[0]!, first[1]!)).not.toBe(0);
    expect(Buffer.compare(first[1]!, first[2]!)).not.toBe(0);
    // A voice sounds the same from the bank it was added to and from the bank that holds all three.
    expect(Buffer.compare(again[1]!, first[0]!)).toBe(0);
    expect(Buffer.compare(again[2]!, first[1]!)).toBe(0);
    engine.dispose?.();
  });
});
