/**
 * The name of a job created without one (issue 35.5): people recognise "interview.wav" or "Welcome to the quarterly
 * meeting…", not `job_01J…`. A job from a recording is named after the file it was sent as; a job that speaks text,
 * after the start of that text. The Jobs list, library search, exports (their file names) and notifications show it.
 * A name given with the request always wins; jobs stored before this rule keep the name they had.
 */
import { PRODUCT_INPUT, isProduct, type JobProduct } from '../../common/products.js';
import type { EngineInput } from '../../engines/engine-types.js';

/** Longest name taken from a text, ellipsis included. Default 60 characters: one line of the Jobs list. */
export const TEXT_NAME_CHARS = 60;

/** The last part of a path a client may have sent as the file name ("C:\\fakepath\\a.wav", "talks/a.wav"). */
function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop()!.trim();
}

/** The start of a text on one line, cut at a word boundary where one is near, with an ellipsis when cut. */
export function nameFromText(text: string, max: number = TEXT_NAME_CHARS): string | null {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return null;
  if (line.length <= max) return line;
  const room = line.slice(0, max - 1);
  const lastSpace = room.lastIndexOf(' ');
  // A word boundary in the last third keeps whole words; a single long word is cut where the room ends.
  const cut = lastSpace >= Math.floor(max * 0.66) ? room.slice(0, lastSpace) : room;
  return `${cut.trimEnd().replace(/[\s,;:.!?-]+$/, '')}…`;
}

/** The name for a job of `product` with `input` that came without one, or null when there is nothing to name it by. */
export function defaultJobName(product: JobProduct, input: EngineInput): string | null {
  if (!isProduct(product)) return input.text !== undefined ? nameFromText(input.text) : null;
  const file = input.fileName ? baseName(input.fileName) || null : null;
  const text = input.text !== undefined ? nameFromText(input.text) : null;
  // Audio in: the recording names it. Text to speak (alone or with a reference voice): the text does.
  return PRODUCT_INPUT[product] === 'audio' ? (file ?? text) : (text ?? file);
}
