/**
 * A system notification when long work finishes while the person is elsewhere (issue 35.6): a job that ran for a
 * while, or a whole batch, ends while Voxdesk's tab is hidden. In a browser it is the Notification API, whose
 * permission is asked on a click (Settings → Notifications). In the desktop app the shell announces long work itself
 * (its main process knows when the window is behind others, and a click reaches the page through the bridge's
 * onOpenWork): the page then says nothing, so nothing is announced twice. Only changes seen between two polls count:
 * nothing is announced for work that had already finished when the page opened.
 */
import type { Batch, Job } from '$common/api-types.js';
import { contextKey } from '../shared/context.js';
import { describeError } from '../shared/error-messages.js';
import { t } from '../shared/i18n/i18n.svelte.js';

/** A job is "long" once it ran this long: shorter ones finish while the person still looks. Default 20 s. */
export const LONG_JOB_SECONDS = 20;
const KEY = 'voxdesk.notifyWhenDone';

export interface FinishNote {
  title: string;
  body: string;
  /** Groups notes of one job or batch (a newer one replaces an older one). */
  tag: string;
  /** The transcription a click opens, if the note is about one that succeeded. */
  transcriptId: string | null;
}

export interface NotifierOptions {
  /** Whether the person is looking at the page. Default: the document is visible and focused. */
  visible?: () => boolean;
  /** Shows a note; default: the Notification API. */
  show?: (note: FinishNote) => void;
  /** Opens what a clicked note is about (a transcription's id, or null for the Jobs list). */
  onOpen?: (transcriptId: string | null) => void;
}

type PermissionState = NotificationPermission | 'unsupported';

function notificationApi(): typeof Notification | null {
  return typeof globalThis.Notification === 'function' ? globalThis.Notification : null;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'expired']);

export class FinishNotifier {
  /** The person wants these notes (kept in this browser; default on, still subject to the browser's permission). */
  enabled = $state(globalThis.localStorage?.getItem(KEY) !== 'off');
  permission = $state<PermissionState>(notificationApi()?.permission ?? 'unsupported');
  /** The statuses seen at the last poll (bookkeeping, never rendered). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #jobs = new Map<string, string>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #batches = new Map<string, string>();
  #primed = false;
  readonly #visible: () => boolean;
  readonly #show: (note: FinishNote) => void;
  readonly #onOpen: (transcriptId: string | null) => void;

  constructor(
    /** Whether the page runs in the desktop app, whose shell notifies by itself. */
    private readonly inDesktopApp: () => boolean = () => false,
    options: NotifierOptions = {},
  ) {
    this.#visible = options.visible ?? (() => typeof document === 'undefined' || (document.visibilityState === 'visible' && document.hasFocus()));
    this.#onOpen = options.onOpen ?? (() => undefined);
    this.#show = options.show ?? ((note) => this.#systemNote(note));
  }

  /** Whether the page shows notes now: in a browser, wanted and allowed (the desktop shell shows its own). */
  get active(): boolean {
    return !this.inDesktopApp() && this.enabled && this.permission === 'granted';
  }

  /** Turns the notes on or off; turning them on asks the browser's permission (call it from a click). */
  async setEnabled(on: boolean): Promise<void> {
    this.enabled = on;
    globalThis.localStorage?.setItem(KEY, on ? 'on' : 'off');
    const api = notificationApi();
    if (on && api && api.permission === 'default') this.permission = await api.requestPermission();
    else this.permission = api?.permission ?? 'unsupported';
  }

  /** Called with every poll: announces the jobs and batches that finished since the last one, when hidden. */
  observe(jobs: readonly Job[], batches: readonly Batch[]): void {
    const notes: FinishNote[] = [];
    for (const job of jobs) {
      const before = this.#jobs.get(job.id);
      this.#jobs.set(job.id, job.status);
      // Items of a batch are told with their batch.
      if (!this.#primed || !before || TERMINAL.has(before) || !TERMINAL.has(job.status) || job.batch_id || !isLong(job)) continue;
      notes.push(jobNote(job));
    }
    for (const batch of batches) {
      const before = this.#batches.get(batch.id);
      this.#batches.set(batch.id, batch.status);
      if (this.#primed && before === 'open' && batch.status !== 'open') notes.push(batchNote(batch));
    }
    this.#primed = true;
    if (!notes.length || !this.active || this.#visible()) return;
    for (const note of notes) this.#show(note);
  }

  #systemNote(note: FinishNote): void {
    const api = notificationApi();
    if (!api || api.permission !== 'granted') return;
    const shown = new api(note.title, { body: note.body, tag: note.tag });
    shown.onclick = () => {
      globalThis.focus?.();
      this.#onOpen(note.transcriptId);
      shown.close();
    };
  }
}

function isLong(job: Job): boolean {
  if (!job.started_at || !job.finished_at) return false;
  return (Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000 >= LONG_JOB_SECONDS;
}

function jobNote(job: Job): FinishNote {
  const name = job.name ?? job.id;
  const transcript = job.product === 'speech-to-text';
  if (job.status === 'succeeded') {
    return { title: t(transcript ? 'notify.transcribed' : 'notify.done'), body: t('notify.doneBody', { name }), tag: job.id, transcriptId: transcript ? job.id : null };
  }
  return { title: t('notify.failed'), body: t('notify.failedBody', { name, reason: describeError(job.error_code, job.error_message) }), tag: job.id, transcriptId: null };
}

function batchNote(batch: Batch): FinishNote {
  const body = t('notify.batchBody', { count: batch.file_count, done: batch.succeeded, failed: batch.failed });
  return { title: t(batch.failed ? 'notify.batchProblems' : 'notify.batchDone'), body, tag: batch.id, transcriptId: null };
}

export const FINISH_NOTIFIER = contextKey<FinishNotifier>('notifications of finished work');
