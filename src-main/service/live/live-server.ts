/**
 * The live text-to-speech WebSocket route (`/v1/text-to-speech/realtime?model=…`), attached to the service's HTTP
 * server in noServer mode. Key, origin and model are checked BEFORE the upgrade completes: a refusal is a plain
 * HTTP response with the JSON error body, and the socket is closed.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Pricing } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { FREE_PRICING } from '../../common/pricing.js';
import { numberQuery, singleQuery } from '../http/query-params.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { ProcessLauncher } from '../../engines/worker/process-launcher.js';
import { EspeakThreadPool } from '../../engines/live/espeak-thread-pool.js';
import { DEFAULT_LIVE_OPTIONS, LIVE_PATH, type LiveOptions } from './live-options.js';
import { LiveSession, type LiveCharge, type LiveSessionStats } from './live-session.js';
import type { LiveVoice } from '../../engines/live/live-synth.js';
import { NeuralVoicePool } from '../../engines/live/neural-voice-pool.js';
import { resolveEspeakVoice } from '../../engines/tts/espeak-synth.js';

export interface LiveDeps {
  /**
   * The account that owns an API key, or undefined for an unknown key; may throw an ApiError (429 rate_limited for
   * an address that failed too many key checks). `address` is the client's.
   */
  authenticate(key: string, address: string): string | undefined | Promise<string | undefined>;
  /**
   * Whether a session's key is still valid (re-checked every keyRecheckMs and on recheckKeys()); a session whose key
   * was revoked ends with an `unauthorized` error. Default: keys stay valid for the session's life.
   */
  isKeyValid?(key: string): boolean;
  resolveModel(id: string): ModelDefinition | undefined;
  /** The model's live price (catalogue + pricing file). Default: the definition's pricing, else free. */
  pricingFor?(model: ModelDefinition): Pricing;
  /** Browser origins allowed besides no-origin clients. */
  allowedOrigins: readonly string[];
  /** Overrides allowedOrigins when given (e.g. the service's own origins plus the configured ones). */
  isOriginAllowed?(origin: string): boolean;
  /** Writes one ledger row (request fee once per session, usage per speak). */
  charge(entry: LiveCharge): void;
  dataDir: string;
  options?: Partial<LiveOptions>;
  log?(message: string): void;
  /** Starts the neural voice processes. Default child_process.fork (the Electron app passes utilityProcess). */
  launcher?: ProcessLauncher;
}

export interface LiveServer {
  readonly options: LiveOptions;
  sessions(): LiveSessionStats[];
  /** Ends at once every session whose key isValid() no longer accepts (called after a revocation). */
  recheckKeys(): void;
  /** Closes every session (1001) and stops the speech threads and voice processes. */
  close(): Promise<void>;
}

function refuse(socket: Duplex, error: ApiError): void {
  const status = error.status;
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error' }[status] ?? 'Error';
  const retryAfter = error.retryAfterSeconds !== null ? `Retry-After: ${Math.max(1, Math.ceil(error.retryAfterSeconds))}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${status === 401 ? 'WWW-Authenticate: Bearer\r\n' : ''}${retryAfter}Connection: close\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
}

function keyOf(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  return singleQuery(url.searchParams, 'api_key');
}

export function attachLiveServer(server: Server, deps: LiveDeps): LiveServer {
  const options: LiveOptions = { ...DEFAULT_LIVE_OPTIONS, ...deps.options };
  const log = deps.log ?? (() => {});
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  const espeak = new EspeakThreadPool(options.espeakThreads);
  const neural = new NeuralVoicePool(log, deps.launcher);
  const sessions = new Set<LiveSession>();
  const keys = new Map<LiveSession, string>();
  let closing = false;

  const recheckKeys = (): void => {
    if (!deps.isKeyValid) return;
    for (const [session, key] of keys) {
      if (deps.isKeyValid(key)) continue;
      keys.delete(session);
      sessions.delete(session);
      session.revoke('the API key of this session was revoked');
    }
  };
  const recheckTimer = deps.isKeyValid ? setInterval(() => sessions.size > 0 && recheckKeys(), options.keyRecheckMs) : undefined;
  recheckTimer?.unref();

  const originAllowed = (origin: string): boolean =>
    deps.isOriginAllowed ? deps.isOriginAllowed(origin) : deps.allowedOrigins.includes(origin);

  async function voiceFor(model: ModelDefinition, url: URL): Promise<LiveVoice> {
    if (model.engine === 'espeak') {
      const settings = {
        voice: singleQuery(url.searchParams, 'voice', 'invalid_params'),
        language: singleQuery(url.searchParams, 'language', 'invalid_params'),
        speaker: singleQuery(url.searchParams, 'speaker', 'invalid_params'),
      };
      const pitch = numberQuery(url.searchParams, 'pitch', { min: 0, max: 100, integer: true, code: 'invalid_params' });
      try {
        resolveEspeakVoice(settings);
      } catch (error) {
        throw new ApiError('invalid_params', (error as Error).message);
      }
      // A session opens when the user opens the Live tab: the threads load while they type the first sentence.
      espeak.warm();
      return espeak.voice({ ...settings, ...(pitch !== undefined ? { pitch } : {}) });
    }
    if (model.engine === 'sherpa-tts') {
      const speaker = numberQuery(url.searchParams, 'speaker', { min: 0, integer: true, code: 'invalid_params' });
      return neural.voice(model, speaker ?? 0);
    }
    throw new ApiError('model_unavailable', `model ${model.id} cannot stream live on this device`);
  }

  async function admit(req: IncomingMessage, url: URL): Promise<{ key: string; accountId: string; model: ModelDefinition; voice: LiveVoice }> {
    if (closing) throw new ApiError('internal_error', 'the service is shutting down');
    const key = keyOf(req, url);
    if (!key) throw new ApiError('unauthorized', 'an API key is required (Authorization: Bearer or the api_key query parameter)');
    const accountId = await deps.authenticate(key, req.socket.remoteAddress ?? 'unknown');
    if (!accountId) throw new ApiError('unauthorized', 'the API key is not valid');
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) throw new ApiError('forbidden_origin', `origin ${origin} is not allowed`);
    const modelId = singleQuery(url.searchParams, 'model');
    if (!modelId) throw new ApiError('model_required', 'the model query parameter is required');
    const model = deps.resolveModel(modelId);
    if (!model) throw new ApiError('not_found', `no model ${modelId}`);
    if (model.capability !== 'tts' || !model.live) throw new ApiError('model_unavailable', `model ${modelId} is not a live text-to-speech model`);
    if (model.status !== 'available') throw new ApiError('model_unavailable', `model ${modelId} is unavailable: ${model.reason ?? 'unknown reason'}`);
    return { key, accountId, model, voice: await voiceFor(model, url) };
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== LIVE_PATH) {
      // Another upgrade handler may own this path; answer 404 only when there is none.
      if (server.listenerCount('upgrade') === 1) refuse(socket, new ApiError('not_found', `no WebSocket route at ${url.pathname}`));
      return;
    }
    socket.on('error', () => socket.destroy());
    admit(req, url).then(
      ({ key, accountId, model, voice }) => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          const session = new LiveSession(ws, {
            accountId,
            model,
            voice,
            pricing: deps.pricingFor?.(model) ?? model.pricing ?? FREE_PRICING,
            options,
            charge: deps.charge,
            log,
          });
          sessions.add(session);
          keys.set(session, key);
          ws.on('close', () => {
            sessions.delete(session);
            keys.delete(session);
          });
        });
      },
      (error: unknown) => {
        if (error instanceof ApiError) refuse(socket, error);
        else {
          log(`live upgrade failed: ${(error as Error).stack ?? String(error)}`);
          refuse(socket, new ApiError('internal_error', 'the live session could not be opened'));
        }
      },
    );
  };
  server.on('upgrade', onUpgrade);

  return {
    options,
    sessions: () => [...sessions].map((s) => s.stats()),
    recheckKeys,
    async close() {
      closing = true;
      if (recheckTimer) clearInterval(recheckTimer);
      server.off('upgrade', onUpgrade);
      for (const session of sessions) session.close();
      sessions.clear();
      wss.close();
      await Promise.all([espeak.close(), neural.close()]);
    },
  };
}
