/**
 * Which recognizer the welcome screen recommends: for English, Parakeet TDT 0.6B v2 (the strongest English
 * recognizer of the curated list); for the 25 European languages of Parakeet TDT 0.6B v3, that one; for any other
 * language, Whisper small (about 100 languages). Only a model the catalogue offers for download counts, so a hosted
 * or an unknown catalogue changes nothing here. Pure.
 */
import type { CatalogueRecord } from '$common/api-types.js';

export const ENGLISH_RECOGNIZER = 'parakeet-tdt-0.6b-v2';
export const EUROPEAN_RECOGNIZER = 'parakeet-tdt-0.6b-v3';
export const MULTILINGUAL_RECOGNIZER = 'whisper-small';

/** The language a person speaks, as a primary subtag: the language they chose for the interface, else the system's. */
export function speechLanguage(chosen: string | null, systemLanguages: readonly string[]): string {
  const tag = chosen ?? systemLanguages[0] ?? 'en';
  return tag.toLowerCase().split(/[-_]/)[0] || 'en';
}

export function recommendRecognizer(models: readonly CatalogueRecord[], language: string): CatalogueRecord | null {
  const offered = (id: string): CatalogueRecord | undefined => models.find((m) => m.id === id && m.capability === 'asr' && m.download !== null);
  const speaks = (m: CatalogueRecord | undefined): m is CatalogueRecord => !!m && m.languages.includes(language);
  if (language === 'en') return offered(ENGLISH_RECOGNIZER) ?? offered(EUROPEAN_RECOGNIZER) ?? offered(MULTILINGUAL_RECOGNIZER) ?? null;
  const european = offered(EUROPEAN_RECOGNIZER);
  if (speaks(european)) return european;
  return offered(MULTILINGUAL_RECOGNIZER) ?? european ?? null;
}

/** Whether a recognizer better than the built-in ones is installed (a downloaded, imported or hosted one). */
export function hasChosenRecognizer(models: readonly CatalogueRecord[]): boolean {
  return models.some((m) => m.capability === 'asr' && m.status === 'available' && (m.download !== null || m.provider === 'remote' || m.engine !== 'pocketsphinx'));
}
