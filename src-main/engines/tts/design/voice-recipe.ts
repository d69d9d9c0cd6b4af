/**
 * A designed voice's recipe (voice design, docs/voices.md): which of a multi-speaker Kokoro's voices it blends and
 * with what weights, how fast it speaks and how far its pitch is shifted. Chosen from the described attributes:
 * - accent → the voices of that language letter (Kokoro names each voice `<language><gender>_<name>`);
 * - gender → the voices of that gender letter;
 * - age → Kokoro's voices are not labelled by age, so age cannot pick voices: it nudges pitch and pace instead
 *   (child +3 semitones, young +1, old −1 and 8 % slower), which the recipe's notes say;
 * - pitch → a shift in semitones applied after synthesis (low −2, high +2, or a number −4…4; design/pitch-shift.ts);
 * - pace → the speaking rate (slow 0.85, fast 1.15, or a number 0.5…2).
 * Up to three matching voices are drawn and weighted by a PRNG seeded with the attributes and the `seed` param, so
 * the same description gives the same voice and another seed another. Pure: the service computes it before a job
 * exists (so a description no installed voice can meet is a 400), the worker blends the vectors (blended-voices.ts).
 */
import { createHash } from 'node:crypto';
import type { VoiceAccent, VoiceAttributes } from '../../../common/voice-description.js';
import { kokoroVoiceLanguage } from '../kokoro-voices.js';

export interface RecipeVoice {
  /** The base voice's name (`af_bella`) and its speaker id in the model. */
  name: string;
  speaker: number;
  /** 0…1; the weights of a recipe sum to 1. */
  weight: number;
}

export interface VoiceRecipe {
  /** The Kokoro model whose voices are blended (catalogue id). */
  model: string;
  voices: RecipeVoice[];
  /** Speaking rate (0.5…2). */
  speed: number;
  /** Pitch shift after synthesis, in semitones (−4…4; 0 = none). */
  pitchSemitones: number;
  /** The espeak-ng voice a multilingual Kokoro phonemizes with, when the model needs one per request. */
  espeak: string | null;
  /** The attributes it was designed from (those asked for, after the description was read). */
  attributes: VoiceAttributes;
  seed: number;
  /** What the method could not honour exactly, in sentences (age has no labelled voices, …). */
  notes: string[];
}

const ACCENT_LETTERS: Record<VoiceAccent, string[]> = {
  american: ['a'], british: ['b'], english: ['a', 'b'], spanish: ['e'], french: ['f'], hindi: ['h'], italian: ['i'], japanese: ['j'], portuguese: ['p'], chinese: ['z'],
};
const PITCH_SEMITONES = { low: -2, medium: 0, high: 2 } as const;
const PACE_SPEED = { slow: 0.85, normal: 1, fast: 1.15 } as const;
const AGE_SEMITONES = { child: 3, young: 1, adult: 0, old: -1 } as const;
export const MAX_PITCH_SEMITONES = 4;
const MAX_BLENDED = 3;

/** mulberry32: a small, well-mixed 32-bit PRNG (deterministic across platforms). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(model: string, attributes: VoiceAttributes, seed: number): number {
  const canonical = JSON.stringify([model, attributes.gender ?? null, attributes.age ?? null, attributes.accent ?? null, seed]);
  return createHash('sha256').update(canonical).digest().readUInt32LE(0);
}

const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

type LabelledVoice = { name: string; speaker: number; language: ReturnType<typeof kokoroVoiceLanguage>; gender: 'female' | 'male' | null };

/** The model's voices that fit `attributes`, or why none does (naming what the model has). */
function voiceCandidates(model: string, speakerNames: readonly string[], attributes: VoiceAttributes): { candidates: LabelledVoice[] } | { unmet: string } {
  const labelled: LabelledVoice[] = speakerNames.map((name, speaker) => ({ name, speaker, language: kokoroVoiceLanguage(name), gender: name[1] === 'f' ? 'female' : name[1] === 'm' ? 'male' : null }));
  let candidates = labelled.filter((v) => v.language !== null);
  if (candidates.length === 0) return { unmet: `model ${model} has no voices named in Kokoro's scheme (language and gender letters), so none can be chosen by description` };
  if (attributes.accent) {
    const letters = ACCENT_LETTERS[attributes.accent];
    candidates = candidates.filter((v) => letters.includes(v.name[0]!));
    if (candidates.length === 0) return { unmet: `model ${model} has no ${attributes.accent} voice; its accents: ${accentsOf(labelled)}` };
  }
  if (attributes.gender) {
    const matching = candidates.filter((v) => v.gender === attributes.gender);
    if (matching.length === 0) return { unmet: `model ${model} has no ${attributes.gender} voice${attributes.accent ? ` with a ${attributes.accent} accent` : ''}` };
    candidates = matching;
  }
  return { candidates };
}

/**
 * Why no voice of `model` can be designed for `attributes` (no voice has the accent or gender asked for; the message
 * names what the model has), or null when one can. A request asking for such a voice is refused (400) with it.
 */
export function unmetVoice(model: string, speakerNames: readonly string[], attributes: VoiceAttributes): string | null {
  const found = voiceCandidates(model, speakerNames, attributes);
  return 'unmet' in found ? found.unmet : null;
}

/**
 * The recipe for `attributes` from a model's voices (`speakerNames` in speaker-id order, Kokoro's naming scheme).
 * Check `unmetVoice` first: asked for a voice the model cannot give, this throws (a caller's bug).
 */
export function designRecipe(model: string, speakerNames: readonly string[], attributes: VoiceAttributes, seed = 0, multilingual = false): VoiceRecipe {
  const notes: string[] = [];
  const found = voiceCandidates(model, speakerNames, attributes);
  if ('unmet' in found) throw new Error(found.unmet);
  const candidates = found.candidates;
  // Without an accent, a blend stays within one language (a voice mixing phonemes of two languages sounds wrong):
  // the first voice drawn decides it.
  const random = prng(seedOf(model, attributes, seed));
  const first = candidates[Math.floor(random() * candidates.length)]!;
  const pool = candidates.filter((v) => v !== first && v.name[0] === first.name[0]);
  const chosen = [first];
  while (chosen.length < MAX_BLENDED && pool.length > 0) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  const raw = chosen.map(() => 0.25 + random());
  const total = raw.reduce((a, b) => a + b, 0);
  const weights = raw.map((w) => round(w / total, 3));
  weights[0] = round(1 - weights.slice(1).reduce((a, b) => a + b, 0), 3);

  let semitones = typeof attributes.pitch === 'number' ? attributes.pitch : PITCH_SEMITONES[attributes.pitch ?? 'medium'];
  let speed = typeof attributes.pace === 'number' ? attributes.pace : PACE_SPEED[attributes.pace ?? 'normal'];
  if (attributes.age) {
    semitones += AGE_SEMITONES[attributes.age];
    if (attributes.age === 'old') speed *= 0.92;
    notes.push(`Kokoro's voices are not labelled by age: "${attributes.age}" shifts the pitch${attributes.age === 'old' ? ' and slows the pace' : ''} instead of choosing voices.`);
  }
  if (Math.abs(semitones) > MAX_PITCH_SEMITONES) notes.push(`pitch shift limited to ${MAX_PITCH_SEMITONES} semitones`);
  semitones = Math.max(-MAX_PITCH_SEMITONES, Math.min(MAX_PITCH_SEMITONES, semitones));
  speed = Math.max(0.5, Math.min(2, speed));
  if (chosen.length === 1) notes.push(`only one voice of the model matches, so the designed voice is ${first.name}${semitones !== 0 ? ' with its pitch shifted' : ''}`);
  return {
    model,
    voices: chosen.map((v, i) => ({ name: v.name, speaker: v.speaker, weight: weights[i]! })),
    speed: round(speed, 3),
    pitchSemitones: round(semitones, 2),
    espeak: multilingual ? (first.language?.espeak ?? null) : null,
    attributes,
    seed,
    notes,
  };
}

function accentsOf(voices: ReadonlyArray<{ name: string }>): string {
  const letters = new Set(voices.map((v) => v.name[0]));
  return (Object.keys(ACCENT_LETTERS) as VoiceAccent[]).filter((a) => a !== 'english' && ACCENT_LETTERS[a].every((l) => letters.has(l))).join(', ') || 'none';
}

/** Checks a recipe read back from storage or a request against the model it names (speaker ids, weights). */
export function isUsableRecipe(recipe: VoiceRecipe, numSpeakers: number): boolean {
  return (
    recipe.voices.length > 0 &&
    recipe.voices.every((v) => Number.isInteger(v.speaker) && v.speaker >= 0 && v.speaker < numSpeakers && v.weight > 0 && v.weight <= 1) &&
    recipe.speed >= 0.5 && recipe.speed <= 2 &&
    Math.abs(recipe.pitchSemitones) <= MAX_PITCH_SEMITONES
  );
}
