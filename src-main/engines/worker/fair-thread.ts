/**
 * One worker thread for one kind of CPU-heavy request work, shared fairly between accounts (trust review 2's rule:
 * CPU-heavy work per request is bounded or off the event loop). Requests run one at a time, taking turns between
 * accounts (common/fair-queue.ts), so one account asking for many does not hold up another's; the thread starts on
 * first use and stops after `idleMs` without work (an idle desktop app keeps no thread for it). A thread that dies
 * fails the request it was doing (500 internal_error) and the next request starts a new thread.
 *
 * The thread's side is `serveThreadRequests(handler)`: an ApiError the handler throws comes back as that error (a
 * 400 stays a 400); anything else as internal_error naming what could not be done.
 */
import { parentPort, type Transferable, type Worker } from 'node:worker_threads';
import { ApiError, type RequestErrorCode } from '../../common/errors.js';
import { FairQueue } from '../../common/fair-queue.js';
import { lowerThisThread } from '../../platform/background-priority.js';
import { startThread, type ScriptEntry } from '../../platform/script-entry.js';
import { SHUTTING_DOWN } from '../../common/error-messages.js';

type Envelope<Request> = { id: number; request: Request };
type Reply<Answer> = { id: number; answer: Answer } | { id: number; error: { code: RequestErrorCode; message: string } };

interface Pending<Request, Answer> {
  envelope: Envelope<Request>;
  transfer: Transferable[];
  resolve(answer: Answer): void;
  reject(error: Error): void;
}

export interface FairThreadOptions {
  /** The thread's script (engines/script-entry.ts). */
  entry: ScriptEntry;
  /** What the thread does, for error messages: "the export could not be made". */
  failure: string;
  /** The thread stops after this long without work. */
  idleMs: number;
}

export class FairThread<Request, Answer> {
  private readonly queue = new FairQueue<Pending<Request, Answer>>();
  private thread: Worker | null = null;
  private current: Pending<Request, Answer> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: FairThreadOptions) {}

  /** Runs `request` on the thread in the account's turn; `transfer` moves buffers rather than copying them. */
  run(accountId: string, request: Request, transfer: Transferable[] = []): Promise<Answer> {
    if (this.closed) return Promise.reject(shuttingDown());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.queue.push(accountId, id, { envelope: { id, request }, transfer, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (let next = this.queue.shift(); next; next = this.queue.shift()) next.item.reject(shuttingDown());
    this.current?.reject(shuttingDown());
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
    this.ensureThread().postMessage(next.item.envelope, next.item.transfer);
  }

  private ensureThread(): Worker {
    if (this.thread) return this.thread;
    const thread = startThread(this.options.entry, {});
    thread.on('message', (reply: Reply<Answer>) => {
      const pending = this.current;
      if (!pending || pending.envelope.id !== reply.id) return;
      this.current = null;
      if ('error' in reply) pending.reject(new ApiError(reply.error.code, reply.error.message));
      else pending.resolve(reply.answer);
      this.next();
    });
    const gone = (why: string): void => {
      if (this.thread !== thread) return;
      this.thread = null;
      const pending = this.current;
      this.current = null;
      pending?.reject(new ApiError('internal_error', `${this.options.failure}: its thread ${why}`));
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
    }, this.options.idleMs);
    this.idleTimer.unref();
  }
}

function shuttingDown(): ApiError {
  return new ApiError('internal_error', SHUTTING_DOWN);
}

/**
 * The thread's side: answers each request with `handler`'s answer (its transfer list moves buffers back). `failure`
 * prefixes the message of an unexpected error ("the export could not be made").
 */
export function serveThreadRequests<Request, Answer>(
  failure: string,
  handler: (request: Request) => Promise<{ answer: Answer; transfer?: Transferable[] }> | { answer: Answer; transfer?: Transferable[] },
): void {
  const port = parentPort!;
  // The work is a request's heavy part, done apart so that the service thread stays free: it runs behind it.
  lowerThisThread();
  port.on('message', (envelope: Envelope<Request>) => {
    void (async (): Promise<void> => {
      try {
        const { answer, transfer = [] } = await handler(envelope.request);
        port.postMessage({ id: envelope.id, answer } satisfies Reply<Answer>, transfer);
      } catch (error) {
        const reply: Reply<Answer> =
          error instanceof ApiError
            ? { id: envelope.id, error: { code: error.code, message: error.message } }
            : { id: envelope.id, error: { code: 'internal_error', message: `${failure}: ${error instanceof Error ? error.message : String(error)}` } };
        port.postMessage(reply);
      }
    })();
  });
}
