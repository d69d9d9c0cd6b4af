/**
 * Transcript exports off the service's thread (trust review 2's rule: CPU-heavy work per request is bounded or off
 * the event loop): a ten-hour transcript takes about a second to lay out as SRT or VTT and two and a half as DOCX,
 * and every other request of every account would wait that long. Exports run one at a time on one thread, started
 * on first use and stopped after a minute without work (an idle desktop app keeps no thread for them), taking turns
 * between accounts (common/fair-queue.ts) so one account asking for many exports does not hold up another's.
 * A thread that dies fails the export it was doing (500) and the next one starts a new thread.
 */
import type { Worker } from 'node:worker_threads';
import { ApiError } from '../../common/errors.js';
import { FairQueue } from '../../common/fair-queue.js';
import type { RenderedTranscript } from '../../common/transcript-export.js';
import type { CueOptions, TranscriptFormat } from '../../common/transcript-formats.js';
import { scriptEntry, startThread } from '../../engines/script-entry.js';
import type { ExportParts } from '../../jobs/transcripts/transcript-export-parts.js';
import type { ExportReply, ExportRequest } from './export-protocol.js';

/** The export thread stops after this long without work. Default 60 s. */
export const EXPORT_THREAD_IDLE_MS = 60_000;

export interface ExportOrder {
  parts: ExportParts;
  format: TranscriptFormat;
  title: string;
  cues?: CueOptions;
}

interface Pending {
  request: ExportRequest;
  resolve(file: RenderedTranscript): void;
  reject(error: Error): void;
}

export class ExportRenderer {
  private readonly queue = new FairQueue<Pending>();
  private thread: Worker | null = null;
  private current: Pending | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly idleMs = EXPORT_THREAD_IDLE_MS) {}

  render(accountId: string, order: ExportOrder): Promise<RenderedTranscript> {
    if (this.closed) return Promise.reject(new ApiError('internal_error', 'the service is shutting down'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const request: ExportRequest = { id, parts: order.parts, format: order.format, title: order.title, cues: order.cues ?? {} };
      this.queue.push(accountId, id, { request, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (let next = this.queue.shift(); next; next = this.queue.shift()) next.item.reject(new ApiError('internal_error', 'the service is shutting down'));
    this.current?.reject(new ApiError('internal_error', 'the service is shutting down'));
    this.current = null;
    await this.thread?.terminate();
    this.thread = null;
  }

  private next(): void {
    if (this.current || this.closed) return;
    const next = this.queue.shift();
    if (!next) {
      this.idleSoon();
      return;
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.current = next.item;
    this.ensureThread().postMessage(next.item.request);
  }

  private ensureThread(): Worker {
    if (this.thread) return this.thread;
    const thread = startThread(scriptEntry('export-thread', import.meta.url), {});
    thread.on('message', (reply: ExportReply) => {
      const pending = this.current;
      if (!pending || pending.request.id !== reply.id) return;
      this.current = null;
      if ('error' in reply) pending.reject(new ApiError('internal_error', `the export could not be made: ${reply.error}`));
      else pending.resolve({ bytes: reply.bytes, contentType: reply.contentType });
      this.next();
    });
    const gone = (why: string): void => {
      if (this.thread !== thread) return;
      this.thread = null;
      const pending = this.current;
      this.current = null;
      pending?.reject(new ApiError('internal_error', `the export could not be made: the export thread ${why}`));
      this.next();
    };
    thread.on('error', (error) => gone(`failed (${error.message})`));
    thread.on('exit', (code) => gone(`stopped (exit code ${code})`));
    thread.unref();
    this.thread = thread;
    return thread;
  }

  private idleSoon(): void {
    if (this.idleTimer || !this.thread) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.current || this.queue.size > 0 || !this.thread) return;
      const thread = this.thread;
      this.thread = null;
      void thread.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}
