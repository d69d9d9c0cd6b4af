/**
 * The language-model actions on a transcript (POST /v1/speech-to-text/{id}/ai): what each asks of the model, and the
 * request body checked field by field. Prompts are written for small local models (a 3–8 B instruct model through
 * Ollama or llama.cpp): short, one task each, the output format spelled out.
 *
 * Each action is map-reduce (ai-map-reduce.ts): the `map` prompt runs on every part of the transcript (ai-chunks.ts);
 * when there is more than one part, `reduce` combines their answers. Translate and clean-up have no reduce: their
 * parts' answers are put one after the other.
 */
import { ApiError } from '../../common/errors.js';

export const AI_ACTIONS = ['summary', 'action_items', 'chapters', 'clean_up', 'translate', 'ask'] as const;
export type AiAction = (typeof AI_ACTIONS)[number];

/** The checked body of POST …/ai. */
export interface AiRequest {
  action: AiAction;
  /** translate: the language to translate into (a name or a code: "German", "de"). */
  language: string | null;
  /** ask: the question. */
  question: string | null;
}

const FIELDS = ['action', 'language', 'question'] as const;
export const MAX_QUESTION_CHARS = 2000;
const LANGUAGE = /^[\p{L}][\p{L} ()-]{0,39}$/u;

/** 400 with the field at fault, or the request. */
export function parseAiRequest(body: Record<string, unknown>): AiRequest {
  const unknown = Object.keys(body).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new ApiError('unsupported_param', `unknown field "${unknown}"; POST …/ai takes ${FIELDS.join(', ')}`, { param: unknown });
  const { action, language, question } = body;
  if (typeof action !== 'string' || !(AI_ACTIONS as readonly string[]).includes(action)) {
    throw new ApiError('invalid_request', `action must be one of ${AI_ACTIONS.join(', ')}`, { param: 'action' });
  }
  const request: AiRequest = { action: action as AiAction, language: null, question: null };
  if (action === 'translate') {
    if (typeof language !== 'string' || !LANGUAGE.test(language.trim())) {
      throw new ApiError('invalid_request', 'translate needs "language": the language to translate into, e.g. "German" or "de"', { param: 'language' });
    }
    request.language = language.trim();
  } else if (language !== undefined) {
    throw new ApiError('unsupported_param', `"language" is for the translate action only (this is ${action})`, { param: 'language' });
  }
  if (action === 'ask') {
    if (typeof question !== 'string' || !question.trim()) throw new ApiError('invalid_request', 'ask needs "question": what to ask about the transcript', { param: 'question' });
    if (question.length > MAX_QUESTION_CHARS) throw new ApiError('invalid_request', `question must be at most ${MAX_QUESTION_CHARS} characters`, { param: 'question' });
    request.question = question.trim();
  } else if (question !== undefined) {
    throw new ApiError('unsupported_param', `"question" is for the ask action only (this is ${action})`, { param: 'question' });
  }
  return request;
}

/** The job's name in Jobs: "Summary — interview.wav". */
export function actionTitle(request: AiRequest): string {
  switch (request.action) {
    case 'summary':
      return 'Summary';
    case 'action_items':
      return 'Action items';
    case 'chapters':
      return 'Chapters';
    case 'clean_up':
      return 'Clean-up';
    case 'translate':
      return `Translation (${request.language})`;
    case 'ask':
      return 'Question';
  }
}

const TIMES = 'Each line of the transcript starts with its time as [mm:ss].';

/** The system prompt of a part (map). `lines` are formatted by ai-chunks.ts. */
export function mapPrompt(request: AiRequest, part: number, parts: number): string {
  const of = parts > 1 ? ` This is part ${part + 1} of ${parts} of a longer transcript.` : '';
  switch (request.action) {
    case 'summary':
      return `You summarise transcripts of recordings.${of} ${TIMES} Write a concise summary of the transcript in a short paragraph followed by the key points as "- " bullets. Use only what the transcript says. Answer in the transcript's language.`;
    case 'action_items':
      return `You find action items in transcripts of meetings and conversations.${of} ${TIMES} List every task someone agreed or was asked to do, one per line as "- [mm:ss] who: what (by when, if said)", citing the time of the line where it was said. If there are none, answer exactly "None."`;
    case 'chapters':
      return `You divide transcripts into chapters.${of} ${TIMES} Answer with one chapter per line as "[mm:ss] Title", where [mm:ss] is copied exactly from the transcript line where the chapter starts. Give 2 to 8 chapters, in time order, nothing else.`;
    case 'ask':
      return `You answer questions about a transcript.${of} ${TIMES} Answer the question using only the transcript, and cite the times of the lines you used as [mm:ss], copied exactly. If the transcript does not say, answer exactly "Not in this part."\n\nQuestion: ${request.question}`;
    case 'translate':
      return `You translate transcripts into ${request.language}. ${TIMES} Translate every line, keep each line's [mm:ss] at its start exactly as it is, one output line per input line, nothing else.`;
    case 'clean_up':
      return 'You clean up machine transcripts. Each line starts with its number as [n]. For every line, fix punctuation and capitals, remove filler words (um, uh, er, you know, like when used as filler) and false starts, and fix obvious misrecognitions only when certain. Do not summarise, do not merge or split lines, do not change the meaning. Answer with every line, in order, as "[n] cleaned text", nothing else.';
  }
}

/** The system prompt that combines the parts' answers (reduce); null for actions without one. */
export function reducePrompt(request: AiRequest): string | null {
  switch (request.action) {
    case 'summary':
      return "You combine partial summaries of consecutive parts of one transcript into a single summary: a short paragraph followed by the key points as \"- \" bullets. Use only what the partial summaries say. Answer in their language.";
    case 'action_items':
      return 'You merge lists of action items from consecutive parts of one transcript into one list: one per line as "- [mm:ss] who: what (by when, if said)", keeping each [mm:ss] exactly, removing duplicates. Ignore parts that say "None."; if all do, answer exactly "None."';
    case 'chapters':
      return 'You merge chapter lists of consecutive parts of one transcript into one list of at most 12 chapters, one per line as "[mm:ss] Title", keeping each [mm:ss] exactly as given, in time order, merging chapters that continue the same topic. Nothing else.';
    case 'ask':
      return `You combine partial answers to one question, each from a part of one transcript, into a single answer. Keep every [mm:ss] citation exactly as given. Ignore parts that answered "Not in this part."; if all did, say the transcript does not answer it.\n\nQuestion: ${request.question}`;
    case 'translate':
    case 'clean_up':
      return null;
  }
}
