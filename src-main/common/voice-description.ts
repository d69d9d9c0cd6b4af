/**
 * What a described voice asks for (voice design, docs/voices.md): gender, age, accent, pitch and pace, from
 * structured attributes and from a free-text description read by documented keyword rules. Pure, shared with the
 * renderer (the Voices tab shows what a description was read as). The rules are per language — English, German and
 * Spanish — and every word that is neither a rule's keyword nor a filler word is reported back as unknown, never
 * ignored silently. Two keywords of one attribute that disagree ("a deep high voice") are a contradiction: the
 * caller answers 400, since either choice would be a guess.
 */

export const VOICE_GENDERS = ['female', 'male'] as const;
export const VOICE_AGES = ['child', 'young', 'adult', 'old'] as const;
/** Accents the Kokoro voices are labelled with (kokoro-voices.ts); `english` is American or British. */
export const VOICE_ACCENTS = ['american', 'british', 'english', 'spanish', 'french', 'hindi', 'italian', 'japanese', 'portuguese', 'chinese'] as const;
export const VOICE_PITCHES = ['low', 'medium', 'high'] as const;
export const VOICE_PACES = ['slow', 'normal', 'fast'] as const;

export type VoiceGender = (typeof VOICE_GENDERS)[number];
export type VoiceAge = (typeof VOICE_AGES)[number];
export type VoiceAccent = (typeof VOICE_ACCENTS)[number];
export type VoicePitch = (typeof VOICE_PITCHES)[number];
export type VoicePace = (typeof VOICE_PACES)[number];

/** A described voice. `pitch` may also be semitones (-4…4) and `pace` a speaking rate (0.5…2). */
export interface VoiceAttributes {
  gender?: VoiceGender;
  age?: VoiceAge;
  accent?: VoiceAccent;
  pitch?: VoicePitch | number;
  pace?: VoicePace | number;
}
export type VoiceAttribute = keyof VoiceAttributes;
export const VOICE_ATTRIBUTES: readonly VoiceAttribute[] = ['gender', 'age', 'accent', 'pitch', 'pace'];

/** The languages whose descriptions have keyword rules. */
export const DESCRIPTION_LANGUAGES = ['en', 'de', 'es'] as const;
export type DescriptionLanguage = (typeof DESCRIPTION_LANGUAGES)[number];

type Rule = Partial<{ [K in VoiceAttribute]: Exclude<VoiceAttributes[K], number> }>;

/** English keywords (lower case; hyphenated forms are single words). */
const EN_RULES: Record<string, Rule> = {
  female: { gender: 'female' }, woman: { gender: 'female' }, women: { gender: 'female' }, lady: { gender: 'female' },
  feminine: { gender: 'female' }, she: { gender: 'female' }, her: { gender: 'female' },
  girl: { gender: 'female', age: 'young' }, girlish: { gender: 'female', age: 'young' },
  male: { gender: 'male' }, man: { gender: 'male' }, men: { gender: 'male' }, gentleman: { gender: 'male' },
  masculine: { gender: 'male' }, he: { gender: 'male' }, his: { gender: 'male' }, guy: { gender: 'male' },
  boy: { gender: 'male', age: 'young' }, boyish: { gender: 'male', age: 'young' },
  child: { age: 'child' }, kid: { age: 'child' }, childlike: { age: 'child' },
  young: { age: 'young' }, youthful: { age: 'young' }, teen: { age: 'young' }, teenage: { age: 'young' }, teenager: { age: 'young' },
  adult: { age: 'adult' }, 'middle-aged': { age: 'adult' }, mature: { age: 'adult' },
  old: { age: 'old' }, older: { age: 'old' }, elderly: { age: 'old' }, aged: { age: 'old' }, senior: { age: 'old' },
  grandmother: { gender: 'female', age: 'old' }, grandfather: { gender: 'male', age: 'old' },
  american: { accent: 'american' }, us: { accent: 'american' }, british: { accent: 'british' }, uk: { accent: 'british' },
  english: { accent: 'english' }, spanish: { accent: 'spanish' }, french: { accent: 'french' }, hindi: { accent: 'hindi' },
  indian: { accent: 'hindi' }, italian: { accent: 'italian' }, japanese: { accent: 'japanese' },
  portuguese: { accent: 'portuguese' }, brazilian: { accent: 'portuguese' }, chinese: { accent: 'chinese' }, mandarin: { accent: 'chinese' },
  deep: { pitch: 'low' }, low: { pitch: 'low' }, 'low-pitched': { pitch: 'low' }, bass: { pitch: 'low' }, baritone: { pitch: 'low' },
  high: { pitch: 'high' }, 'high-pitched': { pitch: 'high' }, squeaky: { pitch: 'high' }, shrill: { pitch: 'high' },
  medium: { pitch: 'medium' }, 'medium-pitched': { pitch: 'medium' },
  slow: { pace: 'slow' }, slowly: { pace: 'slow' }, unhurried: { pace: 'slow' }, leisurely: { pace: 'slow' },
  fast: { pace: 'fast' }, quick: { pace: 'fast' }, quickly: { pace: 'fast' }, rapid: { pace: 'fast' }, brisk: { pace: 'fast' },
};
const EN_FILLER = ['a', 'an', 'the', 'voice', 'voiced', 'with', 'and', 'who', 'that', 'speaks', 'speaking', 'talks', 'talking', 'accent', 'pitch', 'pitched', 'pace', 'paced', 'tone', 'very', 'quite', 'rather', 'slightly', 'bit', 'of', 'in', 'is', 'sounding', 'like', 'person', 'speaker', 'narrator', 'normal', 'average'];

const DE_RULES: Record<string, Rule> = {
  weiblich: { gender: 'female' }, weibliche: { gender: 'female' }, frau: { gender: 'female' }, mädchen: { gender: 'female', age: 'young' },
  männlich: { gender: 'male' }, männliche: { gender: 'male' }, mann: { gender: 'male' }, junge: { gender: 'male', age: 'young' },
  kind: { age: 'child' }, jung: { age: 'young' }, jugendlich: { age: 'young' }, erwachsen: { age: 'adult' }, alt: { age: 'old' }, ältere: { age: 'old' },
  amerikanisch: { accent: 'american' }, britisch: { accent: 'british' }, englisch: { accent: 'english' }, spanisch: { accent: 'spanish' },
  französisch: { accent: 'french' }, italienisch: { accent: 'italian' }, japanisch: { accent: 'japanese' }, portugiesisch: { accent: 'portuguese' },
  chinesisch: { accent: 'chinese' }, indisch: { accent: 'hindi' },
  tief: { pitch: 'low' }, tiefe: { pitch: 'low' }, hoch: { pitch: 'high' }, hohe: { pitch: 'high' }, mittlere: { pitch: 'medium' },
  langsam: { pace: 'slow' }, langsame: { pace: 'slow' }, schnell: { pace: 'fast' }, schnelle: { pace: 'fast' },
};
const DE_FILLER = ['eine', 'ein', 'einer', 'die', 'der', 'das', 'stimme', 'mit', 'und', 'sehr', 'etwas', 'akzent', 'spricht', 'sprechend'];

const ES_RULES: Record<string, Rule> = {
  femenina: { gender: 'female' }, femenino: { gender: 'female' }, mujer: { gender: 'female' }, niña: { gender: 'female', age: 'child' },
  masculina: { gender: 'male' }, masculino: { gender: 'male' }, hombre: { gender: 'male' }, niño: { gender: 'male', age: 'child' },
  joven: { age: 'young' }, adulta: { age: 'adult' }, adulto: { age: 'adult' }, mayor: { age: 'old' }, anciana: { age: 'old' }, anciano: { age: 'old' },
  americana: { accent: 'american' }, americano: { accent: 'american' }, británica: { accent: 'british' }, británico: { accent: 'british' },
  inglés: { accent: 'english' }, española: { accent: 'spanish' }, español: { accent: 'spanish' }, francesa: { accent: 'french' }, francés: { accent: 'french' },
  italiana: { accent: 'italian' }, italiano: { accent: 'italian' }, japonesa: { accent: 'japanese' }, japonés: { accent: 'japanese' },
  portuguesa: { accent: 'portuguese' }, portugués: { accent: 'portuguese' }, china: { accent: 'chinese' }, chino: { accent: 'chinese' },
  grave: { pitch: 'low' }, profunda: { pitch: 'low' }, aguda: { pitch: 'high' }, agudo: { pitch: 'high' },
  lenta: { pace: 'slow' }, lento: { pace: 'slow' }, rápida: { pace: 'fast' }, rápido: { pace: 'fast' },
};
const ES_FILLER = ['una', 'un', 'la', 'el', 'voz', 'con', 'y', 'muy', 'algo', 'acento', 'que', 'habla', 'de', 'tono'];

const RULES: Record<DescriptionLanguage, { rules: Record<string, Rule>; filler: ReadonlySet<string> }> = {
  en: { rules: EN_RULES, filler: new Set(EN_FILLER) },
  de: { rules: DE_RULES, filler: new Set(DE_FILLER) },
  es: { rules: ES_RULES, filler: new Set(ES_FILLER) },
};

/** The keyword rules of one language, for the docs and the Voices tab: keyword → what it sets. */
export function descriptionKeywords(language: DescriptionLanguage): Readonly<Record<string, Rule>> {
  return RULES[language].rules;
}

export interface ReadDescription {
  attributes: VoiceAttributes;
  /** Words no rule knows, in order of first appearance (reported back to the caller). */
  unknownWords: string[];
  /** Attributes asked for twice with different values: `pitch: low and high`. */
  contradictions: string[];
}

/** The description language to read with: `en`, `de` or `es` (a region is ignored), else English. */
export function descriptionLanguage(language: string | null | undefined): DescriptionLanguage {
  const base = (language ?? 'en').toLowerCase().split(/[-_]/)[0] as DescriptionLanguage;
  return DESCRIPTION_LANGUAGES.includes(base) ? base : 'en';
}

/** Reads a description by the language's keyword rules (words are split on anything but letters and hyphens). */
export function readDescription(description: string, language: DescriptionLanguage = 'en'): ReadDescription {
  const { rules, filler } = RULES[language];
  const found: Partial<Record<VoiceAttribute, Set<string>>> = {};
  const unknown: string[] = [];
  const words = description.toLowerCase().normalize('NFC').split(/[^\p{L}\p{N}-]+/u).map((w) => w.replace(/^-+|-+$/g, '')).filter(Boolean);
  for (const word of words) {
    const rule = rules[word];
    if (rule) {
      for (const [attribute, value] of Object.entries(rule) as [VoiceAttribute, string][]) (found[attribute] ??= new Set()).add(value);
    } else if (!filler.has(word) && !unknown.includes(word)) {
      unknown.push(word);
    }
  }
  const attributes: Record<string, string> = {};
  const contradictions: string[] = [];
  for (const attribute of VOICE_ATTRIBUTES) {
    const values = found[attribute];
    if (!values) continue;
    // "English" with "British" or "American" narrows, it does not contradict.
    const narrowed = attribute === 'accent' && values.size > 1 ? new Set([...values].filter((v) => v !== 'english')) : values;
    if (narrowed.size > 1) contradictions.push(`${attribute}: ${[...narrowed].join(' and ')}`);
    else attributes[attribute] = [...narrowed][0]!;
  }
  return { attributes: attributes as VoiceAttributes, unknownWords: unknown, contradictions };
}

/**
 * The attributes of a request: the structured ones and those its description names, which must agree (a structured
 * `gender: male` with "a woman's voice" is a contradiction; `english` in one and `british` in the other narrows).
 */
export function combineAttributes(given: VoiceAttributes, read: ReadDescription): { attributes: VoiceAttributes; contradictions: string[] } {
  const attributes: Record<string, unknown> = { ...read.attributes };
  const contradictions = [...read.contradictions];
  for (const attribute of VOICE_ATTRIBUTES) {
    const value = given[attribute];
    if (value === undefined) continue;
    const described = read.attributes[attribute];
    if (described === undefined || described === value) attributes[attribute] = value;
    else if (attribute === 'accent' && (described === 'english' || value === 'english') && isEnglishAccent(value as VoiceAccent) && isEnglishAccent(described as VoiceAccent)) {
      attributes[attribute] = value === 'english' ? described : value;
    } else contradictions.push(`${attribute}: ${String(value)} in params, ${String(described)} in the description`);
  }
  return { attributes: attributes as VoiceAttributes, contradictions };
}

function isEnglishAccent(accent: VoiceAccent): boolean {
  return accent === 'english' || accent === 'american' || accent === 'british';
}

/** Whether anything at all was asked for. */
export function hasAttributes(attributes: VoiceAttributes): boolean {
  return VOICE_ATTRIBUTES.some((a) => attributes[a] !== undefined);
}
