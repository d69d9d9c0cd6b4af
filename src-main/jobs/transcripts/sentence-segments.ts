/**
 * Sentence-sized segments for people (issue 29.5). Engines commit what their recognizer gives at once — a 30 s clip
 * can be one 23 s segment, a PocketSphinx utterance runs until a long silence — and a reader, a search hit or an
 * export cue wants a sentence. So the transcript a job answers is split here, once, above the engines: their
 * committed segments stay as they came (the checkpoints a resumed job continues after), and the job's result,
 * revision 0, verbose_json, exports and search all read the same sentences. The split is a pure function of the
 * committed segments, so a job resumed after a kill gives the segments an uninterrupted run gives.
 *
 * Where a segment is cut (docs/transcripts.md, "Sentence-sized segments"):
 * - always where the speaker changes between words, after a word ending a sentence (. ! ? … 。！？, not after a
 *   common abbreviation or an initial), and at a pause between words of PAUSE_SECONDS or more;
 * - and where a piece would still be longer than MAX_SENTENCE_SECONDS or MAX_SENTENCE_CHARS: after the last word
 *   ending a clause (, ; : –) in its second half, else at its longest pause there, else before the word that
 *   would make it too long. Never inside a word (one word longer than the limit stays whole).
 * Word times come from the recognizer; a segment whose words (those within its times) do not match its text word
 * for word (or that has none) is cut by characters instead, each piece taking the segment's time in proportion to its length.
 */
import type { SegmentFlag, TranscriptSegment, TranscriptWord } from '../../common/api-types.js';
import type { TranscriptResult } from '../../engines/asr/transcript.js';

/** A sentence longer than this many seconds is cut further. */
export const MAX_SENTENCE_SECONDS = 15;
/** A sentence longer than this many characters (code points) is cut further. */
export const MAX_SENTENCE_CHARS = 200;
/** A silence between two words at least this long always ends a segment (measured word times only). */
export const PAUSE_SECONDS = 1;

const CJK_CHAR = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
/** The same words transcript.ts counts: what spaces separate, and each Chinese or Japanese character. */
const WORDS = new RegExp(`[${CJK_CHAR}][\\p{P}]*|[^\\s${CJK_CHAR}]+`, 'gu');
const SENTENCE_END = /[.!?…。！？]["'”’»)\]」』]*$/u;
const CLAUSE_END = /[,;:，；：、–—]["'”’»)\]]*$/u;
/** Words ending in a full stop that rarely end a sentence. */
const ABBREVIATIONS = new Set(['mr.', 'mrs.', 'ms.', 'dr.', 'prof.', 'st.', 'vs.', 'e.g.', 'i.e.', 'jr.', 'sr.', 'no.', 'fig.', 'approx.', 'ca.', 'z.b.', 'bzw.', 'sra.', 'dra.']);

interface Token {
  text: string;
  /** Where it starts and ends in the segment's text (code units), so a piece's text is a slice of it. */
  from: number;
  to: number;
  start: number;
  end: number;
  speaker: string | undefined;
}

export interface SentenceLimits {
  maxSeconds: number;
  maxChars: number;
  pauseSeconds: number;
}

const DEFAULT_LIMITS: SentenceLimits = { maxSeconds: MAX_SENTENCE_SECONDS, maxChars: MAX_SENTENCE_CHARS, pauseSeconds: PAUSE_SECONDS };

const round3 = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/** Does this word end a sentence? */
export function endsSentence(word: string): boolean {
  if (!SENTENCE_END.test(word)) return false;
  const bare = word.replace(/^["'“‘«([]+/u, '').toLowerCase();
  if (ABBREVIATIONS.has(bare)) return false;
  // An initial ("J. Smith") or a single letter with a stop.
  return !/^\p{L}\.$/u.test(bare);
}

/**
 * The result with its segments cut into sentences (ids 0 … n−1 again). `text`, `words` and everything else stay as
 * they are; each sentence keeps its segment's flags and speaker. The result must carry its words (assemble it with
 * word granularity): without them every segment is cut by characters.
 */
export function splitIntoSentences(result: TranscriptResult, limits: SentenceLimits = DEFAULT_LIMITS): TranscriptResult {
  if (!result.segments?.length) return result;
  const words = [...(result.words ?? [])].sort((a, b) => a.start - b.start);
  const out: TranscriptSegment[] = [];
  for (const segment of result.segments) {
    for (const piece of splitSegment(segment, wordsWithin(words, segment), limits)) out.push({ ...piece, id: out.length });
  }
  return { ...result, segments: out };
}

/** Slack at a segment's edges for its words' times (rounding, a token's assumed length). */
const EDGE_SECONDS = 0.05;

/**
 * The words lying within the segment (by time, `words` sorted by start). Segments may overlap — a meeting's two
 * sides speak at once — so a word is the segment's only if it also spells the segment's text (ownWords).
 */
function wordsWithin(words: readonly TranscriptWord[], segment: TranscriptSegment): TranscriptWord[] {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid]!.start < segment.start - EDGE_SECONDS) lo = mid + 1;
    else hi = mid;
  }
  const out: TranscriptWord[] = [];
  for (let i = lo; i < words.length && words[i]!.start <= segment.end + EDGE_SECONDS; i++) {
    if (words[i]!.end <= segment.end + EDGE_SECONDS) out.push(words[i]!);
  }
  return out;
}

function splitSegment(segment: TranscriptSegment, words: readonly TranscriptWord[], limits: SentenceLimits): TranscriptSegment[] {
  const text = segment.text;
  const matches = [...text.matchAll(WORDS)];
  if (matches.length <= 1) return [segment];
  // The text's words, one for one, among those within its times (in order); else the text is cut by characters.
  const own = ownWords(words, matches.map((m) => m[0]));
  const measured = own !== null && own.every((word) => !word.interpolated);
  const total = matches.reduce((n, m) => n + [...m[0]].length, 0);
  const span = Math.max(0, segment.end - segment.start);
  let before = 0;
  const tokens: Token[] = matches.map((m, k) => {
    const length = [...m[0]].length;
    const proportional = { start: segment.start + (span * before) / total, end: segment.start + (span * (before + length)) / total };
    before += length;
    const word = own ? own[k]! : null;
    return {
      text: m[0],
      from: m.index,
      to: m.index + m[0].length,
      start: word ? word.start : proportional.start,
      end: word ? Math.max(word.start, word.end) : proportional.end,
      speaker: word?.speaker ?? segment.speaker,
    };
  });
  const pieces: Token[][] = [];
  let current: Token[] = [];
  for (const [k, token] of tokens.entries()) {
    const previous = tokens[k - 1];
    if (previous && current.length > 0) {
      const cut = token.speaker !== previous.speaker || endsSentence(previous.text) || (measured && token.start - previous.end >= limits.pauseSeconds);
      if (cut) {
        pieces.push(current);
        current = [];
      }
    }
    current.push(token);
  }
  pieces.push(current);
  const limited = pieces.flatMap((piece) => limitLength(piece, text, limits, measured));
  if (limited.length === 1) return [segment];
  return limited.map((piece, k) => sentence(segment, piece, text, k === 0, k === limited.length - 1));
}

/** The words spelling `tokens` in order, taken from `words` (which may hold another speaker's too); null when they do not. */
function ownWords(words: readonly TranscriptWord[], tokens: readonly string[]): TranscriptWord[] | null {
  const out: TranscriptWord[] = [];
  for (const word of words) {
    if (out.length < tokens.length && word.word.trim() === tokens[out.length]) out.push(word);
  }
  return out.length === tokens.length ? out : null;
}

function charsOf(piece: readonly Token[], text: string): number {
  return [...text.slice(piece[0]!.from, piece[piece.length - 1]!.to)].length;
}

function tooLong(piece: readonly Token[], text: string, limits: SentenceLimits): boolean {
  return piece.length > 1 && (piece[piece.length - 1]!.end - piece[0]!.start > limits.maxSeconds || charsOf(piece, text) > limits.maxChars);
}

/** A piece cut until every part is within the limits (or one word). */
function limitLength(piece: Token[], text: string, limits: SentenceLimits, measured: boolean): Token[][] {
  const out: Token[][] = [];
  let rest = piece;
  while (tooLong(rest, text, limits)) {
    // The longest prefix within the limits (at least one word).
    let fit = 1;
    while (fit < rest.length && !tooLong(rest.slice(0, fit + 1), text, limits)) fit += 1;
    const at = bestCut(rest, fit, measured);
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  out.push(rest);
  return out;
}

/** Where to cut the first `fit` tokens off (a count of tokens kept before the cut, 1 … fit). */
function bestCut(tokens: readonly Token[], fit: number, measured: boolean): number {
  const half = Math.max(1, Math.ceil(fit / 2));
  for (let at = fit; at >= half; at -= 1) if (CLAUSE_END.test(tokens[at - 1]!.text)) return at;
  if (measured) {
    let best = fit;
    let longest = 0;
    for (let at = fit; at >= half; at -= 1) {
      const next = tokens[at];
      const gap = next ? next.start - tokens[at - 1]!.end : 0;
      if (gap > longest) [best, longest] = [at, gap];
    }
    return best;
  }
  return fit;
}

function sentence(segment: TranscriptSegment, piece: readonly Token[], text: string, first: boolean, last: boolean): TranscriptSegment {
  const start = first ? segment.start : Math.max(segment.start, piece[0]!.start);
  const end = last ? segment.end : Math.min(segment.end, Math.max(start, piece[piece.length - 1]!.end));
  const speaker = piece[0]!.speaker;
  const flags: SegmentFlag[] | undefined = segment.flags?.length ? [...segment.flags] : undefined;
  return {
    id: 0,
    start: round3(start),
    end: round3(Math.max(start, end)),
    text: text.slice(piece[0]!.from, piece[piece.length - 1]!.to),
    ...(speaker ? { speaker } : {}),
    ...(flags ? { flags } : {}),
  };
}
