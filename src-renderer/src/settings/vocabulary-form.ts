/**
 * The Vocabulary settings' text fields and the body of PUT /v1/vocabulary: hotwords one per line, replacements one per
 * line as "what is heard => what to write" ("→" also separates). Blank lines are skipped; a replacement line without
 * a separator, or with an empty side, is named by its line number so the person can fix it. The service checks the
 * rest (lengths, duplicates, "," in a hotword) and its refusal names the entry.
 */
import type { Replacement, Vocabulary } from '$common/vocabulary.js';

export interface VocabularyDraft {
  hotwords: string;
  replacements: string;
}

/** What the fields show for a stored vocabulary. */
export function draftFrom(vocabulary: Vocabulary): VocabularyDraft {
  return { hotwords: vocabulary.hotwords.join('\n'), replacements: vocabulary.replacements.map((r) => `${r.from} => ${r.to}`).join('\n') };
}

const SEPARATOR = /\s*(?:=>|→)\s*/;

/** The body to PUT, or the number of the first replacement line that is not "from => to" (1-based). */
export function bodyFrom(draft: VocabularyDraft): { body: Vocabulary } | { badLine: number } {
  const hotwords = draft.hotwords.split('\n').map((line) => line.trim()).filter(Boolean);
  const replacements: Replacement[] = [];
  for (const [i, line] of draft.replacements.split('\n').entries()) {
    if (line.trim() === '') continue;
    const parts = line.split(SEPARATOR);
    if (parts.length !== 2 || !parts[0]!.trim() || !parts[1]!.trim()) return { badLine: i + 1 };
    replacements.push({ from: parts[0]!.trim(), to: parts[1]!.trim() });
  }
  return { body: { hotwords, replacements } };
}
