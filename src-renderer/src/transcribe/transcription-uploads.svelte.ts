/**
 * The Transcribe tab's work, apart from its view: the files dropped in this session and their way to the service.
 * One file goes to the single-item route; several go in batches of up to 50 (upload-plan.ts), whose multipart body
 * is built in slices (multipart-body.ts); a batch refused because two are already open waits and tries again instead
 * of failing the drop. Each row then has its job: a single file's from the POST's answer (asked not to wait for the
 * job, `wait=false`), a batch item's from the polled batch. Cancel and retry act on the service's jobs.
 *
 * A file that cannot be sent — empty, or larger than the model takes — fails alone with its reason before anything is
 * sent, and the others go on. Every file that never became a job is reported to `onUnsent` (Jobs → Problems keeps
 * it), and forgotten again if a later try sends it.
 *
 * Rune state, so the tab reads it directly; written against the page's ServiceHost.
 */
import type { Batch, BatchFile, Job } from '$common/api-types.js';
import { errorText } from '../shared/error-messages.js';
import { pauseOrResume } from '../jobs/job-actions.js';
import { multipartBody } from './multipart-body.js';
import type { ServiceHost } from '../shared/service/service-host.js';
import { planUploads } from './upload-plan.js';
import { yieldToMain } from '../shared/ui/yield.js';

export interface UploadItem {
  key: number;
  file: File;
  /** Local phase before the service knows the job. */
  phase: 'waiting' | 'uploading' | 'sent' | 'rejected';
  jobId: string | null;
  batchId: string | null;
  /** Position in its batch's files (kept so a row finds its batch file without scanning the items). */
  batchIndex: number | null;
  /** When its upload first started (0 before): a row `waiting` after that waits for a free batch slot. */
  sentAt: number;
  /** Why it failed before it became a job: an error code and the service's words (null when the page refused it). */
  error: { code: string; message: string | null } | null;
  /** The record in Jobs → Problems of this file not being sent, while there is one. */
  unsentId: string | null;
  /** The params it is sent with (speaker separation and the number of speakers, when asked). */
  params: Record<string, unknown>;
}

export interface TranscriptionUploadsOptions {
  /** How long a batch refused with too_many_open_batches waits before it is sent again. Default 3000 ms. */
  batchRetryMs?: number;
  /** Told of each file that did not become a job (returns the id of its record) and when a retry sent it after all. */
  unsent?: { add(file: File, model: string, error: { code: string; message: string | null }): string; dismiss(id: string): void };
  /** Told of each retry made here (Jobs → Problems leaves out a problem whose retry succeeded). */
  retries?: { note(from: string, to: string): void };
}

const FINISHED = new Set(['succeeded', 'failed', 'cancelled', 'expired']);

export class TranscriptionUploads {
  items = $state<UploadItem[]>([]);
  readonly #host: ServiceHost;
  readonly #batchRetryMs: number;
  readonly #unsent: TranscriptionUploadsOptions['unsent'];
  readonly #retries: TranscriptionUploadsOptions['retries'];
  #seq = 0;
  /** Uploads in flight, to abort on cancel: bookkeeping, never rendered, so a plain Set. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #controllers = new Set<AbortController>();
  /** Bumped by cancelAll: uploads planned before it and not yet started are not started. */
  #cancelled = 0;

  constructor(host: ServiceHost, options: TranscriptionUploadsOptions = {}) {
    this.#host = host;
    this.#batchRetryMs = options.batchRetryMs ?? 3000;
    this.#unsent = options.unsent;
    this.#retries = options.retries;
  }

  /**
   * Adds the files as rows and starts sending them with `modelId`; returns the new rows. A file that is empty or
   * larger than `maxFileBytes` (the model's limit, when it has one) fails at once, alone.
   */
  add(files: readonly File[], modelId: string, maxFileBytes: number | null = null, params: Record<string, unknown> = {}): UploadItem[] {
    const added: UploadItem[] = files.map((file) => ({ key: ++this.#seq, file, phase: 'waiting', jobId: null, batchId: null, batchIndex: null, sentAt: 0, error: null, unsentId: null, params }));
    this.items = [...this.items, ...added];
    const rows = this.items.slice(-added.length);
    for (const it of rows) {
      const code = it.file.size === 0 ? 'empty_file' : maxFileBytes !== null && it.file.size > maxFileBytes ? 'file_too_large' : null;
      if (code) this.#reject(it, modelId, { code, message: null });
    }
    void this.#send(rows.filter((it) => it.phase === 'waiting').map((it) => it.key), modelId);
    return rows;
  }

  /** The row failed without becoming a job: it says why, and Jobs → Problems keeps it. */
  #reject(it: UploadItem, modelId: string, error: { code: string; message: string | null }): void {
    it.phase = 'rejected';
    it.error = error;
    if (error.code !== 'cancelled' && this.#unsent && !it.unsentId) it.unsentId = this.#unsent.add(it.file, modelId, error);
  }

  /** A row that was refused has now become a job: its record in Problems goes. */
  #sentAfterAll(it: UploadItem): void {
    if (it.unsentId) this.#unsent?.dismiss(it.unsentId);
    it.unsentId = null;
  }

  item(key: number | null | undefined): UploadItem | undefined {
    return key === null || key === undefined ? undefined : this.items.find((i) => i.key === key);
  }

  jobOf(item: UploadItem): Job | undefined {
    return this.#host.jobById(item.jobId);
  }

  /** A batch item's row in the polled batch (the job list holds the newest 100 jobs only). */
  batchFileOf(item: UploadItem): BatchFile | undefined {
    if (!item.batchId || item.batchIndex === null) return undefined;
    return this.#host.batchById(item.batchId)?.files[item.batchIndex];
  }

  /** The status a row shows: the job's, else its batch item's, else the local phase. */
  statusOf(item: UploadItem): string {
    const job = this.jobOf(item);
    if (job) return job.status;
    const file = this.batchFileOf(item);
    if (file) return file.status;
    if (item.phase === 'rejected') return 'failed';
    if (item.phase === 'waiting') return 'pending';
    return 'uploading';
  }

  /**
   * Gives batch rows their job ids as the polled batches learn them (a pending item has none yet); a single upload
   * has its id from the POST's answer. The tab calls it from an effect on the polled lists.
   */
  resolveJobIds(): void {
    for (const item of this.items) {
      if (item.jobId || !item.batchId) continue;
      const id = this.batchFileOf(item)?.job_id;
      if (id) item.jobId = id;
    }
  }

  /** Cancels the row's job on the service if it is still queued or running. */
  async cancel(item: UploadItem): Promise<void> {
    const job = this.jobOf(item);
    if (!job || (job.status !== 'queued' && job.status !== 'running')) return;
    try {
      this.#host.upsertJob(await this.#host.api.cancelJob('speech-to-text', job.id));
    } catch (err) {
      this.#host.toast(errorText(err), 'error');
    }
  }

  /** Pauses the row's transcription after its current segment, or puts a paused one back in line. */
  async pauseOrResume(item: UploadItem, action: 'pause' | 'resume'): Promise<void> {
    const job = this.jobOf(item);
    if (job) await pauseOrResume(this.#host, job, action);
  }

  /** Job ids of this session's rows (the tab lists other running transcriptions apart). */
  get jobIds(): Set<string> {
    // A scratch set, never rendered.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    return new Set(this.items.map((i) => i.jobId).filter((id): id is string => !!id));
  }

  /** Aborts the uploads in flight and those not started yet, and cancels every unfinished job of the session. */
  cancelAll(): void {
    this.#cancelled++;
    for (const controller of this.#controllers) controller.abort();
    for (const item of this.items) void this.cancel(item);
  }

  /** A job that ran is retried on the service; a file that never got a job is sent again with `modelId`. */
  async retry(item: UploadItem, modelId: string | undefined): Promise<void> {
    if (item.jobId) {
      try {
        const job = await this.#host.api.retryJob('speech-to-text', item.jobId);
        this.#retries?.note(item.jobId, job.id);
        item.jobId = job.id;
        this.#host.upsertJob(job);
        this.#host.refreshSoon();
      } catch (err) {
        this.#host.toast(errorText(err), 'error');
      }
    } else if (modelId) {
      item.error = null;
      item.phase = 'waiting';
      await this.#send([item.key], modelId);
    }
  }

  /** Drops the rows whose job has finished, whatever the outcome. */
  clearFinished(): void {
    this.items = this.items.filter((i) => !FINISHED.has(this.statusOf(i)));
  }

  async #send(keys: number[], modelId: string): Promise<void> {
    const generation = this.#cancelled;
    // Let the drop's own task (the first rows) finish before the uploads start.
    await yieldToMain();
    for (const plan of planUploads(keys)) {
      if (this.#cancelled !== generation) {
        for (const it of plan.items.map((k) => this.item(k))) {
          if (!it || it.jobId) continue;
          this.#reject(it, modelId, { code: 'cancelled', message: null });
        }
        continue;
      }
      const controller = new AbortController();
      this.#controllers.add(controller);
      const group = plan.items.map((k) => this.item(k)).filter((i): i is UploadItem => !!i);
      for (const it of group) {
        it.phase = 'uploading';
        it.sentAt ||= Date.now();
      }
      this.#host.refreshSoon();
      try {
        if (plan.kind === 'single') {
          const it = group[0]!;
          const job = await this.#host.api.transcribe({ file: it.file, filename: it.file.name }, { model: modelId, name: it.file.name, params: it.params }, { signal: controller.signal, wait: false });
          it.jobId = job.id;
          it.phase = 'sent';
          this.#sentAfterAll(it);
          this.#host.upsertJob(job);
        } else {
          const batch = await this.#sendBatch(group, modelId, controller.signal);
          group.forEach((it, i) => {
            it.batchId = batch.id;
            it.batchIndex = i;
            it.jobId = batch.files[i]?.job_id ?? null;
            it.phase = 'sent';
            this.#sentAfterAll(it);
          });
          this.#host.upsertBatch(batch);
        }
      } catch (err) {
        const e = err as { name?: string; code?: string; message?: string };
        for (const it of group) {
          if (it.jobId) continue;
          this.#reject(it, modelId, e.name === 'AbortError' ? { code: 'cancelled', message: null } : { code: e.code ?? 'internal_error', message: e.message ?? String(err) });
        }
      } finally {
        this.#controllers.delete(controller);
        this.#host.refreshSoon();
      }
    }
  }

  /** Two open batches per account: wait for one to finish instead of failing the drop. */
  async #sendBatch(group: UploadItem[], modelId: string, signal: AbortSignal): Promise<Batch> {
    for (;;) {
      try {
        // Same parts as ApiClient.transcribeBatch, but prebuilt in slices: fetch() of a 50-file FormData is one long task.
        const body = await multipartBody([['model', modelId], ['params', JSON.stringify(group[0]?.params ?? {})]], group.map((it) => ['file', { file: it.file, filename: it.file.name }] as const));
        return await this.#host.api.request<Batch>('POST', '/v1/speech-to-text/batch', body, { signal });
      } catch (err) {
        if ((err as { code?: string }).code !== 'too_many_open_batches') throw err;
        for (const it of group) it.phase = 'waiting';
        await new Promise((ok) => setTimeout(ok, this.#batchRetryMs));
        // Cancelled while waiting: the rows say "Cancelled", not that two batches were open.
        if (signal.aborted) throw new DOMException('Cancelled while waiting for a batch to finish', 'AbortError');
        for (const it of group) it.phase = 'uploading';
      }
    }
  }
}
