/**
 * The Jobs tab's work, apart from its view: the polled newest jobs plus older pages fetched on demand (they rarely
 * change, so they are not polled), the filters, and the actions on a job (cancel, retry, pause, resume, open with its
 * full result; a transcription still running opens on its transcript so far). A retry made here is remembered
 * (retry-links.svelte.ts), so a problem whose retry succeeded leaves Problems.
 */
import type { Batch, Job } from '$common/api-types.js';
import type { TranscriptFocus } from '../shared/navigation.svelte.js';
import { errorText } from '../shared/error-messages.js';
import { t } from '../shared/i18n/i18n.svelte.js';
import type { ServiceHost } from '../shared/service/service-host.js';
import { pauseOrResume } from './job-actions.js';
import type { RetryLinks } from './retry-links.svelte.js';

export type JobFilter = 'all' | 'active' | 'succeeded' | 'failed';

/** `solved`: whether a failed job's problem is solved (a retry of it succeeded); such a job is not a problem. */
export function matchesFilter(job: Job, filter: JobFilter, solved: (job: Job) => boolean = () => false): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'active':
      return job.status === 'queued' || job.status === 'running';
    case 'succeeded':
      return job.status === 'succeeded';
    case 'failed':
      return (job.status === 'failed' || job.status === 'cancelled' || job.status === 'expired') && !solved(job);
  }
}

/** Jobs per older page. Default 100, the size of the polled first page. */
const PAGE = 100;

export class JobHistory {
  /** Pages older than the polled first page, in order. */
  older = $state.raw<Job[]>([]);
  loadingOlder = $state(false);
  /** The job shown with its full result, or null. */
  opened = $state<Job | null>(null);
  /** Where the opened transcript was asked to open (a library search result), or null. */
  focus = $state.raw<TranscriptFocus | null>(null);
  /** undefined until an older page was fetched: then the cursor after it (null at the end). */
  #olderCursor = $state<string | null | undefined>(undefined);

  constructor(
    private readonly host: ServiceHost,
    private readonly retries: RetryLinks | null = null,
  ) {}

  /** A failed, cancelled or expired job that a retry made here has since done. */
  solved(job: Job): boolean {
    return !!this.retries?.succeededRetryOf(job, (id) => this.host.jobById(id) ?? this.older.find((o) => o.id === id));
  }

  /** Where the next older page starts; null when there is none. */
  get nextCursor(): string | null {
    return this.#olderCursor === undefined ? this.host.jobsCursor : this.#olderCursor;
  }

  /** The polled jobs, then the older pages (without the ones that moved into the polled page meanwhile). */
  get all(): Job[] {
    // Scratch sets here and below, never rendered.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const polled = new Set(this.host.jobs.map((j) => j.id));
    return [...this.host.jobs, ...this.older.filter((o) => !polled.has(o.id))];
  }

  async loadOlder(): Promise<void> {
    const cursor = this.nextCursor;
    if (!cursor || this.loadingOlder) return;
    this.loadingOlder = true;
    try {
      const page = await this.host.api.listJobs({ limit: PAGE, cursor });
      // eslint-disable-next-line svelte/prefer-svelte-reactivity
      const known = new Set([...this.host.jobs, ...this.older].map((j) => j.id));
      this.older = [...this.older, ...page.data.filter((j) => !known.has(j.id))];
      this.#olderCursor = page.next_cursor;
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    } finally {
      this.loadingOlder = false;
    }
  }

  async act(kind: 'cancel' | 'retry' | 'pause' | 'resume', job: Job): Promise<void> {
    if (kind === 'pause' || kind === 'resume') return pauseOrResume(this.host, job, kind);
    try {
      const next = kind === 'cancel' ? await this.host.api.cancelJob(job.product, job.id) : await this.host.api.retryJob(job.product, job.id);
      if (kind === 'retry') this.retries?.note(job.id, next.id);
      this.host.upsertJob(next);
      this.host.refreshSoon();
      if (kind === 'retry') this.host.toast(t('jobs.queuedAgain'));
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    }
  }

  /** Opens a transcription by id at a moment (a library search result): its transcript, seeked there. */
  async openAt(focus: TranscriptFocus): Promise<void> {
    try {
      const job = await this.host.api.getJob('speech-to-text', focus.jobId);
      this.opened = job;
      this.focus = focus;
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    }
  }

  async open(job: Job): Promise<void> {
    this.focus = null;
    if (job.status === 'queued' || job.status === 'running') {
      this.opened = job; // the view follows the polled job and its segments
      return;
    }
    try {
      this.opened = await this.host.api.getJob(job.product, job.id);
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    }
  }

  close(): void {
    this.opened = null;
    this.focus = null;
  }

  async cancelBatch(batch: { product: Batch['product']; id: string }): Promise<void> {
    try {
      this.host.upsertBatch(await this.host.api.cancelBatch(batch.product, batch.id));
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    }
  }
}
