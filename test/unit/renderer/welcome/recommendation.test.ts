/** Which recognizer the welcome screen recommends for a person's language (src-renderer/src/welcome/recommendation.ts). */
import { describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../../src-main/common/api-types.js';
import { hasChosenRecognizer, recommendRecognizer, speechLanguage } from '../../../../src-renderer/src/welcome/recommendation.js';

const model = (id: string, languages: string[], patch: Partial<CatalogueRecord> = {}): CatalogueRecord =>
  ({ id, name: id, capability: 'asr', status: 'unavailable', provider: 'local', engine: 'sherpa-asr', languages, download: { size_bytes: 1, installed: false, licence: 'MIT' }, ...patch }) as CatalogueRecord;

const CATALOGUE = [
  model('pocketsphinx-en-us', ['en'], { status: 'available', engine: 'pocketsphinx', download: null }),
  model('whisper-small', ['en', 'de', 'ja', 'fr']),
  model('parakeet-tdt-0.6b-v3', ['en', 'de', 'fr', 'es']),
  model('parakeet-tdt-0.6b-v2', ['en']),
];

describe('the recommended recognizer', () => {
  it('is Parakeet v2 for English, Parakeet v3 for its European languages, Whisper small for the others', () => {
    const pick = (models: CatalogueRecord[], language: string) => {
      const r = recommendRecognizer(models, language);
      return r && [r.model.id, r.reason];
    };
    expect(pick(CATALOGUE, 'en')).toEqual(['parakeet-tdt-0.6b-v2', 'best_for_english']);
    expect(pick(CATALOGUE, 'de')).toEqual(['parakeet-tdt-0.6b-v3', 'european_languages']);
    expect(pick(CATALOGUE, 'ja')).toEqual(['whisper-small', 'many_languages']);
    expect(pick(CATALOGUE.filter((m) => m.id !== 'whisper-small'), 'ja')).toEqual(['parakeet-tdt-0.6b-v3', 'european_languages']);
    expect(recommendRecognizer([CATALOGUE[0]!], 'en')).toBeNull();
  });

  it('follows the language chosen for the interface, else the system’s first', () => {
    expect(speechLanguage(null, ['fr-CA', 'en'])).toBe('fr');
    expect(speechLanguage('de', ['fr-CA'])).toBe('de');
    expect(speechLanguage(null, [])).toBe('en');
  });

  it('counts PocketSphinx alone as no recognizer chosen yet, a downloaded or imported one as chosen', () => {
    expect(hasChosenRecognizer(CATALOGUE)).toBe(false);
    expect(hasChosenRecognizer([...CATALOGUE, model('parakeet-tdt-0.6b-v2', ['en'], { status: 'available' })])).toBe(true);
    expect(hasChosenRecognizer([...CATALOGUE, model('imported-whisper', ['en'], { status: 'available', download: null })])).toBe(true);
  });
});
