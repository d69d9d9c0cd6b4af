/**
 * The Models tab's filters: which language a model must speak and which task (capability) it does. The options come
 * from the catalogue itself (only languages and tasks some model has), and a model passes when it lists the language
 * (a language-independent model, such as a denoiser, passes any language only when no language is chosen).
 */
import type { CatalogueRecord } from '$common/api-types.js';

export interface ModelFilter {
  /** A language code, or '' for any. */
  language: string;
  /** A capability (asr, tts, noise_reduction …), or '' for any. */
  task: string;
}

export const NO_FILTER: ModelFilter = { language: '', task: '' };

export function matchesFilter(model: CatalogueRecord, filter: ModelFilter): boolean {
  if (filter.task && model.capability !== filter.task) return false;
  if (filter.language && !model.languages.includes(filter.language)) return false;
  return true;
}

export function filterModels(models: readonly CatalogueRecord[], filter: ModelFilter): CatalogueRecord[] {
  return models.filter((m) => matchesFilter(m, filter));
}

/** The languages some model speaks, by their name in `locale` (codes without a name sort after, as they are). */
export function languageOptions(models: readonly CatalogueRecord[], locale: string): Array<{ code: string; name: string }> {
  const codes = [...new Set(models.flatMap((m) => m.languages))];
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale], { type: 'language' });
  } catch {
    names = null;
  }
  const named = codes.map((code) => {
    let name = code;
    try {
      name = names?.of(code) ?? code;
    } catch {
      name = code;
    }
    return { code, name: name === code ? code : `${name} (${code})` };
  });
  return named.sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** The tasks (capabilities) some model does, in catalogue order. */
export function taskOptions(models: readonly CatalogueRecord[]): string[] {
  return [...new Set(models.map((m) => m.capability))];
}
