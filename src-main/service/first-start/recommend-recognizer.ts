/**
 * Which recognizer the first-start screen recommends for a language (issue 35.3): a new user otherwise meets
 * PocketSphinx first, about half of whose words are wrong. Parakeet TDT v2 for English (the most accurate English
 * recognizer offered), Parakeet TDT v3 for the 25 European languages it covers (Whisper small beside it), Whisper small
 * for every other language (about 100, spoken language detected). Pure: the packages' states come in.
 */
import type { FallbackRecognizer, RecommendationReason, RecommendedRecognizer } from '../../common/api-types.js';
import type { PackageStatus } from '../../models/packages/package-status.js';

export const ENGLISH_RECOGNIZER = 'parakeet-tdt-0.6b-v2';
export const EUROPEAN_RECOGNIZER = 'parakeet-tdt-0.6b-v3';
export const MULTILINGUAL_RECOGNIZER = 'whisper-small';
/** The recognizer that needs no download (Debian's PocketSphinx, US English). */
export const FALLBACK_RECOGNIZER = 'pocketsphinx-en-us';

const REASON_TEXT: Record<RecommendationReason, string> = {
  best_for_english: 'The most accurate English recognizer Voxdesk offers.',
  european_languages: 'Recognizes 25 European languages, yours among them.',
  many_languages: 'Recognizes about 100 languages and detects which one is spoken.',
};

/** The primary language subtag of a BCP-47 tag, lower-case (`de-AT` → `de`); null when it is not one. */
export function primaryLanguage(tag: string): string | null {
  const match = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/.exec(tag.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** The package ids to offer for `language`, best first, with why. */
export function recognizersFor(language: string): { id: string; reason: RecommendationReason }[] {
  if (language === 'en') return [{ id: ENGLISH_RECOGNIZER, reason: 'best_for_english' }];
  return [
    { id: EUROPEAN_RECOGNIZER, reason: 'european_languages' },
    { id: MULTILINGUAL_RECOGNIZER, reason: 'many_languages' },
  ];
}

/**
 * The recommendation and alternatives among the offered packages: Parakeet v3 only for a language it lists (else
 * Whisper small alone).
 */
export function recommendRecognizers(language: string, packages: readonly PackageStatus[]): RecommendedRecognizer[] {
  const out: RecommendedRecognizer[] = [];
  for (const { id, reason } of recognizersFor(language)) {
    const pkg = packages.find((p) => p.id === id);
    if (!pkg) continue;
    if (reason === 'european_languages' && !pkg.languages.includes(language)) continue;
    out.push({
      id,
      name: pkg.name,
      languages: pkg.languages,
      size_bytes: pkg.size_bytes,
      licence: pkg.licence,
      reason,
      reason_text: REASON_TEXT[reason],
      state: pkg.state,
      progress: pkg.progress,
      downloaded_bytes: pkg.downloaded_bytes,
      error_code: pkg.error_code,
      error_message: pkg.error_message,
    });
  }
  return out;
}

/** PocketSphinx as the welcome screen offers it ("use PocketSphinx for now"), clearly marked as low accuracy. */
export function fallbackRecognizer(row: { id: string; name: string; languages: string[]; status: string } | undefined): FallbackRecognizer | null {
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    languages: row.languages,
    available: row.status === 'available',
    accuracy: 'low',
    note: 'Works with nothing to download, in US English only, but about half the words of a recording come out wrong.',
  };
}
