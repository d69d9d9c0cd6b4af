/**
 * Runs one action over a transcript split into parts: each part asked (`map`), then the answers combined (`reduce`,
 * in as many rounds as their length needs), every answer kept through `keep` as soon as it arrives and taken from
 * `kept` instead of asking again — so a run after a crash asks only for what the one before did not get.
 *
 * A context-length refusal of one request is answered by asking for its text in two halves and putting the two
 * answers together (once: a half refused again fails the job with the endpoint's message, which says to lower
 * `context_tokens`).
 */
import type { AiPartRow, AiStage } from '../../store/transcript-ai-repo.js';
import { ContextTooLong, chatCompletion, type ChatAnswer, type LanguageModelEndpoint } from './language-model-client.js';
import { groupTexts, splitLines } from './ai-chunks.js';

export interface MapReduceTask {
  endpoint: LanguageModelEndpoint;
  /** The transcript's lines (ai-chunks.ts transcriptLines). */
  lines: readonly string[];
  /** Estimated tokens a request's text may hold. */
  budget: number;
  /** The most tokens one answer may take (`max_tokens`, ai-chunks.ts answerTokens). */
  maxTokens: number;
  mapPrompt(part: number, parts: number): string;
  /** null: the parts' answers are put one after the other. */
  reducePrompt: string | null;
  /** Answers kept by earlier runs of this job. */
  kept: readonly AiPartRow[];
  keep(stage: AiStage, part: number, answer: ChatAnswer): Promise<void>;
  /** Before each request to the endpoint (a split half too): may throw to stop the run (the spending cap). */
  beforeRequest?(system: string, user: string): Promise<void>;
  signal: AbortSignal;
  /** Each piece of the answer being written now (`restart`: a new request begins). */
  onText(piece: string, restart: boolean): void;
  /** 0..1 as parts are answered. */
  onProgress(fraction: number): void;
  /** Timeouts for each request (tests shorten them). */
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

export interface MapReduceOutcome {
  /** The combined answer (translate, clean-up: the parts' answers joined by newlines). */
  text: string;
  parts: number;
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
}

export async function runMapReduce(task: MapReduceTask): Promise<MapReduceOutcome> {
  const parts = splitLines(task.lines, task.budget);
  const kept = new Map(task.kept.map((row) => [`${row.stage}:${row.part}`, row]));
  const totals = { prompt: 0, completion: 0, estimated: false };
  const steps = parts.length + (task.reducePrompt && parts.length > 1 ? Math.max(1, Math.ceil(parts.length / 4)) : 0);
  let done = 0;

  const ask = async (system: string, user: string): Promise<ChatAnswer> => {
    task.onText('', true);
    const request = async (text: string): Promise<ChatAnswer> => {
      await task.beforeRequest?.(system, text);
      return chatCompletion(
        task.endpoint,
        [
          { role: 'system', content: system },
          { role: 'user', content: text },
        ],
        {
          signal: task.signal,
          maxTokens: task.maxTokens,
          onDelta: (piece) => task.onText(piece, false),
          ...(task.connectTimeoutMs !== undefined ? { connectTimeoutMs: task.connectTimeoutMs } : {}),
          ...(task.idleTimeoutMs !== undefined ? { idleTimeoutMs: task.idleTimeoutMs } : {}),
        },
      );
    };
    try {
      return await request(user);
    } catch (error) {
      if (!(error instanceof ContextTooLong)) throw error;
      const lines = user.split('\n');
      if (lines.length < 2) throw error;
      const half = Math.ceil(lines.length / 2);
      const first = await request(lines.slice(0, half).join('\n'));
      task.onText('\n', false);
      const second = await request(lines.slice(half).join('\n'));
      return {
        text: `${first.text.trim()}\n${second.text.trim()}`,
        usage: { promptTokens: first.usage.promptTokens + second.usage.promptTokens, completionTokens: first.usage.completionTokens + second.usage.completionTokens },
        reportedUsage: first.reportedUsage && second.reportedUsage,
      };
    }
  };

  /** The kept answer of a step, or a new one kept before it is used. */
  const step = async (stage: AiStage, part: number, system: string, user: string): Promise<string> => {
    const old = kept.get(`${stage}:${part}`);
    let text: string;
    if (old) {
      totals.prompt += old.prompt_tokens;
      totals.completion += old.completion_tokens;
      text = old.text;
    } else {
      const answer = await ask(system, user);
      await task.keep(stage, part, answer);
      totals.prompt += answer.usage.promptTokens;
      totals.completion += answer.usage.completionTokens;
      totals.estimated ||= !answer.reportedUsage;
      text = answer.text;
    }
    done += 1;
    task.onProgress(Math.min(0.99, done / steps));
    return text;
  };

  const answers: string[] = [];
  for (let i = 0; i < parts.length; i++) answers.push((await step('map', i, task.mapPrompt(i, parts.length), parts[i]!.join('\n'))).trim());

  let text: string;
  if (!task.reducePrompt || answers.length === 1) {
    text = answers.join('\n');
  } else {
    let round = answers;
    let index = 0;
    while (round.length > 1) {
      const groups = groupTexts(round.map((a, i) => `Part ${i + 1}:\n${a}`), task.budget);
      // A round that cannot shrink (every answer alone over the budget) is combined in pairs.
      const batches = groups.length === round.length ? pairs(round) : groups;
      const next: string[] = [];
      for (const batch of batches) next.push((await step('reduce', index++, task.reducePrompt, batch.join('\n\n'))).trim());
      round = next;
    }
    text = round[0]!;
  }
  task.onProgress(1);
  return { text, parts: parts.length, promptTokens: totals.prompt, completionTokens: totals.completion, estimated: totals.estimated };
}

function pairs(texts: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < texts.length; i += 2) out.push(texts.slice(i, i + 2).map((t, j) => `Part ${i + j + 1}:\n${t}`));
  return out;
}
