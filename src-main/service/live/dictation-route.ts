/**
 * The dictation route's part of the live server: which models may open a session (before the upgrade: a model that
 * cannot run live is refused with 422 before any audio is sent), the recognizer processes, and the sessions. On-device
 * models run in the recognizer pool (engines/live/recognizer-pool.ts); hosted live models are relayed to the hosted
 * service's own route.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type WebSocket from 'ws';
import type { Job } from '../../common/api-types.js';
import type { Pricing } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { liveModelConfig, liveUnavailableReason } from '../../engines/live/live-models.js';
import { RecognizerPool, type RecognizerHandlers, type RecognizerStream, type RecognizerStreamOptions } from '../../engines/live/recognizer-pool.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { ProcessLauncher } from '../../engines/worker/process-launcher.js';
import { dictationJobName } from '../../jobs/engine/dictation-job.js';
import type { HostedDictationJob, NewDictationJob } from '../../jobs/engine/job-service-types.js';
import type { LiveReservation, LiveReservationRequest } from '../../jobs/money/live-reservations.js';
import { ensurePrivateDir } from '../../store/private-files.js';
import { singleQuery } from '../http/query-params.js';
import { DictationSession, RECORDING_IN_PROGRESS, type DictationSessionStats } from './dictation-session.js';
import type { UploadTicket } from '../uploads/upload-budget.js';
import { connectHosted, relay, type HostedEndpoint, type RelayLink } from './hosted-dictation-proxy.js';
import { hostedLiveMeter } from './hosted-live-meter.js';
import type { LiveOptions } from './live-options.js';
import type { Log } from '../../common/log.js';
import { MODEL_QUERY_REQUIRED, modelUnavailable, noModel } from '../../common/error-messages.js';

export interface DictationDeps {
  resolveModel(id: string): ModelDefinition | undefined;
  /** Looks again for models another process installed, when a session names one this node does not know (live-server.ts). */
  lookElsewhere?(): Promise<unknown>;
  /** Makes the model's files present on this node before a session loads it (live-server.ts). */
  prepareModel?(model: ModelDefinition): Promise<void>;
  /** Records an ended session as a speech-to-text job (JobService.recordDictation). */
  recordDictation(input: NewDictationJob): Promise<Job>;
  /** Records the local job that follows a hosted session's job (JobService.followHostedDictation). */
  followHostedDictation?(input: HostedDictationJob): Promise<Job>;
  /** The hosted service's address and key, for hosted live models; undefined when none is configured. */
  hostedEndpoint?(): HostedEndpoint | undefined;
  /** Reserves the first chunk a hosted live session may spend, or says why the monthly cap refuses (JobService.reserveLive). */
  reserveLive?(request: LiveReservationRequest): Promise<LiveReservation | string>;
  /** The price the catalogue publishes for a model (the pricing file applied). */
  pricingFor?(model: ModelDefinition): Pricing;
  dataDir: string;
  /**
   * Where an account's dictation recordings go and its upload quota (uploads/upload-budget.ts): recordings are kept
   * in the account's uploads and counted there. Without it (tests of the live server alone): `<data dir>/live`.
   */
  recordings?: { uploadsDir: string; openQuota(accountId: string): Promise<UploadTicket> };
  /** Resolves once what was committed is on disk: a session's `session.done` waits for its job to be (store/durability.ts). */
  durable?(): Promise<void>;
  log: Log;
  launcher?: ProcessLauncher;
}

/** What the live server keeps of an open session, whichever route opened it. */
export interface SessionHandle {
  revoke(message: string): void | Promise<void>;
  close(): void | Promise<void>;
}

/**
 * A warm on-device live recognizer of one model, for audio the service records itself (meeting capture,
 * service/capture/): the model is checked as a dictation's and its streams are those of the same recognizer pool, so
 * they take the same fair turns between accounts.
 */
export interface LiveRecognizer {
  model: ModelDefinition;
  mode: 'streaming' | 'vad';
  open(options: RecognizerStreamOptions, handlers: RecognizerHandlers): Promise<RecognizerStream>;
}

export interface DictationRoute {
  /** Checks the model (and loads it warm, or connects to the hosted service); resolves to the session's starter. */
  admit(url: URL, accountId: string): Promise<(ws: WebSocket) => SessionHandle>;
  /** The model checked as admit() checks it, on-device only, and loaded warm. */
  recognizer(modelId: string): Promise<LiveRecognizer>;
  sessions(): DictationSessionStats[];
  readonly pool: RecognizerPool;
  close(): Promise<void>;
}

/** The folder of an account's uploads that holds its dictation recordings. */
export const DICTATIONS_FOLDER = 'dictations';

/** A stable key for a model's recognizer process: the same files and settings share one warm child. */
function poolKey(model: ModelDefinition): string {
  return `${model.id}\n${JSON.stringify(model.engineConfig)}`;
}

export function createDictationRoute(deps: DictationDeps, options: LiveOptions): DictationRoute {
  const pool = new RecognizerPool(deps.log, deps.launcher);
  const recordingsDir = join(deps.dataDir, 'live');
  const sessions = new Set<DictationSession>();
  const relays = new Set<SessionHandle>();
  let prepared = false;

  /**
   * Recordings that sessions cut short by a crash were still writing (`*.recording.wav`: their job was never
   * recorded) are deleted at the first session, in every account's folder.
   */
  const prepare = (): void => {
    if (prepared) return;
    ensurePrivateDir(recordingsDir);
    for (const name of readdirSync(recordingsDir)) rmSync(join(recordingsDir, name), { force: true, recursive: true });
    const uploads = deps.recordings?.uploadsDir;
    for (const account of uploads && existsSync(uploads) ? readdirSync(uploads) : []) {
      const dir = join(uploads!, account, DICTATIONS_FOLDER);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) if (name.endsWith(RECORDING_IN_PROGRESS)) rmSync(join(dir, name), { force: true });
    }
    prepared = true;
  };

  /**
   * A hosted session's `session.done` names the job the hosted service recorded; a local job that follows it is
   * recorded here and named instead, so the dictation is in this device's Jobs like a local one. Should that fail, the
   * hosted job's id is passed on as it is.
   */
  function followDone(accountId: string, model: ModelDefinition, endpoint: HostedEndpoint, remoteModelId: string) {
    return async (done: { job_id: string | null; duration_seconds?: number }): Promise<{ job_id: string | null }> => {
      if (!deps.followHostedDictation || typeof done.job_id !== 'string') return done;
      try {
        const job = await deps.followHostedDictation({
          accountId,
          modelId: model.id,
          name: dictationJobName(new Date()),
          endpointUrl: endpoint.url,
          remoteModelId,
          remoteJobId: done.job_id,
          seconds: typeof done.duration_seconds === 'number' ? done.duration_seconds : null,
        });
        return { ...done, job_id: job.id };
      } catch (error) {
        deps.log.info(`hosted dictation: the local job following ${done.job_id} could not be recorded: ${(error as Error).message}`);
        return done;
      }
    };
  }

  /**
   * A hosted dictation cannot wait for the budget the way a job does (the person is speaking): its first chunk
   * (request fee and five minutes) is reserved before the hosted service is asked, or the upgrade is refused with 402
   * budget_exceeded; the meter then reserves chunk by chunk as the audio goes (hosted-live-meter.ts).
   */
  async function reserveHosted(model: ModelDefinition, accountId: string): Promise<LiveReservation | null> {
    if (!deps.reserveLive) return null;
    const reserved = await deps.reserveLive({ sessionId: `live_${randomBytes(12).toString('base64url')}`, accountId, modelId: model.id, pricing: deps.pricingFor?.(model) ?? model.pricing ?? null, chunkSeconds: options.hostedLiveChunkSeconds });
    if (typeof reserved === 'string') throw new ApiError('budget_exceeded', reserved);
    return reserved;
  }

  async function admitHosted(model: ModelDefinition, accountId: string): Promise<(ws: WebSocket) => SessionHandle> {
    const endpoint = deps.hostedEndpoint?.();
    if (!endpoint) throw new ApiError('model_unavailable', 'no hosted service is configured (Settings → Hosted service)');
    const reservation = await reserveHosted(model, accountId);
    const remoteId = typeof model.engineConfig.remoteModelId === 'string' ? model.engineConfig.remoteModelId : model.id;
    let hosted: Awaited<ReturnType<typeof connectHosted>>;
    try {
      hosted = await connectHosted(endpoint, remoteId, options.dictationHardMaxMessageBytes);
    } catch (error) {
      await reservation?.release();
      throw error;
    }
    return (ws) => {
      let link: RelayLink | null = null;
      const meter = reservation ? hostedLiveMeter(reservation, () => link!.endInput, deps.log) : null;
      link = relay(ws, hosted, deps.log, {
        onDone: followDone(accountId, model, endpoint, remoteId),
        ...(meter ? { admit: meter.admit, ended: meter.release } : {}),
      });
      const handle: SessionHandle = { revoke: () => link.close(1008, 'API key revoked'), close: () => link.close(1001, 'service shutting down') };
      relays.add(handle);
      ws.on('close', () => relays.delete(handle));
      return handle;
    };
  }

  /** The live speech-to-text model `modelId`, or the ApiError a session on it is refused with. */
  async function liveModel(modelId: string): Promise<ModelDefinition> {
    const model = deps.resolveModel(modelId) ?? (await deps.lookElsewhere?.(), deps.resolveModel(modelId));
    if (!model) throw new ApiError('not_found', noModel(modelId));
    if (model.capability !== 'asr' || !model.live) {
      const why = model.engine !== 'remote' && model.capability === 'asr' ? liveUnavailableReason(model) : null;
      throw new ApiError('model_unavailable', why ?? `model ${modelId} is not a live speech-to-text model`);
    }
    if (model.status !== 'available') throw new ApiError('model_unavailable', modelUnavailable(modelId, model.reason));
    await deps.prepareModel?.(model);
    return model;
  }

  async function recognizer(modelId: string): Promise<LiveRecognizer> {
    const model = await liveModel(modelId);
    if (model.engine === 'remote') {
      throw new ApiError('model_unavailable', `model ${modelId} runs on a hosted service; this machine's microphone and sound are recognised by an on-device live model only`);
    }
    const config = liveModelConfig(model);
    const key = poolKey(model);
    await pool.warm(key, config);
    return { model, mode: config.kind === 'sherpa-online' ? 'streaming' : 'vad', open: (options, handlers) => pool.open(key, config, options, handlers) };
  }

  async function admit(url: URL, accountId: string): Promise<(ws: WebSocket) => SessionHandle> {
    const modelId = singleQuery(url.searchParams, 'model');
    if (!modelId) throw new ApiError('model_required', MODEL_QUERY_REQUIRED);
    const model = await liveModel(modelId);
    if (model.engine === 'remote') return admitHosted(model, accountId);
    const config = liveModelConfig(model);
    const key = poolKey(model);
    // The model loads (or is already warm) before the upgrade: a model that cannot load is refused here.
    await pool.warm(key, config);
    prepare();
    const mode = config.kind === 'sherpa-online' ? 'streaming' : 'vad';
    const dir = deps.recordings ? join(deps.recordings.uploadsDir, accountId, DICTATIONS_FOLDER) : recordingsDir;
    return (ws) => {
      const session = new DictationSession(ws, {
        accountId,
        model,
        mode,
        options,
        recordingsDir: dir,
        ...(deps.recordings ? { openQuota: () => deps.recordings!.openQuota(accountId) } : {}),
        openRecognizer: (streamOptions, handlers) => pool.open(key, config, streamOptions, handlers),
        recordJob: (input) => deps.recordDictation(input),
        ...(deps.durable ? { durable: deps.durable } : {}),
        log: deps.log,
      });
      sessions.add(session);
      ws.on('close', () => sessions.delete(session));
      return session;
    };
  }

  return {
    admit,
    recognizer,
    pool,
    sessions: () => [...sessions].map((s) => s.stats()),
    async close() {
      for (const handle of relays) void handle.close();
      relays.clear();
      await Promise.all([...sessions].map((s) => s.close()));
      sessions.clear();
      await pool.close();
    },
  };
}
