/**
 * A small OpenAI-compatible chat server on 127.0.0.1 — the true boundary of language-model actions — for the tests of
 * remote/language-model/ and the AI routes: `POST /v1/chat/completions` (streamed as server-sent events when
 * `stream: true`, else one JSON answer) and `GET /v1/models`. Each test scripts it: what it answers (by default a
 * deterministic answer shaped for the action the system prompt asks for), a delay before answering or between
 * streamed pieces, a status to fail with, a context length past which it refuses like llama.cpp and vLLM do
 * (`context_length_exceeded`), and a key it requires. Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ChatCall {
  path: string;
  authorization: string | undefined;
  stream: boolean;
  model: string;
  system: string;
  user: string;
  /** The request's `max_tokens` (null: none sent). */
  maxTokens: number | null;
}

export interface ChatServer {
  /** The base URL settings take: `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  calls: ChatCall[];
  /** The answer to a request (default: defaultAnswer). */
  answer: (call: ChatCall) => string;
  /** Wait before answering at all (ms). */
  delayMs: number;
  /** Wait between two streamed pieces (ms). */
  pieceDelayMs: number;
  /** Answer every chat request with this status and an OpenAI-style error instead. */
  failWith: { status: number; message: string } | null;
  /** Refuse (400 context_length_exceeded) a request whose user message is longer than this many characters. */
  contextChars: number | null;
  /** Required as `Authorization: Bearer …` when set (401 otherwise). */
  requiredKey: string | null;
  /** Report token usage (OpenAI's `usage`); false: the client must estimate. */
  reportUsage: boolean;
  /** The usage reported for a request (default: its characters / 4, the answer's characters / 4). */
  usageFor: ((call: ChatCall, answer: string) => { prompt_tokens: number; completion_tokens: number }) | null;
  /** Model ids GET /v1/models lists. */
  models: string[];
  /**
   * Behave like OpenAI's reasoning models: refuse `max_tokens` (they take `max_completion_tokens`) and any
   * `temperature` but the default, with the 400s those models answer.
   */
  reasoningModel: boolean;
  /** Called when a chat request arrives (before any delay): lets a test act mid-action. */
  onRequest: ((call: ChatCall) => void) | null;
  reset(): void;
  close(): Promise<void>;
}

const TIME = /\[(\d{2,3}:\d{2})\]/g;

/** An answer shaped like a model's for the action named in the system prompt, built from the user's lines. */
export function defaultAnswer(call: ChatCall): string {
  const lines = call.user.split('\n').filter((l) => l.trim());
  const times = [...call.user.matchAll(TIME)].map((m) => m[1]!);
  if (/clean up machine transcripts/i.test(call.system)) {
    return lines
      .map((line) => {
        const m = /^\[(\d+)\]\s*(.*)$/.exec(line);
        if (!m) return line;
        const words = m[2]!.replace(/\b(um|uh)\b\s*/gi, '').trim();
        return `[${m[1]}] ${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
      })
      .join('\n');
  }
  if (/translate/i.test(call.system)) return lines.map((l) => l.replace(/\] /, '] (translated) ')).join('\n');
  if (/divide transcripts into chapters/i.test(call.system) || /merge chapter lists/i.test(call.system)) {
    const picked = [times[0], times[Math.floor(times.length / 2)]].filter((t, i, all): t is string => t !== undefined && all.indexOf(t) === i);
    return picked.map((t, i) => `[${t}] Chapter ${i + 1}`).join('\n');
  }
  if (/answer questions|combine partial answers/i.test(call.system)) return `The speaker asks the audience to serve their country [${times[0] ?? '00:00'}].`;
  if (/action items/i.test(call.system)) return `- [${times[0] ?? '00:00'}] Audience: ask what they can do for their country`;
  return `Summary of ${lines.length} lines.\n- The first line is at ${times[0] ?? 'the start'}.`;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startChatServer(): Promise<ChatServer> {
  const sockets = new Set<Socket>();
  const state = {
    calls: [] as ChatCall[],
    answer: defaultAnswer,
    delayMs: 0,
    pieceDelayMs: 0,
    failWith: null as ChatServer['failWith'],
    contextChars: null as number | null,
    requiredKey: null as string | null,
    reportUsage: true,
    usageFor: null as ChatServer['usageFor'],
    models: ['tiny-chat'],
    reasoningModel: false,
    onRequest: null as ChatServer['onRequest'],
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const authorization = req.headers.authorization;
    if (state.requiredKey && authorization !== `Bearer ${state.requiredKey}`) {
      return send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    if (req.method === 'GET' && req.url === '/v1/models') {
      return send(res, 200, { object: 'list', data: state.models.map((id) => ({ id, object: 'model', owned_by: 'test' })) });
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    const parsed = JSON.parse(body) as { model: string; stream?: boolean; max_tokens?: number; max_completion_tokens?: number; temperature?: number; messages: { role: string; content: string }[] };
    const call: ChatCall = {
      path: req.url,
      authorization,
      stream: parsed.stream === true,
      model: parsed.model,
      system: parsed.messages.find((m) => m.role === 'system')?.content ?? '',
      user: parsed.messages.find((m) => m.role === 'user')?.content ?? '',
      maxTokens: typeof parsed.max_tokens === 'number' ? parsed.max_tokens : typeof parsed.max_completion_tokens === 'number' ? parsed.max_completion_tokens : null,
    };
    state.calls.push(call);
    state.onRequest?.(call);
    if (state.reasoningModel && parsed.max_tokens !== undefined) {
      return send(res, 400, {
        error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' },
      });
    }
    if (state.reasoningModel && parsed.temperature !== undefined && parsed.temperature !== 1) {
      return send(res, 400, {
        error: { message: `Unsupported value: 'temperature' does not support ${parsed.temperature} with this model. Only the default (1) value is supported.`, type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' },
      });
    }
    if (state.delayMs) await sleep(state.delayMs);
    if (state.failWith) return send(res, state.failWith.status, { error: { message: state.failWith.message, type: 'server_error' } });
    if (state.contextChars !== null && call.user.length > state.contextChars) {
      return send(res, 400, {
        error: { message: `This model's maximum context length is ${state.contextChars} tokens, your request has more.`, type: 'invalid_request_error', code: 'context_length_exceeded' },
      });
    }
    const text = state.answer(call);
    const usage = state.usageFor?.(call, text) ?? { prompt_tokens: Math.ceil((call.system.length + call.user.length) / 4), completion_tokens: Math.ceil(text.length / 4) };
    if (!call.stream) {
      return send(res, 200, {
        id: 'chatcmpl-test',
        object: 'chat.completion',
        model: call.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        ...(state.reportUsage ? { usage } : {}),
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = text.match(/[\s\S]{1,12}/g) ?? [];
    for (const piece of pieces) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
      if (state.pieceDelayMs) await sleep(state.pieceDelayMs);
    }
    if (state.reportUsage) res.write(`data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const chat: ChatServer = Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    reset() {
      Object.assign(state, { calls: [], answer: defaultAnswer, delayMs: 0, pieceDelayMs: 0, failWith: null, contextChars: null, requiredKey: null, reportUsage: true, usageFor: null, models: ['tiny-chat'], reasoningModel: false, onRequest: null });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  return chat;
}
