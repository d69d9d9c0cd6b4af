/**
 * What the desktop shows of the work in progress outside the window (issue 35.6), pure so it is unit-tested without
 * Electron: the tray's label (tray-status.ts), the count on the dock or launcher badge, the taskbar progress of the
 * running jobs, and which finished work deserves a system notification — a job that ran long or a batch, named as
 * the person named it (or after its file or text: jobs/job-name.ts), when the window is not in front of them.
 */
import type { Batch, Job } from '../common/api-types.js';
import { isTerminal } from '../common/job-states.js';
import type { JobProduct } from '../common/products.js';
import { BatchWatcher, type BatchNotice } from './batch-watcher.js';
import { trayLabel, type QueueCounts } from './tray-status.js';

/** A job outside a batch is announced when it took at least this long from its creation to its end. Default 30 s. */
export const LONG_JOB_SECONDS = 30;

export interface WorkNotice {
  title: string;
  body: string;
  /** What a click opens (the page is told through the bridge). */
  jobId: string | null;
  batchId: string | null;
}

export interface WorkView {
  label: string;
  /** Jobs running, queued or pending: the badge's number (0 removes it). */
  badge: number;
  /** Mean progress of the running jobs that report one, 0..1; -1 when none runs (the bar is removed). */
  progress: number;
}

const WHAT: Partial<Record<JobProduct, string>> = { 'speech-to-text': 'Transcription', 'text-to-speech': 'Speech', 'transcript-ai': 'AI action' };

export class WorkStatus {
  private readonly running = new Map<string, number | null>();
  private readonly batches: BatchWatcher;

  /** @param sinceMs work created before this time is history (not announced). Default: now. */
  constructor(private readonly sinceMs: number = Date.now()) {
    this.batches = new BatchWatcher(sinceMs);
  }

  /** Feed every job change; returns the notice to show when this change ended a long job. */
  job(job: Job): WorkNotice | null {
    if (job.status === 'running') {
      this.running.set(job.id, job.progress);
      return null;
    }
    this.running.delete(job.id);
    if (!isTerminal(job.status) || job.batch_id || job.status === 'cancelled' || !job.finished_at) return null;
    const created = Date.parse(job.created_at);
    if (created < this.sinceMs || (Date.parse(job.finished_at) - created) / 1000 < LONG_JOB_SECONDS) return null;
    const what = WHAT[job.product] ?? 'Job';
    const name = job.name ?? job.id;
    if (job.status === 'succeeded') return { title: `${what} finished`, body: name, jobId: job.id, batchId: null };
    return { title: `${what} failed`, body: `${name}: ${job.error_message ?? job.error_code ?? job.status}`, jobId: job.id, batchId: null };
  }

  /** Feed every batch change; returns the notice when this change completed a batch. */
  batch(batch: Batch): WorkNotice | null {
    const [notice] = this.batches.update([batch]);
    return notice ? batchNotice(notice) : null;
  }

  /** The tray label, badge and progress for the queue as it stands. */
  view(queue: QueueCounts | null): WorkView {
    const known = [...this.running.values()].filter((p): p is number => p !== null);
    return {
      label: trayLabel(queue),
      badge: queue ? queue.running + queue.queued + (queue.pending ?? 0) : 0,
      progress: this.running.size === 0 ? -1 : known.length ? known.reduce((a, b) => a + b, 0) / known.length : 0,
    };
  }
}

function batchNotice(notice: BatchNotice): WorkNotice {
  return { title: notice.title, body: notice.body, jobId: null, batchId: notice.batchId };
}

/** Whether finished work is announced by the OS: when the window is hidden, minimised or not the one in front. */
export function wantsSystemNotice(window: { isVisible(): boolean; isMinimized(): boolean; isFocused(): boolean } | null): boolean {
  return !window || !window.isVisible() || window.isMinimized() || !window.isFocused();
}
