/**
 * A small client for any OpenAI-compatible chat endpoint (Ollama, LM Studio, llama.cpp's server, vLLM, a hosted
 * one): `POST {base}/chat/completions`, streamed (server-sent events, `stream: true`) or not, and `GET {base}/models`
 * for the settings' "Test connection". Plain `fetch`: the whole surface is two routes, and the `openai` SDK's Node 20
 * line would bring more than it saves (docs/design.md §7).
 *
 * Errors say which of three things happened, because each needs a different fix from the person:
 * - LanguageModelUnreachable (`language_model_unreachable`): nothing answered, or not in time — start the server,
 *   check the URL;
 * - ContextTooLong (`context_length_exceeded`): the endpoint refused the prompt as too long for its context — the
 *   caller splits the text smaller and tries once more (ai-map-reduce.ts);
 * - LanguageModelRefused (`language_model_refused`): it answered with an error (a wrong key, an unknown model).
 */
import { JobError } from '../../common/errors.js';

/** Where to send chat requests: the base URL ends before `/chat/completions` (e.g. `http://127.0.0.1:11434/v1`). */
export interface LanguageModelEndpoint {
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; null for a local server that takes none. */
  apiKey: string | null;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatAnswer {
  text: string;
  /** As the endpoint reported it; estimated from the text (token-estimate.ts) when it reported none. */
  usage: ChatUsage;
  /** True when the endpoint reported the counts itself. */
  reportedUsage: boolean;
}

export interface ChatOptions {
  /** Aborts the request (a cancel, a shutdown). */
  signal?: AbortSignal;
  /** Streams the answer; `onDelta` receives each piece of text as it arrives. */
  onDelta?: (text: string) => void;
  /** Without a first byte (headers) in this time the endpoint counts as unreachable. Default 60 s: a local model loads. */
  connectTimeoutMs?: number;
  /** Longest silence between two pieces of a streamed answer, or for a whole non-streamed one. Default 300 s. */
  idleTimeoutMs?: number;
  /** Answer length cap sent as `max_tokens` (omitted: the endpoint's default). */
  maxTokens?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

export class LanguageModelUnreachable extends JobError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('language_model_unreachable', message, options);
    this.name = 'LanguageModelUnreachable';
  }
}

export class LanguageModelRefused extends JobError {
  /** The endpoint's HTTP status (0 when it answered 200 with an unreadable body). */
  readonly status: number;
  constructor(status: number, message: string) {
    super('language_model_refused', message);
    this.name = 'LanguageModelRefused';
    this.status = status;
  }
}

/** The prompt was longer than the model's context: split the text smaller and try again. */
export class ContextTooLong extends LanguageModelRefused {
  constructor(status: number, message: string) {
    super(status, message);
    this.name = 'ContextTooLong';
  }
}

/** How endpoints say "too long": OpenAI's code, llama.cpp's and vLLM's messages, Ollama's. */
const CONTEXT_PATTERNS = [/context_length_exceeded/i, /context length/i, /context window/i, /too many tokens/i, /exceeds? the (available )?context/i, /prompt is too long/i];

/** `{base}/{path}` with exactly one slash between them. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}

function headers(endpoint: LanguageModelEndpoint): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (endpoint.apiKey) h.authorization = `Bearer ${endpoint.apiKey}`;
  return h;
}

/** An AbortSignal that fires on the caller's signal or after `ms` of no progress; `touch()` restarts the clock. */
function idleTimer(ms: number, outer: AbortSignal | undefined): { signal: AbortSignal; touch(next?: number): void; timedOut(): boolean; stop(): void } {
  const controller = new AbortController();
  let timedOut = false;
  let limit = ms;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, limit);
  };
  const onOuter = (): void => controller.abort(outer!.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuter, { once: true });
  arm();
  return {
    signal: controller.signal,
    touch(next?: number) {
      if (next !== undefined) limit = next;
      arm();
    },
    timedOut: () => timedOut,
    stop() {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/** The endpoint's error message from an OpenAI-style `{error: {message}}` body, or the body's start. */
function errorMessageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown; code?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    const message = parsed.error?.message ?? parsed.message;
    const code = parsed.error && typeof parsed.error === 'object' ? parsed.error.code : undefined;
    if (typeof message === 'string') return typeof code === 'string' ? `${message} (${code})` : message;
  } catch {
    // not JSON: the text itself
  }
  return body.slice(0, 300).trim() || 'no message';
}

function refusal(status: number, body: string, endpoint: LanguageModelEndpoint): LanguageModelRefused {
  const message = errorMessageOf(body);
  if (CONTEXT_PATTERNS.some((p) => p.test(body))) {
    return new ContextTooLong(status, `The language model ${endpoint.model} refused the text as longer than its context: ${message}`);
  }
  const hint =
    status === 401 || status === 403
      ? ' Check the API key in Settings → Language model.'
      : status === 404
        ? ` Check the base URL (it should end where /chat/completions begins, e.g. …/v1) and that the model "${endpoint.model}" exists there.`
        : '';
  return new LanguageModelRefused(status, `The language model endpoint answered ${status}: ${message}.${hint}`);
}

function unreachable(endpoint: LanguageModelEndpoint, error: unknown, timedOut: boolean, ms: number): LanguageModelUnreachable {
  if (timedOut) {
    return new LanguageModelUnreachable(`The language model at ${endpoint.baseUrl} did not answer within ${Math.round(ms / 1000)} s; check that it is running and not overloaded.`);
  }
  const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new LanguageModelUnreachable(`The language model at ${endpoint.baseUrl} cannot be reached (${cause}); check that it is running and the base URL in Settings.`, { cause: error });
}

/** Usage as OpenAI reports it, or null. */
function usageOf(value: unknown): ChatUsage | null {
  const u = value as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  if (u && typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number') {
    return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
  }
  return null;
}

/**
 * One chat completion. Streams when `options.onDelta` is given (the answer's pieces as they come), else waits for
 * the whole answer. Throws LanguageModelUnreachable, ContextTooLong or LanguageModelRefused; rethrows the caller's
 * abort reason when its signal aborts.
 */
export async function chatCompletion(endpoint: LanguageModelEndpoint, messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatAnswer> {
  const key = `${endpoint.baseUrl}\n${endpoint.model}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await chatCompletionOnce(endpoint, messages, options, dialects.get(key) ?? OPENAI_CLASSIC);
    } catch (error) {
      const corrected = attempt < 2 && error instanceof ParameterRefused ? correctedDialect(dialects.get(key) ?? OPENAI_CLASSIC, error.parameter) : null;
      if (!corrected) throw error instanceof ParameterRefused ? error.refusal : error;
      dialects.set(key, corrected);
    }
  }
}

/**
 * How an endpoint takes the answer's length and temperature. Most (Ollama, llama.cpp, vLLM, LM Studio, OpenAI's GPT
 * models) take `max_tokens` and any `temperature`; OpenAI's reasoning models refuse both with 400
 * `unsupported_parameter` / `unsupported_value` naming the parameter, and want `max_completion_tokens` and their
 * default temperature. A refusal naming one of them is answered by asking again the other way, and the way that
 * worked is kept for that endpoint and model for as long as the process runs.
 */
interface Dialect {
  lengthField: 'max_tokens' | 'max_completion_tokens';
  sendTemperature: boolean;
}

const OPENAI_CLASSIC: Dialect = { lengthField: 'max_tokens', sendTemperature: true };
const dialects = new Map<string, Dialect>();

/** A 400 that names a request parameter the endpoint does not take; `refusal` is what the caller sees otherwise. */
class ParameterRefused extends Error {
  constructor(
    readonly parameter: 'max_tokens' | 'temperature',
    readonly refusal: LanguageModelRefused,
  ) {
    super(refusal.message);
  }
}

function correctedDialect(dialect: Dialect, parameter: 'max_tokens' | 'temperature'): Dialect | null {
  if (parameter === 'max_tokens' && dialect.lengthField === 'max_tokens') return { ...dialect, lengthField: 'max_completion_tokens' };
  if (parameter === 'temperature' && dialect.sendTemperature) return { ...dialect, sendTemperature: false };
  return null;
}

/** The parameter a 400's OpenAI-style error names as not taken (its `param`, or its message), if it is one we can drop. */
function refusedParameter(status: number, body: string): 'max_tokens' | 'temperature' | null {
  if (status !== 400 || !/unsupported/i.test(body)) return null;
  let param: unknown;
  try {
    param = (JSON.parse(body) as { error?: { param?: unknown } }).error?.param;
  } catch {
    param = undefined;
  }
  if (param === 'max_tokens' || /'max_tokens'/.test(body)) return 'max_tokens';
  if (param === 'temperature' || /'temperature'/.test(body)) return 'temperature';
  return null;
}

async function chatCompletionOnce(endpoint: LanguageModelEndpoint, messages: readonly ChatMessage[], options: ChatOptions, dialect: Dialect): Promise<ChatAnswer> {
  const stream = options.onDelta !== undefined;
  const connectMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const timer = idleTimer(connectMs, options.signal);
  const body: Record<string, unknown> = { model: endpoint.model, messages, stream };
  if (dialect.sendTemperature) body.temperature = 0.2;
  if (stream) body.stream_options = { include_usage: true };
  if (options.maxTokens !== undefined) body[dialect.lengthField] = options.maxTokens;
  let response: Response;
  try {
    response = await fetch(endpointUrl(endpoint.baseUrl, 'chat/completions'), { method: 'POST', headers: headers(endpoint), body: JSON.stringify(body), signal: timer.signal });
  } catch (error) {
    timer.stop();
    if (options.signal?.aborted) throw options.signal.reason;
    throw unreachable(endpoint, error, timer.timedOut(), connectMs);
  }
  timer.touch(idleMs);
  try {
    if (!response.ok) {
      const text = await response.text();
      const parameter = refusedParameter(response.status, text);
      if (parameter) throw new ParameterRefused(parameter, refusal(response.status, text, endpoint));
      throw refusal(response.status, text, endpoint);
    }
    const type = response.headers.get('content-type') ?? '';
    if (stream && type.includes('text/event-stream')) return await readStream(response, endpoint, messages, options.onDelta!, () => timer.touch());
    const text = await response.text();
    let parsed: { choices?: { message?: { content?: unknown } }[]; usage?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new LanguageModelRefused(0, `The language model endpoint answered something that is not a chat completion: ${text.slice(0, 200)}`);
    }
    const content = parsed.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new LanguageModelRefused(0, 'The language model endpoint answered without choices[0].message.content.');
    if (stream) options.onDelta!(content);
    return finish(content, usageOf(parsed.usage), messages);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof LanguageModelRefused || error instanceof ParameterRefused) throw error;
    throw unreachable(endpoint, error, timer.timedOut(), idleMs);
  } finally {
    timer.stop();
  }
}

/** Reads `data: {…}` events until `data: [DONE]` (or the end of the body). */
async function readStream(response: Response, endpoint: LanguageModelEndpoint, messages: readonly ChatMessage[], onDelta: (text: string) => void, touch: () => void): Promise<ChatAnswer> {
  if (!response.body) throw new LanguageModelRefused(0, 'The language model endpoint sent an empty stream.');
  const decoder = new TextDecoder();
  let buffered = '';
  let text = '';
  let usage: ChatUsage | null = null;
  const handle = (line: string): boolean => {
    if (!line.startsWith('data:')) return false;
    const data = line.slice(5).trim();
    if (data === '[DONE]') return true;
    let event: { choices?: { delta?: { content?: unknown } }[]; usage?: unknown; error?: unknown };
    try {
      event = JSON.parse(data) as typeof event;
    } catch {
      return false; // a keep-alive or a comment: not ours to judge
    }
    if (event.error) throw refusal(200, data, endpoint);
    const piece = event.choices?.[0]?.delta?.content;
    if (typeof piece === 'string' && piece) {
      text += piece;
      onDelta(piece);
    }
    usage = usageOf(event.usage) ?? usage;
    return false;
  };
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    touch();
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (handle(line)) return finish(text, usage, messages);
    }
  }
  if (buffered.trim()) handle(buffered.trim());
  return finish(text, usage, messages);
}

function finish(text: string, usage: ChatUsage | null, messages: readonly ChatMessage[]): ChatAnswer {
  if (usage) return { text, usage, reportedUsage: true };
  return { text, usage: { promptTokens: estimateTokens(messages.map((m) => m.content).join('\n')), completionTokens: estimateTokens(text) }, reportedUsage: false };
}

/**
 * The token estimate used to split transcripts and when an endpoint reports no usage: one token per 4 characters,
 * rounded up — close for English with the BPE vocabularies of Llama, Mistral and GPT models, and on the safe side
 * for most others (the split keeps a margin: ai-chunks.ts).
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The model ids `GET {base}/models` lists (the settings' "Test connection"). */
export async function listModels(endpoint: Omit<LanguageModelEndpoint, 'model'>, timeoutMs = 10_000): Promise<string[]> {
  const timer = idleTimer(timeoutMs, undefined);
  const probe = { ...endpoint, model: '' };
  try {
    let response: Response;
    try {
      response = await fetch(endpointUrl(endpoint.baseUrl, 'models'), { headers: headers(probe), signal: timer.signal });
    } catch (error) {
      throw unreachable(probe, error, timer.timedOut(), timeoutMs);
    }
    const text = await response.text();
    if (!response.ok) throw refusal(response.status, text, probe);
    try {
      const parsed = JSON.parse(text) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
      const ids = (parsed.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
      return ids;
    } catch {
      throw new LanguageModelRefused(0, `${endpointUrl(endpoint.baseUrl, 'models')} answered something that is not a model list: ${text.slice(0, 200)}`);
    }
  } finally {
    timer.stop();
  }
}
