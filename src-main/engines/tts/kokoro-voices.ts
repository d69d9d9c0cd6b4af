/**
 * The languages of a multilingual Kokoro's speakers (v1.0: 53 voices in nine languages). Kokoro names each voice
 * `<language><gender>_<name>` (af_heart: American English, female), and sherpa-onnx's multi-language frontend is told
 * per request which espeak-ng voice phonemizes the text that is not Chinese (Chinese goes through lexicon-zh.txt), so
 * each speaker speaks with its own language's phonemes: a Spanish voice reads Spanish as Spanish.
 */

/** Kokoro v0.19's eleven speakers, in speaker-id order (the sherpa-onnx release's voices.bin; its metadata names none). */
export const KOKORO_V019_SPEAKERS: readonly string[] = ['af', 'af_bella', 'af_nicole', 'af_sarah', 'af_sky', 'am_adam', 'am_michael', 'bf_emma', 'bf_isabella', 'bm_george', 'bm_lewis'];

interface KokoroLanguage {
  /** The language code the catalogue lists (lower-case, as the packages' languages). */
  code: string;
  /** The espeak-ng voice sherpa-onnx phonemizes with (generationConfig.extra.lang). */
  espeak: string;
  label: string;
}

/** Kokoro's language letters (hexgrad/Kokoro-82M VOICES.md; misaki's language codes). */
const LANGUAGES: Record<string, KokoroLanguage> = {
  a: { code: 'en', espeak: 'en-us', label: 'English (US)' },
  b: { code: 'en', espeak: 'en', label: 'English (UK)' }, // espeak-ng's "en" is British English
  e: { code: 'es', espeak: 'es', label: 'Spanish' },
  f: { code: 'fr', espeak: 'fr-fr', label: 'French' },
  h: { code: 'hi', espeak: 'hi', label: 'Hindi' },
  i: { code: 'it', espeak: 'it', label: 'Italian' },
  j: { code: 'ja', espeak: 'ja', label: 'Japanese' },
  p: { code: 'pt', espeak: 'pt-br', label: 'Portuguese (Brazil)' },
  z: { code: 'zh', espeak: 'cmn', label: 'Chinese (Mandarin)' },
};

/** The language of a Kokoro voice by its name (`ef_dora` → Spanish), or null for a name not in Kokoro's scheme. */
export function kokoroVoiceLanguage(name: string): KokoroLanguage | null {
  const match = /^([a-z])[fm]_/.exec(name);
  return match ? (LANGUAGES[match[1]!] ?? null) : null;
}

/** Whether the speakers span more than English: the model then needs its language per request. */
export function isMultilingualKokoro(names: readonly string[] | undefined): boolean {
  return !!names && names.some((name) => (kokoroVoiceLanguage(name)?.code ?? 'en') !== 'en');
}

/** The catalogue label of a speaker: `ef_dora (Spanish, female)`. */
export function kokoroVoiceLabel(name: string): string {
  const language = kokoroVoiceLanguage(name);
  if (!language) return name;
  return `${name} (${language.label}, ${name[1] === 'f' ? 'female' : 'male'})`;
}
