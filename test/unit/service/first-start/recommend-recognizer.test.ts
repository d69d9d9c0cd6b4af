/** The first-start recommendation rule (service/first-start/recommend-recognizer.ts) over the curated packages. */
import { describe, expect, it } from 'vitest';
import { CURATED_PACKAGES, packageSize } from '../../../../src-main/models/packages/curated-models.js';
import type { PackageStatus } from '../../../../src-main/models/packages/package-status.js';
import { fallbackRecognizer, primaryLanguage, recommendRecognizers } from '../../../../src-main/service/first-start/recommend-recognizer.js';

/** The curated packages as a fresh model manager lists them. */
const packages: PackageStatus[] = CURATED_PACKAGES.map((p) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  capability: p.capability,
  family: p.family,
  languages: p.languages,
  licence: p.licence,
  version: p.version,
  source: 'curated',
  size_bytes: packageSize(p),
  installed: false,
  state: 'not_installed',
  verified: null,
  progress: null,
  downloaded_bytes: null,
  error_code: null,
  error_message: null,
  dir: null,
  built_in: false,
  spec_family: p.specFamily ?? null,
  speed_class: p.speedClass ?? null,
  unconfirmed: null,
}));

const ids = (language: string): string[] => recommendRecognizers(language, packages).map((r) => r.id);

describe('recommendRecognizers', () => {
  it('English: Parakeet TDT v2 alone, with its size and licence', () => {
    const [only, ...rest] = recommendRecognizers('en', packages);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ id: 'parakeet-tdt-0.6b-v2', reason: 'best_for_english', licence: 'CC-BY-4.0', state: 'not_installed', progress: null });
    expect(only!.size_bytes).toBe(packageSize(CURATED_PACKAGES.find((p) => p.id === 'parakeet-tdt-0.6b-v2')!));
    expect(only!.reason_text).toMatch(/English/);
  });

  it('a European language Parakeet v3 knows: v3, then Whisper small', () => {
    expect(ids('de')).toEqual(['parakeet-tdt-0.6b-v3', 'whisper-small']);
    expect(ids('es')).toEqual(['parakeet-tdt-0.6b-v3', 'whisper-small']);
    expect(recommendRecognizers('de', packages)[1]).toMatchObject({ reason: 'many_languages', licence: 'MIT' });
  });

  it('any other language: Whisper small', () => {
    expect(ids('ja')).toEqual(['whisper-small']);
    expect(ids('sw')).toEqual(['whisper-small']);
  });

  it('carries the package’s download state and progress', () => {
    const downloading = packages.map((p) => (p.id === 'whisper-small' ? { ...p, state: 'downloading' as const, progress: 0.25, downloaded_bytes: 1000 } : p));
    expect(recommendRecognizers('ja', downloading)[0]).toMatchObject({ state: 'downloading', progress: 0.25, downloaded_bytes: 1000 });
  });

  it('leaves out what the service does not offer', () => {
    expect(recommendRecognizers('en', packages.filter((p) => p.id !== 'parakeet-tdt-0.6b-v2'))).toEqual([]);
  });
});

describe('primaryLanguage', () => {
  it('takes the primary subtag of a language tag, lower-case', () => {
    expect(primaryLanguage('de-AT')).toBe('de');
    expect(primaryLanguage('pt_BR')).toBe('pt');
    expect(primaryLanguage('EN')).toBe('en');
    expect(primaryLanguage('zh-Hant-TW')).toBe('zh');
  });
  it('refuses what is not a language tag', () => {
    for (const bad of ['', 'x', 'english please', '12', 'de--AT', '<script>']) expect(primaryLanguage(bad), bad).toBeNull();
  });
});

describe('fallbackRecognizer', () => {
  it('offers PocketSphinx marked as low accuracy, available or not; nothing when the system has none', () => {
    const row = { id: 'pocketsphinx-en-us', name: 'PocketSphinx (US English)', languages: ['en'], status: 'available' };
    expect(fallbackRecognizer(row)).toMatchObject({ id: 'pocketsphinx-en-us', available: true, accuracy: 'low', note: expect.stringContaining('half the words') });
    expect(fallbackRecognizer({ ...row, status: 'unavailable' })!.available).toBe(false);
    expect(fallbackRecognizer(undefined)).toBeNull();
  });
});
