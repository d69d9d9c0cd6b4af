/**
 * The live WebSocket routes, attached to the service's HTTP server in noServer mode: text to speech
 * (`/v1/text-to-speech/realtime?model=…`, here) and dictation (`/v1/speech-to-text/realtime?model=…`,
 * dictation-route.ts). Key, origin and model are checked BEFORE the upgrade completes, the same way for both
 * (live-admission.ts): a refusal is a plain HTTP response with the JSON error body, and the socket is closed. Open
 * sessions of a revoked key end at once (or within keyRecheckMs).
 */
import { join } from 'node:path';
import type { DesignedVoiceInput } from '../../engines/engine-types.js';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Job, Pricing } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { FREE_PRICING } from '../../common/pricing.js';
import { numberQuery, singleQuery } from '../http/query-params.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { ProcessLauncher } from '../../engines/worker/process-launcher.js';
import { EspeakThreadPool } from '../../engines/live/espeak-thread-pool.js';
import type { HostedDictationJob, NewDictationJob } from '../../jobs/engine/job-service-types.js';
import { createDictationRoute, type DictationDeps, type LiveRecognizer, type SessionHandle } from './dictation-route.js';
import type { DictationSessionStats } from './dictation-session.js';
import type { HostedEndpoint } from './hosted-dictation-proxy.js';
import { admitClient, refuseUpgrade } from './live-admission.js';
import { DEFAULT_LIVE_OPTIONS, DICTATION_PATH, LIVE_PATH, type LiveOptions } from './live-options.js';
import { LiveSession, type LiveCharge, type LiveSessionStats } from './live-session.js';
import type { LiveVoice } from '../../engines/live/live-synth.js';
import { NeuralVoicePool } from '../../engines/live/neural-voice-pool.js';
import type { LiveReference } from '../../engines/live/cloned-voice-child.js';
import { resolveEspeakVoice } from '../../engines/tts/espeak-synth.js';
import type { LiveReservation, LiveReservationRequest } from '../../jobs/money/live-reservations.js';
import { CLOSE_TRY_AGAIN_LATER, SessionSlots } from './session-slots.js';
import type { Authentication } from '../auth/authenticate.js';
import { silentLog, type Log } from '../../common/log.js';
import { MODEL_QUERY_REQUIRED, SHUTTING_DOWN, modelUnavailable, noModel, noWebSocketRoute } from '../../common/error-messages.js';

export interface LiveDeps {
  /** The service's key check (auth/authenticate.ts): the key, its failed-check limit and the browser Origin. */
  authentication: Authentication;
  /**
   * Whether a session's key is still valid (re-checked every keyRecheckMs and on recheckKeys()); a session whose key
   * was revoked ends with an `unauthorized` error. Default: keys stay valid for the session's life.
   */
  isKeyValid?(key: string): boolean | Promise<boolean>;
  resolveModel(id: string): ModelDefinition | undefined;
  /**
   * Looks again for models installed by another process (another node of a cluster, `voxdesk models pull` beside the
   * service): called only when a session names a model this node does not know, so a model installed a moment ago
   * answers on the first session that names it (as the HTTP routes do, routes/submission.ts). Default: none.
   */
  lookElsewhere?(): Promise<unknown>;
  /** Makes the model's files present on this node (object storage: a package another node installed). Default: none. */
  prepareModel?(model: ModelDefinition): Promise<void>;
  /** The model's live price (catalogue + pricing file). Default: the definition's pricing, else free. */
  pricingFor?(model: ModelDefinition): Pricing;
  /** Writes one ledger row (request fee once per session, usage per speak). */
  charge(entry: LiveCharge): void;
  /**
   * Records an ended dictation session as a speech-to-text job (JobService.recordDictation). Without it the dictation
   * route refuses every session (500).
   */
  recordDictation?(input: NewDictationJob): Promise<Job>;
  /**
   * Records the local job that follows a relayed dictation's hosted job (JobService.followHostedDictation). Without
   * it a hosted session's `session.done` names the hosted job as it is.
   */
  followHostedDictation?(input: HostedDictationJob): Promise<Job>;
  /** The hosted service's address and key, for hosted live dictation models. */
  hostedEndpoint?(): HostedEndpoint | undefined;
  /** Reserves what a hosted live session may spend, chunk by chunk (JobService.reserveLive). */
  reserveLive?(request: LiveReservationRequest): Promise<LiveReservation | string>;
  dataDir: string;
  /**
   * A saved designed voice of the account by its id (the `voice` query of a neural model's session, docs/voices.md),
   * or undefined when `voice` names none; ApiError when it names another account's or one the model cannot speak.
   */
  designedVoice?(accountId: string, model: ModelDefinition, voice: string): Promise<DesignedVoiceInput | undefined>;
  /**
   * A saved cloned voice of the account by its id (the `voice` query of a voice-cloning model's session): its
   * recording's absolute path and words, checked as a voice-cloning request checks them (service/voices/saved-voice-live.ts);
   * ApiError when it names none of the account's cloned voices or one the model cannot speak in.
   */
  clonedVoice?(accountId: string, model: ModelDefinition, voice: string | undefined): Promise<LiveReference>;
  /** Where dictation recordings go and the accounts' upload quota (service/live/dictation-route.ts). */
  recordings?: DictationDeps['recordings'];
  durable?: DictationDeps['durable'];
  options?: Partial<LiveOptions>;
  log?: Log;
  /** Starts the neural voice and recognizer processes. Default child_process.fork (the Electron app passes utilityProcess). */
  launcher?: ProcessLauncher;
}

export interface LiveServer {
  readonly options: LiveOptions;
  /** Open live text-to-speech sessions. */
  sessions(): LiveSessionStats[];
  /** Open dictation sessions. */
  dictationSessions(): DictationSessionStats[];
  /** Recognizer processes running (for diagnostics and tests). */
  recognizers(): { key: string; pid: number | undefined; streams: number }[];
  /** Neural voice processes running, each one model load (for diagnostics and tests). */
  neuralVoices(): number;
  /**
   * For meeting capture (service/capture/): a warm on-device live recognizer of a model, checked as a dictation's
   * (ApiError otherwise), and a dictation session slot for each of its streams (the same caps as dictation).
   */
  liveRecognizer(modelId: string): Promise<LiveRecognizer>;
  takeDictationSlot(accountId: string): { release: () => void } | { refused: string };
  /** Ends at once every session whose key isValid() no longer accepts (called after a revocation). */
  recheckKeys(): void;
  /** Closes every session (1001) and stops the speech threads and voice processes. */
  close(): Promise<void>;
}

export function attachLiveServer(server: Server, deps: LiveDeps): LiveServer {
  const options: LiveOptions = { ...DEFAULT_LIVE_OPTIONS, ...deps.options };
  const log = deps.log ?? silentLog;
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  // Dictation reads larger frames so that one past the protocol's 64 KiB is answered (frame_too_large), not cut.
  const dictationWss = new WebSocketServer({ noServer: true, maxPayload: options.dictationHardMaxMessageBytes });
  const espeak = new EspeakThreadPool(options.espeakThreads);
  const neural = new NeuralVoicePool(log, deps.launcher);
  const sessions = new Set<LiveSession>();
  const slots = {
    speech: new SessionSlots({ perAccount: options.speechMaxSessionsPerAccount, total: options.speechMaxSessions }),
    dictation: new SessionSlots({ perAccount: options.dictationMaxSessionsPerAccount, total: options.dictationMaxSessions }),
  };
  /** Every open session of either route, with its key. */
  const keys = new Map<SessionHandle, string>();
  const dictation = createDictationRoute(
    {
      resolveModel: deps.resolveModel,
      ...(deps.lookElsewhere ? { lookElsewhere: deps.lookElsewhere } : {}),
      ...(deps.prepareModel ? { prepareModel: deps.prepareModel } : {}),
      recordDictation: (input) => {
        if (!deps.recordDictation) throw new Error('this live server records no dictation jobs');
        return deps.recordDictation(input);
      },
      ...(deps.followHostedDictation ? { followHostedDictation: deps.followHostedDictation } : {}),
      hostedEndpoint: () => deps.hostedEndpoint?.(),
      ...(deps.reserveLive ? { reserveLive: deps.reserveLive } : {}),
      ...(deps.pricingFor ? { pricingFor: deps.pricingFor } : {}),
      dataDir: deps.dataDir,
      ...(deps.recordings ? { recordings: deps.recordings } : {}),
      ...(deps.durable ? { durable: deps.durable } : {}),
      log,
      ...(deps.launcher ? { launcher: deps.launcher } : {}),
    },
    options,
  );
  let closing = false;

  const recheckKeys = async (): Promise<void> => {
    if (!deps.isKeyValid) return;
    for (const [session, key] of [...keys]) {
      if (await deps.isKeyValid(key)) continue;
      if (!keys.has(session)) continue;
      keys.delete(session);
      if (session instanceof LiveSession) sessions.delete(session);
      void session.revoke('the API key of this session was revoked');
    }
  };
  const recheckTimer = deps.isKeyValid ? setInterval(() => keys.size > 0 && void recheckKeys().catch((error: Error) => log.info(`live: keys could not be checked again: ${error.message}`)), options.keyRecheckMs) : undefined;
  recheckTimer?.unref();

  async function voiceFor(model: ModelDefinition, url: URL, accountId: string): Promise<LiveVoice> {
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
      const saved = singleQuery(url.searchParams, 'voice', 'invalid_params');
      const design = saved && deps.designedVoice ? await deps.designedVoice(accountId, model, saved) : undefined;
      if (saved && !design) throw new ApiError('invalid_params', `voice ${saved} is not a saved designed voice of this account (GET /v1/voices lists them)`);
      return design ? neural.voice(model, 0, { recipe: design.recipe, cacheDir: join(deps.dataDir, 'designed-voices') }) : neural.voice(model, speaker ?? 0);
    }
    if (model.engine === 'sherpa-cloning' && deps.clonedVoice) {
      // A zero-shot model speaks only in a saved cloned voice of the account's (docs/voices.md).
      return neural.clonedVoice(model, await deps.clonedVoice(accountId, model, singleQuery(url.searchParams, 'voice', 'invalid_params')));
    }
    throw new ApiError('model_unavailable', `model ${model.id} cannot stream live on this device`);
  }

  /** The TTS route's own checks, after the client's: the model, then its voice (loaded before the upgrade). */
  async function admitSpeech(url: URL, accountId: string): Promise<{ model: ModelDefinition; voice: LiveVoice }> {
    const modelId = singleQuery(url.searchParams, 'model');
    if (!modelId) throw new ApiError('model_required', MODEL_QUERY_REQUIRED);
    const model = deps.resolveModel(modelId) ?? (await deps.lookElsewhere?.(), deps.resolveModel(modelId));
    if (!model) throw new ApiError('not_found', noModel(modelId));
    const cloning = model.engine === 'sherpa-cloning' && deps.clonedVoice !== undefined;
    if (!cloning && (model.capability !== 'tts' || !model.live)) throw new ApiError('model_unavailable', `model ${modelId} is not a live text-to-speech model`);
    if (model.status !== 'available') throw new ApiError('model_unavailable', modelUnavailable(modelId, model.reason));
    await deps.prepareModel?.(model);
    return { model, voice: await voiceFor(model, url, accountId) };
  }

  /** A session past the caps: the reason as an `error` message, then close code 1013 (try again later). */
  const refuseSession = (reason: string) => (ws: WebSocket): SessionHandle => {
    ws.send(JSON.stringify({ type: 'error', error: { code: 'too_many_sessions', message: reason } }));
    ws.close(CLOSE_TRY_AGAIN_LATER, 'too many live sessions');
    return { revoke: () => {}, close: () => {} };
  };

  const startSpeech = (accountId: string, model: ModelDefinition, voice: LiveVoice) => (ws: WebSocket): SessionHandle => {
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
    ws.on('close', () => sessions.delete(session));
    return session;
  };

  /**
   * Both routes: the client first (key, origin), then a session slot of the route (session-slots.ts), then the
   * route's own checks; resolves to the session's starter and the slot to give back when the socket closes.
   */
  async function admit(req: IncomingMessage, url: URL): Promise<{ key: string; start: (ws: WebSocket) => SessionHandle; release: () => void }> {
    if (closing) throw new ApiError('internal_error', SHUTTING_DOWN);
    const client = await admitClient(req, url, { authentication: deps.authentication });
    const dictating = url.pathname === DICTATION_PATH;
    if (dictating && !deps.recordDictation) throw new ApiError('internal_error', 'live dictation is not available in this service');
    const slot = (dictating ? slots.dictation : slots.speech).take(client.accountId);
    // Too many: accepted and closed at once with the reason, so a browser (which cannot read a refused upgrade) sees it.
    if ('refused' in slot) return { key: client.key, start: refuseSession(slot.refused), release: () => {} };
    try {
      if (dictating) return { key: client.key, start: await dictation.admit(url, client.accountId), release: slot.release };
      const { model, voice } = await admitSpeech(url, client.accountId);
      return { key: client.key, start: startSpeech(client.accountId, model, voice), release: slot.release };
    } catch (error) {
      slot.release();
      throw error;
    }
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== LIVE_PATH && url.pathname !== DICTATION_PATH) {
      // Another upgrade handler may own this path; answer 404 only when there is none.
      if (server.listenerCount('upgrade') === 1) refuseUpgrade(socket, new ApiError('not_found', noWebSocketRoute(url.pathname)));
      return;
    }
    socket.on('error', () => socket.destroy());
    admit(req, url).then(
      ({ key, start, release }) => {
        const target = url.pathname === DICTATION_PATH ? dictationWss : wss;
        socket.once('close', release);
        target.handleUpgrade(req, socket, head, (ws) => {
          ws.once('close', release);
          if (closing) return void ws.close(1001, 'service shutting down');
          const session = start(ws);
          keys.set(session, key);
          ws.on('close', () => keys.delete(session));
        });
      },
      (error: unknown) => {
        if (error instanceof ApiError) refuseUpgrade(socket, error);
        else {
          log.info(`live upgrade failed: ${(error as Error).stack ?? String(error)}`);
          refuseUpgrade(socket, new ApiError('internal_error', 'the live session could not be opened'));
        }
      },
    );
  };
  server.on('upgrade', onUpgrade);

  return {
    options,
    sessions: () => [...sessions].map((s) => s.stats()),
    dictationSessions: () => dictation.sessions(),
    recognizers: () => dictation.pool.running(),
    neuralVoices: () => neural.running(),
    liveRecognizer: (modelId) => {
      if (closing) return Promise.reject(new ApiError('internal_error', SHUTTING_DOWN));
      return dictation.recognizer(modelId);
    },
    takeDictationSlot: (accountId) => slots.dictation.take(accountId),
    recheckKeys: () => void recheckKeys().catch((error: Error) => log.info(`live: keys could not be checked again: ${error.message}`)),
    async close() {
      closing = true;
      if (recheckTimer) clearInterval(recheckTimer);
      server.off('upgrade', onUpgrade);
      for (const session of sessions) session.close();
      sessions.clear();
      // Dictation sessions end like an ended input: their last finals are awaited and their jobs recorded.
      await dictation.close();
      keys.clear();
      wss.close();
      dictationWss.close();
      await Promise.all([espeak.close(), neural.close()]);
    },
  };
}
