import { describe, expect, it } from 'vitest';
import { KOKORO_V019_SPEAKERS } from '../../../../../src-main/engines/tts/kokoro-voices.js';
import { designRecipe, isUsableRecipe, unmetVoice } from '../../../../../src-main/engines/tts/design/voice-recipe.js';

const V1 = ['af_bella', 'af_heart', 'af_sky', 'am_adam', 'am_echo', 'bf_emma', 'bm_george', 'ef_dora', 'em_alex', 'zf_xiaobei'];

describe('a designed voice recipe', () => {
  it('blends up to three voices of the asked accent and gender, weights summing to 1, the same for the same attributes', () => {
    const recipe = designRecipe('kokoro', V1, { gender: 'female', accent: 'american' });
    expect(recipe.voices.length).toBe(3);
    for (const v of recipe.voices) expect(v.name).toMatch(/^af_/);
    expect(recipe.voices.reduce((s, v) => s + v.weight, 0)).toBeCloseTo(1, 6);
    expect(recipe.voices.every((v) => V1[v.speaker] === v.name)).toBe(true);
    expect(designRecipe('kokoro', V1, { gender: 'female', accent: 'american' })).toEqual(recipe);
    const others = [1, 2, 3, 4].map((seed) => designRecipe('kokoro', V1, { gender: 'female', accent: 'american' }, seed).voices);
    expect(others.some((v) => JSON.stringify(v) !== JSON.stringify(recipe.voices))).toBe(true);
  });

  it('keeps a blend within one language when no accent is asked, and names the language for a multilingual model', () => {
    for (let seed = 0; seed < 20; seed++) {
      const recipe = designRecipe('kokoro', V1, { gender: 'male' }, seed, true);
      expect(new Set(recipe.voices.map((v) => v.name[0])).size).toBe(1);
      expect(recipe.espeak).not.toBeNull();
    }
  });

  it('turns pitch, pace and age into a shift and a rate, saying that age chooses no voices', () => {
    expect(designRecipe('k', V1, { pitch: 'low', pace: 'fast' })).toMatchObject({ pitchSemitones: -2, speed: 1.15, notes: [] });
    const child = designRecipe('k', V1, { age: 'child', pitch: 'high' });
    expect(child.pitchSemitones).toBe(4);
    expect(child.notes.join(' ')).toContain('not labelled by age');
    expect(designRecipe('k', V1, { age: 'old' })).toMatchObject({ pitchSemitones: -1, speed: 0.92 });
  });

  it('refuses an accent or gender none of the voices has, naming what there is', () => {
    expect(unmetVoice('kokoro-en-v0_19', KOKORO_V019_SPEAKERS, { accent: 'spanish' })).toMatch(/accents: american, british/);
    expect(unmetVoice('k', ['zf_xiaobei'], { gender: 'male' })).toMatch(/no male voice/);
    expect(unmetVoice('k', ['speaker0', 'speaker1'], { gender: 'male' })).toMatch(/Kokoro's scheme/);
    expect(unmetVoice('kokoro-en-v0_19', KOKORO_V019_SPEAKERS, { accent: 'american', gender: 'female' })).toBeNull();
    // Asked anyway, the recipe refuses rather than inventing a voice.
    expect(() => designRecipe('kokoro-en-v0_19', KOKORO_V019_SPEAKERS, { accent: 'spanish' })).toThrow(/accents: american, british/);
  });

  it('is checked against the model it is used with', () => {
    const recipe = designRecipe('k', V1, { gender: 'female' });
    expect(isUsableRecipe(recipe, V1.length)).toBe(true);
    expect(isUsableRecipe(recipe, 1)).toBe(false);
  });
});
