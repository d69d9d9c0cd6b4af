import { describe, expect, it } from 'vitest';
import { combineAttributes, descriptionLanguage, hasAttributes, readDescription } from '../../../src-main/common/voice-description.js';

describe('reading a voice description', () => {
  it('finds gender, age, accent, pitch and pace by the English keyword rules and reports unknown words', () => {
    expect(readDescription('A calm, deep-voiced old British gentleman who speaks slowly')).toEqual({
      attributes: { gender: 'male', age: 'old', accent: 'british', pace: 'slow' },
      unknownWords: ['calm', 'deep-voiced'],
      contradictions: [],
    });
    expect(readDescription('a high-pitched young woman, fast').attributes).toEqual({ gender: 'female', age: 'young', pitch: 'high', pace: 'fast' });
    expect(readDescription('a girl').attributes).toEqual({ gender: 'female', age: 'young' });
  });

  it('reports two values of one attribute as a contradiction; English narrows to British without one', () => {
    expect(readDescription('a deep high voice').contradictions).toEqual(['pitch: low and high']);
    expect(readDescription('a man or a woman').contradictions).toEqual(['gender: male and female']);
    expect(readDescription('an English voice with a British accent')).toMatchObject({ attributes: { accent: 'british' }, contradictions: [] });
  });

  it('reads German and Spanish by their own rules', () => {
    expect(readDescription('eine tiefe weibliche Stimme, langsam', 'de').attributes).toEqual({ gender: 'female', pitch: 'low', pace: 'slow' });
    expect(readDescription('una voz masculina grave y rápida', 'es').attributes).toEqual({ gender: 'male', pitch: 'low', pace: 'fast' });
    expect(descriptionLanguage('de-AT')).toBe('de');
    expect(descriptionLanguage('fr')).toBe('en');
  });

  it('combines the described attributes with the structured ones, which must agree', () => {
    const read = readDescription('a British woman');
    expect(combineAttributes({ pace: 1.2 }, read)).toEqual({ attributes: { gender: 'female', accent: 'british', pace: 1.2 }, contradictions: [] });
    expect(combineAttributes({ gender: 'male' }, read).contradictions).toEqual(['gender: male in params, female in the description']);
    expect(combineAttributes({ accent: 'english' }, read)).toEqual({ attributes: { gender: 'female', accent: 'british' }, contradictions: [] });
    expect(hasAttributes(readDescription('purple elephant').attributes)).toBe(false);
  });
});
