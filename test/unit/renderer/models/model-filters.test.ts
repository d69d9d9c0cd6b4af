/**
 * The Models tab's filters (src-renderer/src/models/model-filters.ts) over a real service's catalogue, as a new user
 * tries them (issue 34's acceptance): filtering by German offers a recognizer and a voice, each downloadable with its
 * size and licence; the task filter keeps one capability; the language options are named in the interface's language.
 */
import { describe, expect, it } from 'vitest';
import { filterModels, languageOptions, NO_FILTER, taskOptions } from '../../../../src-renderer/src/models/model-filters.js';
import { useConnectedApp } from '../../../helpers/renderer-host.js';
import { scaled } from '../../../helpers/time-scale.js';

const ctx = useConnectedApp({ builtInModels: false });

describe('the Models tab filters', () => {
  it('filtered by German, offers a recognizer and a voice with their download sizes and licences', async () => {
    await ctx.app.loadModels();
    const german = filterModels(ctx.app.models, { ...NO_FILTER, language: 'de' });
    const recognizers = german.filter((m) => m.capability === 'asr');
    const voices = german.filter((m) => m.capability === 'tts');
    expect(recognizers.map((m) => m.id)).toEqual(expect.arrayContaining(['parakeet-tdt-0.6b-v3', 'canary-180m-flash', 'whisper-large-v3-turbo']));
    expect(voices.map((m) => m.id)).toContain('piper-de-de-thorsten-medium');
    for (const m of [...recognizers, ...voices].filter((r) => r.download)) {
      expect(m.download!.size_bytes, m.id).toBeGreaterThan(0);
      expect(m.download!.licence.trim(), m.id).not.toBe('');
    }
    expect(german.every((m) => m.languages.includes('de'))).toBe(true);
  }, scaled(120_000));

  it('keeps one task, and offers only the languages and tasks the catalogue has, named in the interface language', async () => {
    await ctx.app.loadModels();
    const voices = filterModels(ctx.app.models, { language: '', task: 'tts' });
    expect(voices.length).toBeGreaterThan(0);
    expect(voices.every((m) => m.capability === 'tts')).toBe(true);
    expect(taskOptions(ctx.app.models)).toEqual(expect.arrayContaining(['asr', 'tts']));
    const inGerman = languageOptions(ctx.app.models, 'de');
    expect(inGerman.find((l) => l.code === 'de')!.name).toBe('Deutsch (de)');
    expect(languageOptions(ctx.app.models, 'en').find((l) => l.code === 'fr')!.name).toBe('French (fr)');
    expect(filterModels(ctx.app.models, { language: 'zz', task: '' })).toEqual([]);
  }, scaled(120_000));
});
