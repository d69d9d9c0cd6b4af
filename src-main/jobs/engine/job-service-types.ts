/**
 * What the HTTP layer (and the CLI, and the remote provider) asks of the job engine. Requests arrive here already
 * authenticated and validated (model exists and serves the product, params checked against its schema, files on
 * disk); the job engine owns statuses, queueing, workers, batches, billing and retention.
 */
import type { EventEmitter } from 'node:events';
import type { Batch, BudgetSettings, Job, JobResult, QueueSummary, SegmentList } from '../../common/api-types.js';
import type { JobStatus } from '../../common/job-states.js';
import type { JobProduct, Product } from '../../common/products.js';
import type { RecordingVoice } from '../../common/speaker-matching.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { StoreRepos } from '../../store/store.js';
import type { JobRecording } from './job-recording.js';
import type { LiveReservation, LiveReservationRequest } from '../money/live-reservations.js';

/** An ended live dictation session to record as a succeeded transcription (jobs/dictation-job.ts). */
export interface NewDictationJob {
  accountId: string;
  modelId: string;
  name: string | null;
  language: string | null;
  /** The params the result follows (response_format, timestamp_granularity). */
  params: Record<string, unknown>;
  /** The transcript made live (no artifacts yet). */
  result: Omit<JobResult, 'artifacts'>;
  /** Seconds of audio received: duration_seconds, the billing basis. */
  durationSeconds: number;
  /** A WAV file of the session's audio, moved into the job's folder; null when there is none. `channels`: 1 unless given (a meeting capture's two sides are 2). */
  recording: { path: string; sampleRate: number; channels?: number } | null;
  /** The voices of the recording's diarized speakers (a meeting capture's other side), kept for the speaker library. */
  voices?: RecordingVoice[];
}

/** A live dictation recognised by a hosted service, for a local job to follow (jobs/hosted-dictation-job.ts). */
export interface HostedDictationJob {
  accountId: string;
  /** The local catalogue id of the hosted model (`remote:<hosted id>`). */
  modelId: string;
  name: string;
  /** Seconds of audio the session sent (its estimate); null when not known. */
  seconds?: number | null;
  /** The hosted service's address the session went to, its model id, and the job it recorded. */
  endpointUrl: string;
  remoteModelId: string;
  remoteJobId: string;
}

export interface NewJob {
  accountId: string;
  /** A spec product, or an extension's job kind (common/products.ts JobProduct). */
  product: JobProduct;
  modelId: string;
  name: string | null;
  language: string | null;
  /** Validated params with defaults applied. */
  params: Record<string, unknown>;
  input: EngineInput;
  /**
   * Seconds of audio the job is priced at when accepted: a recording's probed length (audio products), or null when
   * it cannot be known before the job runs. Default: the length of the text it speaks (common/pricing.ts
   * textSeconds), else null. The price itself is the model's catalogue price, recorded on the job by the job engine
   * (jobs/billing.ts); the job is charged at it for the duration_seconds it shows when it succeeds.
   */
  estimatedSeconds?: number | null;
  /**
   * The estimate (micro-dollars) of a job its runner prices itself rather than by audio minutes (a language-model
   * action on a priced endpoint: by tokens, remote/language-model/ai-pricing.ts): what the spending cap reserves when
   * the job is claimed. Its recorded price stays the model's; the runner writes its charge. Default: from the price.
   */
  estimatedUsdMicro?: number;
}

export interface NewBatch {
  accountId: string;
  product: Product;
  modelId: string;
  params: Record<string, unknown>;
  language: string | null;
  /** `estimatedSeconds` as for NewJob, per item. */
  items: { name: string | null; input: EngineInput; estimatedSeconds?: number | null }[];
}

export interface Idempotency {
  key: string;
  /** Hash of the request (method, route, body fields, file digests) to tell a replay from a different request. */
  requestHash: string;
}

export interface ListQuery {
  limit?: number;
  /** Opaque cursor from the previous page. */
  cursor?: string | null;
  product?: JobProduct;
  status?: JobStatus;
}

/** A piece of a job's encoded audio as it is made (see JobService.listenToAudio). */
export interface AudioChunk {
  /** The run that made it (1 for the first; a crashed run is retried and starts its audio again). */
  attempt: number;
  /** Byte offset of `bytes` in that run's audio. */
  offset: number;
  bytes: Uint8Array;
}

export interface JobEvents {
  /** Emitted after every committed change of a job (status, progress, duration). */
  'job-changed': [job: Job, accountId: string];
  'batch-changed': [batch: Batch, accountId: string];
  /** A failed, cancelled or expired job was retried: `job` is the new job continuing `fromJobId`'s work. */
  'job-retried': [fromJobId: string, job: Job, accountId: string];
}

/**
 * Work done in the transaction that creates a job, so that both are committed or neither: a watch folder records the
 * file with its job (a crash never queues a file twice nor loses one).
 */
export interface AlongWithJob {
  /** Runs first inside the transaction; false: no job is created (createJobAlong answers null). */
  before(repos: StoreRepos): Promise<boolean>;
  /** Runs after the insert, inside the same transaction. */
  after(repos: StoreRepos, jobId: string): Promise<void>;
}

export interface JobService {
  /** Creates a queued job (or returns the job a replayed Idempotency-Key names; throws 409 on a different request). */
  createJob(job: NewJob, idempotency?: Idempotency): Promise<{ job: Job; replayed: boolean }>;
  /** Creates a queued job with `along`'s writes in the same transaction; null when `along.before` declined. */
  createJobAlong(job: NewJob, along: AlongWithJob): Promise<Job | null>;
  /**
   * Records an ended live dictation session as a succeeded speech-to-text job with its transcript and recording,
   * charged like a file of that length (jobs/dictation-job.ts).
   */
  recordDictation(input: NewDictationJob): Promise<Job>;
  /**
   * Records a local job that follows the job a hosted service recorded for a relayed dictation (queued; the remote
   * runner settles it from the hosted job: jobs/hosted-dictation-job.ts).
   */
  followHostedDictation(input: HostedDictationJob): Promise<Job>;
  /** Throws ApiError too_many_open_batches when the account already has two open batches. */
  createBatch(batch: NewBatch, idempotency?: Idempotency): Promise<{ batch: Batch; replayed: boolean }>;
  /**
   * Undefined for an unknown id, another account's job, or a job created on another product route. The view is
   * shared and frozen (job-view-cache.ts): copy it to change it.
   */
  getJob(accountId: string, product: JobProduct, jobId: string): Promise<Job | undefined>;
  /** The recording behind a transcription (jobs/job-recording.ts); undefined as getJob is for speech-to-text. */
  getRecording(accountId: string, jobId: string): Promise<JobRecording | undefined>;
  getBatch(accountId: string, product: Product, batchId: string): Promise<Batch | undefined>;
  /** Resolves when the job is terminal or after timeoutMs (the POST hold window), whichever comes first. */
  waitForTerminal(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  cancelJob(accountId: string, product: JobProduct, jobId: string): Promise<Job | undefined>;
  cancelBatch(accountId: string, product: Product, batchId: string): Promise<Batch | undefined>;
  /**
   * Retry a failed/cancelled/expired job as a new job with the same input (extension for the desktop app). A
   * transcription's new job starts with the old one's committed segments and continues after them.
   */
  retryJob(accountId: string, product: JobProduct, jobId: string): Promise<Job | undefined>;
  /**
   * Pause a queued or running job: it stops after its current segment and waits queued with error_code `paused`.
   * Undefined when not found; throws ApiError conflict for a finished job.
   */
  pauseJob(accountId: string, product: Product, jobId: string): Promise<Job | undefined>;
  /** Put a paused job back in line (a running job whose pause has not landed carries on). Conflict when finished. */
  resumeJob(accountId: string, product: Product, jobId: string): Promise<Job | undefined>;
  /** The committed segments of a transcription after index `after` (null: from the first), at most `limit`. */
  listSegments(accountId: string, jobId: string, after: number | null, limit: number): Promise<SegmentList | undefined>;
  listJobs(accountId: string, query: ListQuery): Promise<{ data: Job[]; next_cursor: string | null }>;
  listBatches(accountId: string, query: ListQuery): Promise<{ data: Batch[]; next_cursor: string | null }>;
  /** Queue summary for the tray and the UI: counts by status and by waiting code. */
  /** Queued and running jobs, batch items still pending (not jobs yet), and queued jobs by waiting code. */
  queueSummary(accountId?: string): Promise<QueueSummary>;
  /** The monthly cap on hosted spending and where this month stands (GET /v1/settings/budget). */
  budget(): Promise<BudgetSettings>;
  /**
   * Reserves the first chunk a live session on a hosted model may spend (jobs/live-reservations.ts), or answers why
   * the monthly cap refuses it.
   */
  reserveLive(request: LiveReservationRequest): Promise<LiveReservation | string>;
  /**
   * Sets the monthly cap on hosted spending (micro-dollars; null: no cap) and schedules at once, so hosted work it
   * held starts (in the order it was sent) as far as the new cap allows.
   */
  setMonthlyCap(micro: number | null): Promise<BudgetSettings>;
  readonly events: EventEmitter<JobEvents>;
  /**
   * Receives a job's encoded audio while it runs (text-to-speech on a worker): register right after createJob, before
   * the job starts, to get all of it. Jobs run elsewhere (hosted models) send none: their artifact arrives whole.
   * Returns the function that stops listening.
   */
  listenToAudio(jobId: string, listener: (chunk: AudioChunk) => void): () => void;
  /** Requeue jobs left running by a crash, start workers and timers. */
  start(): Promise<void>;
  /** Refuse new work, let running jobs finish within graceMs, requeue the rest, stop workers. */
  shutdown(graceMs?: number): Promise<void>;
}
