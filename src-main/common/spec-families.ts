/**
 * The spec's neutral labels for model families (audio-service-api.md, "Notation": W-turbo, W-full, P3 …). The spec
 * states its per-model params against these labels, and a client written from the spec looks for a model by them,
 * so every catalogue record says which one it serves (`spec_family`, null when none fits): on-device packages get
 * theirs from the curated list (models/packages/curated-models.ts), which also decides the family's params (e.g.
 * only W-full translates, P3's blank penalty defaults to 0.75).
 */

export const SPEC_FAMILIES = ['W-turbo', 'W-full', 'P3', 'P2', 'P-ctc', 'P-rnnt', 'C-flash', 'C-v2', 'Q-asr', 'CO-asr'] as const;

export type SpecFamily = (typeof SPEC_FAMILIES)[number];

/** The spec's own words for each label. */
export const SPEC_FAMILY_MEANINGS: Record<SpecFamily, string> = {
  'W-turbo': 'multilingual general model, turbo variant',
  'W-full': 'the full variant of the same family; also supports translation to English',
  P3: 'batch model, 25 European languages',
  P2: 'batch model, English',
  'P-ctc': 'batch model, English, word timestamps from token times',
  'P-rnnt': 'batch model, English, word timestamps from token times',
  'C-flash': '25 European languages, word timestamps',
  'C-v2': '25 European languages, word timestamps',
  'Q-asr': '30 languages, accepts a prompt',
  'CO-asr': 'batch model, language is required',
};

export function isSpecFamily(value: string): value is SpecFamily {
  return (SPEC_FAMILIES as readonly string[]).includes(value);
}
