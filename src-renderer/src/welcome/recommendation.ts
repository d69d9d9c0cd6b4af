/**
 * Which recognizer the welcome screen recommends, when the service does not say (a service without GET
 * /v1/local/welcome; see welcome-offer.ts): for English, Parakeet TDT 0.6B v2 (the strongest English recognizer of the
 * curated list); for the 25 European languages of Parakeet TDT 0.6B v3, that one; for any other language, Whisper
 * small (about 100 languages) — the service's own rule. Only a model the catalogue offers for download counts. Pure.
 */
import type { CatalogueRecord } from '$common/api-types.js';

export const ENGLISH_RECOGNIZER = 'parakeet-tdt-0.6b-v2';
export const EUROPEAN_RECOGNIZER = 'parakeet-tdt-0.6b-v3';
export const MULTILINGUAL_RECOGNIZER = 'whisper-small';

/** Why a recognizer is recommended (the service's codes; the screen words them in the person's language). */
export type RecommendationReason = 'best_for_english' | 'european_languages' | 'many_languages';

/** The language a person speaks, as a primary subtag: the language they chose for the interface, else the system's. */
export function speechLanguage(chosen: string | null, systemLanguages: readonly string[]): string {
  const tag = chosen ?? systemLanguages[0] ?? 'en';
  return tag.toLowerCase().split(/[-_]/)[0] || 'en';
}

export function recommendRecognizer(models: readonly CatalogueRecord[], language: string): { model: CatalogueRecord; reason: RecommendationReason } | null {
  const offered = (id: string): CatalogueRecord | undefined => models.find((m) => m.id === id && m.capability === 'asr' && m.download !== null);
  const english = offered(ENGLISH_RECOGNIZER);
  const european = offered(EUROPEAN_RECOGNIZER);
  const many = offered(MULTILINGUAL_RECOGNIZER);
  if (language === 'en' && english) return { model: english, reason: 'best_for_english' };
  if (european?.languages.includes(language)) return { model: european, reason: 'european_languages' };
  if (many) return { model: many, reason: 'many_languages' };
  return european ? { model: european, reason: 'european_languages' } : null;
}

/** Whether a recognizer better than the built-in ones is installed (a downloaded, imported or hosted one). */
export function hasChosenRecognizer(models: readonly CatalogueRecord[]): boolean {
  return models.some((m) => m.capability === 'asr' && m.status === 'available' && (m.download !== null || m.provider === 'remote' || m.engine !== 'pocketsphinx'));
}
