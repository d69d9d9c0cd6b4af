/**
 * Shared page state (Svelte 5 runes): the connection, the catalogue, and the job/batch lists kept fresh by one
 * poller with backoff (Backoff defaults: 500 ms while things change, up to 8 s while idle; any user action calls
 * `refreshSoon()` to poll at once). Jobs, batches and the queue are raw (not deeply reactive) and replaced, never
 * mutated: each poll is merged with structural sharing, so only the objects that really changed get a new identity
 * and only their rows redraw.
 */
import type { ApiClient, QueueSummary } from '$common/api-client.js';
import type { Batch, CatalogueRecord, Job } from '$common/api-types.js';
import type { DesktopBridge } from '$common/desktop-bridge.js';
import { Backoff, fingerprint } from './backoff.js';
import { SpendingBudget } from '../money/spending-budget.svelte.js';
import { share, shareById } from './structural-share.js';
import { TranscriptPreviews } from '../../transcripts/transcript-previews.svelte.js';
import type { TabId } from '../shortcuts.js';

/**
 * Where to open a transcript: a job, a moment in it and the segment there (null: no segment, e.g. a search hit on
 * the job's name); `seq` tells repeated requests apart.
 */
export interface TranscriptFocus {
  jobId: string;
  time: number;
  segmentIndex: number | null;
  seq: number;
}

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
  tab = $state<TabId>('transcribe');
  /** The Live tab's mode: speak text as it is typed, or dictate into the microphone. */
  liveMode = $state<'speak' | 'dictate'>('speak');
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
  toasts = $state<Toast[]>([]);
  /** A transcript to open at a moment (a library search result); the Jobs tab opens it, seeked there. */
  openRequest = $state.raw<TranscriptFocus | null>(null);
  /** How each finished transcript starts now (its latest revision, not the engine's `result.text`): the Jobs list. */
  readonly previews = new TranscriptPreviews(() => this.api);
  /** Bumped by "Raise the cap": the Usage page then shows and focuses the monthly cap. */
  budgetFocus = $state(0);

  private focusSeq = 0;
  private backoff = new Backoff();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastPrint = '';
  private polling = false;
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

  startPolling(): void {
    this.polling = true;
    void this.poll();
  }

  /** Stops the poller (tests; the page polls for as long as it is open). */
  stopPolling(): void {
    this.polling = false;
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
      this.pollError = err instanceof Error ? err.message : String(err);
    }
    const active = this.jobs.some((j) => j.status === 'queued' || j.status === 'running');
    const delay = this.backoff.next(changed || active);
    if (!this.timer && this.polling) this.timer = setTimeout(() => void this.poll(), delay);
  }

  /** Opens the monthly cap for hosted work (the Usage page) with its field focused. */
  openBudget(): void {
    this.tab = 'usage';
    this.budgetFocus++;
  }

  /** Opens a job's transcript on the Jobs tab at `time` (seconds), with `segmentIndex` (when given) in view. */
  openTranscriptAt(jobId: string, time: number, segmentIndex: number | null): void {
    this.openRequest = { jobId, time, segmentIndex, seq: ++this.focusSeq };
    this.tab = 'jobs';
  }

  toast(text: string, kind: Toast['kind'] = 'info'): void {
    const id = ++this.toastSeq;
    this.toasts = [...this.toasts, { id, kind, text }];
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== id)), kind === 'error' ? 8000 : 4000);
  }
}

export const app = new AppState();

/** The monthly cap on hosted spending, shared by every tab that starts hosted work and the Usage page. */
export const budget = new SpendingBudget(app);

/** Per-tab hooks for the global shortcuts (Ctrl+Enter submit, Esc cancel). */
export const tabActions: Partial<Record<TabId, { submit?: () => void; cancel?: () => void }>> = {};

/**
 * The dictation hotkey (Ctrl/Cmd+Shift+Space) from any tab: the Dictate panel registers `toggle` while it is shown;
 * otherwise the hotkey opens it with `startPending` set, and the panel starts dictating as soon as it is mounted.
 */
export const dictateHotkey: { toggle: (() => void) | null; startPending: boolean } = { toggle: null, startPending: false };
