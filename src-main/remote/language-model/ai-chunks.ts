/**
 * A transcript as the language model reads it, and split to fit its context. Each segment is one line, prefixed by
 * its start time as `[mm:ss]` (minutes go past 59 in long recordings: `[95:12]`), or by its index as `[n]` for
 * clean-up, whose answer must map back onto segments. Lines are never cut: a part holds whole segments, as many as
 * fit the budget of estimated tokens (language-model-client.ts estimateTokens: a character count / 4).
 *
 * The budget (docs/ai-actions.md, "Long transcripts"): the context the settings give (default 4096 tokens), less a
 * reserve for the instructions and the answer — the answer of translate and clean-up is as long as the part itself,
 * so those parts take under half the rest.
 */
import type { RevisionSegment } from '../../common/transcript-types.js';
import { estimateTokens } from './language-model-client.js';
import type { AiAction } from './ai-actions.js';

/** The context assumed when the settings give none: what Ollama and llama.cpp's server load a model with by default. */
export const DEFAULT_CONTEXT_TOKENS = 4096;
/** Tokens kept for the system prompt and chat framing. */
export const PROMPT_RESERVE_TOKENS = 600;
/** The least a part may hold (a smaller context is refused as unusable). */
export const MIN_PART_TOKENS = 200;

/** `[mm:ss]` of a time in seconds (whole seconds, rounded down, as the segment's start is shown). */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

/** One line per segment with words in it. */
export function transcriptLines(segments: readonly RevisionSegment[], action: AiAction): string[] {
  return segments
    .filter((s) => s.text.trim() !== '')
    .map((s) => (action === 'clean_up' ? `[${s.index}] ${s.text.trim()}` : `[${clock(s.start)}] ${s.text.trim()}`));
}

/** How many estimated tokens a part's text may hold for this action and context. */
export function partBudget(action: AiAction, contextTokens: number): number {
  const room = contextTokens - PROMPT_RESERVE_TOKENS;
  // The answer must fit too: as long as the part for translate and clean-up, a fraction of it for the others.
  const share = action === 'translate' || action === 'clean_up' ? 0.45 : 0.75;
  return Math.max(MIN_PART_TOKENS, Math.floor(room * share));
}

/**
 * The most tokens one answer may take (sent as `max_tokens`): what the context holds besides the part and the
 * instructions. It bounds every answer — and so an action's whole answer, the rows search indexes of it and the
 * cost reserved before a priced endpoint is asked (ai-pricing.ts).
 */
export function answerTokens(action: AiAction, contextTokens: number): number {
  return Math.max(MIN_PART_TOKENS, contextTokens - PROMPT_RESERVE_TOKENS - partBudget(action, contextTokens));
}

/** Consecutive lines grouped into parts of at most `budget` estimated tokens (a longer single line is a part alone). */
export function splitLines(lines: readonly string[], budget: number): string[][] {
  const parts: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = estimateTokens(line) + 1;
    if (current.length > 0 && used + cost > budget) {
      parts.push(current);
      current = [];
      used = 0;
    }
    current.push(line);
    used += cost;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Texts grouped so that each group's joined length fits the budget (the reduce step's inputs). */
export function groupTexts(texts: readonly string[], budget: number): string[][] {
  return splitLines(texts, budget);
}
