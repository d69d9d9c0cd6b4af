/**
 * Shared page state (Svelte 5 runes): the connection, the catalogue, and the job/batch lists kept fresh by one
 * poller with backoff (Backoff defaults: 500 ms while things change, up to 8 s while idle; any user action calls
 * `refreshSoon()` to poll at once). Jobs, batches and the queue are raw (not deeply reactive) and replaced, never
 * mutated: each poll is merged with structural sharing, so only the objects that really changed get a new identity
 * and only their rows redraw.
 */
import { ApiClientError, type ApiClient } from '$common/api-client.js';
import type { Batch, CatalogueRecord, Job, QueueSummary } from '$common/api-types.js';
import type { DesktopBridge } from '$common/desktop-bridge.js';
import { Backoff, fingerprint } from './backoff.js';
import { share, shareById } from './structural-share.js';
import { contextKey } from '../context.js';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

export class AppState {
  client = $state<ApiClient | null>(null);
  bridge = $state<DesktopBridge | null>(null);
  dataDir = $state<string | null>(null);
  connectError = $state<string | null>(null);
  models = $state<CatalogueRecord[]>([]);
  modelsLoaded = $state(false);
  jobs = $state.raw<Job[]>([]);
  /** Cursor after the polled first page (newest 100 jobs); the Jobs tab pages further with it. */
  jobsCursor = $state<string | null>(null);
  batches = $state.raw<Batch[]>([]);
  queue = $state.raw<QueueSummary | null>(null);
  /** O(1) lookups for the per-row reads of the Transcribe and Speak tabs (rebuilt with the lists, never mutated). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private jobIndex = $derived(new Map(this.jobs.map((j) => [j.id, j])));
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private batchIndex = $derived(new Map(this.batches.map((b) => [b.id, b])));
  jobsLoaded = $state(false);
  pollError = $state<string | null>(null);
  /**
   * The service no longer accepts this page's key (browser mode: it restarted, and its sessions ended with it). The
   * poller stops at once rather than keep knocking with a dead key until the failed-key limiter locks this browser
   * out; the page waits for the printed address to log in again.
   */
  sessionEnded = $state(false);
  toasts = $state<Toast[]>([]);
  private backoff = new Backoff();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastPrint = '';
  private polling = false;
  /** Bumped by stopPolling: a poll still in flight from before does not schedule the next one. */
  private pollGeneration = 0;
  private toastSeq = 0;

  /** The connected client, for code that runs once the page is connected (every tab: App.svelte mounts them then). */
  get api(): ApiClient {
    if (!this.client) throw new Error('not connected');
    return this.client;
  }

  async loadModels(): Promise<void> {
    try {
      this.models = await this.api.listModels({ include_unavailable: true });
    } finally {
      this.modelsLoaded = true;
    }
  }

  available(capability: string): CatalogueRecord[] {
    return this.models.filter((m) => m.capability === capability && m.status === 'available');
  }

  jobById(id: string | null | undefined): Job | undefined {
    return id ? this.jobIndex.get(id) : undefined;
  }

  batchById(id: string | null | undefined): Batch | undefined {
    return id ? this.batchIndex.get(id) : undefined;
  }

  /** Merge a job we got from a POST or GET so the lists show it before the next poll. */
  upsertJob(job: Job): void {
    const i = this.jobs.findIndex((j) => j.id === job.id);
    if (i >= 0) this.jobs = this.jobs.with(i, share(this.jobs[i], job));
    else this.jobs = [job, ...this.jobs];
  }

  upsertBatch(batch: Batch): void {
    const i = this.batches.findIndex((b) => b.id === batch.id);
    if (i >= 0) this.batches = this.batches.with(i, share(this.batches[i], batch));
    else this.batches = [batch, ...this.batches];
  }

  /** A (new) connection: its client, the desktop bridge, the data dir; starts polling. */
  connected(client: ApiClient, bridge: DesktopBridge | null, dataDir: string | null): void {
    this.client = client;
    this.bridge = bridge;
    this.dataDir = dataDir;
    this.connectError = null;
    this.sessionEnded = false;
    this.pollError = null;
    this.lastPrint = '';
    this.stopPolling();
    this.startPolling();
  }

  startPolling(): void {
    this.polling = true;
    void this.poll();
  }

  /** Stops the poller (tests; the page polls for as long as it is open). */
  stopPolling(): void {
    this.polling = false;
    this.pollGeneration++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  refreshSoon(): void {
    if (!this.polling) return;
    this.backoff.reset();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), 50);
  }

  private async poll(): Promise<void> {
    this.timer = null;
    const generation = this.pollGeneration;
    let changed = false;
    try {
      const [jobs, batches] = await Promise.all([
        this.api.listJobs({ limit: 100 }),
        this.api.listBatches({ limit: 50 }),
      ]);
      const print = fingerprint(jobs.data) + '#' + fingerprint(batches.data.map((b) => ({ ...b, progress: b.remaining })));
      changed = print !== this.lastPrint;
      this.lastPrint = print;
      this.jobsCursor = jobs.next_cursor;
      // Merging is cheap and keeps unchanged objects, so it also picks up changes the fingerprint does not see.
      this.jobs = shareById(this.jobs, jobs.data);
      this.batches = shareById(this.batches, batches.data);
      this.jobsLoaded = true;
      this.pollError = null;
      this.queue = share(this.queue, await this.api.queue().catch(() => this.queue));
    } catch (err) {
      if (generation !== this.pollGeneration) return;
      if (err instanceof ApiClientError && err.status === 401) {
        this.sessionEnded = true;
        this.stopPolling();
        return;
      }
      this.pollError = err instanceof Error ? err.message : String(err);
    }
    if (generation !== this.pollGeneration) return;
    const active = this.jobs.some((j) => j.status === 'queued' || j.status === 'running');
    const delay = this.backoff.next(changed || active);
    if (!this.timer && this.polling) this.timer = setTimeout(() => void this.poll(), delay);
  }

  toast(text: string, kind: Toast['kind'] = 'info'): void {
    const id = ++this.toastSeq;
    this.toasts = [...this.toasts, { id, kind, text }];
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== id)), kind === 'error' ? 8000 : 4000);
  }
}

/** The page's one connection to its service, provided through context by App.svelte. */
export const APP = contextKey<AppState>('service connection');
