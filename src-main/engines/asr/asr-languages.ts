/**
 * The languages of an installed speech-to-text model, for the catalogue's `languages` (and the language param) when
 * its package does not list them, as an imported folder does not (issue 32, point 3): from the model's metadata,
 * its files, or its family.
 * - SenseVoice: its five languages (zh, en, ja, ko, yue) — the family has no others.
 * - Whisper: the codes its encoder's metadata declares (`all_language_codes`; English only when `is_multilingual`
 *   is 0); without metadata, its vocabulary tells: 50,257 tokens is an English-only model, 51,864 or more a
 *   multilingual one (Whisper's 99 languages; 51,865+ adds Cantonese, as large-v3 does).
 * - NeMo, streaming Zipformer and Moonshine exports declare no language: a vocabulary of only Latin letters and
 *   punctuation (SentencePiece pieces, special tokens aside) is an English model; anything else stays unknown ([]).
 * Files are read once per path (an installed package's files do not change).
 */
import { readFileSync, statSync } from 'node:fs';
import { WHISPER_LANGUAGE_CODES } from '../../common/openai-transcript.js';
import { onnxMetadataOrEmpty } from '../onnx-metadata.js';
import { CANARY_LANGUAGES } from './canary.js';
import type { AsrFamily } from '../../common/model-families.js';

/** SenseVoice's language codes (sherpa-onnx accepts these or '' for auto). */
export const SENSE_VOICE_LANGUAGES = ['zh', 'en', 'ja', 'ko', 'yue'] as const;
/** Vocabulary sizes of Whisper's English-only and multilingual tokenizers (tokens.txt lines). */
const WHISPER_ENGLISH_VOCABULARY = 50_257;
const WHISPER_MULTILINGUAL_VOCABULARY = 51_864;
/** Largest tokens.txt read to tell a language (real ones are under 1 MB). */
const MAX_TOKENS_BYTES = 8 * 1024 * 1024;

const known = new Map<string, string[]>();

/** `work()` for the file at `path`, kept once the file exists (a package not yet installed is asked again later). */
function once(path: string | undefined, work: () => string[]): string[] {
  if (!path) return [];
  const hit = known.get(path);
  if (hit) return hit;
  const found = work();
  if (exists(path)) known.set(path, found);
  return found;
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function tokenLines(path: string | undefined): string[] | null {
  if (!path) return null;
  try {
    if (statSync(path).size > MAX_TOKENS_BYTES) return null;
    return readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '');
  } catch {
    return null;
  }
}

function whisperLanguages(files: Record<string, string>): string[] {
  return once(files.encoder, () => {
    const meta = files.encoder ? onnxMetadataOrEmpty(files.encoder) : {};
    if (meta.is_multilingual === '0') return ['en'];
    const declared = (meta.all_language_codes ?? '').split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
    if (declared.length > 0) return declared;
    const vocabulary = tokenLines(files.tokens)?.length ?? 0;
    if (vocabulary === WHISPER_ENGLISH_VOCABULARY) return ['en'];
    if (vocabulary >= WHISPER_MULTILINGUAL_VOCABULARY) {
      return WHISPER_LANGUAGE_CODES.filter((code) => code !== 'yue' || vocabulary > WHISPER_MULTILINGUAL_VOCABULARY);
    }
    return [];
  });
}

/** 'en' when every letter of the ordinary tokens is a Latin letter without accents; [] otherwise. */
function vocabularyLanguages(tokens: string | undefined): string[] {
  return once(tokens, () => {
    const lines = tokenLines(tokens);
    if (!lines) return [];
    const pieces = lines.map((line) => line.replace(/\s+-?\d+$/, '')).filter((t) => !/^<.*>$/.test(t));
    // Letters only: punctuation, digits and the word mark say nothing about the language.
    const letters = pieces.join('').match(/\p{L}/gu) ?? [];
    return letters.length > 0 && letters.every((ch) => /^[A-Za-z]$/.test(ch)) ? ['en'] : [];
  });
}

/** The model's languages: the package's own list when it has one, else what the model's files or family say. */
export function modelLanguages(family: AsrFamily, files: Record<string, string>, listed: readonly string[]): string[] {
  if (listed.length > 0) return [...listed];
  if (family === 'sense-voice') return [...SENSE_VOICE_LANGUAGES];
  if (family === 'canary') return [...CANARY_LANGUAGES];
  if (family === 'whisper') return whisperLanguages(files);
  return vocabularyLanguages(files.tokens);
}
