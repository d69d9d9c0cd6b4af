/**
 * Which job a retry made of which: POST …/retry answers with a new job and the service keeps no link back, so the page
 * remembers the retries it made (in this browser's localStorage, bounded). Jobs → Problems then leaves out a failed
 * or cancelled job once a retry of it (or of that retry) has succeeded: the problem is solved.
 */
import type { Job } from '$common/api-types.js';
import { contextKey } from '../shared/context.js';

const KEY = 'voxdesk.retries';
/** Links kept, newest last. Default 500. */
const MAX_KEPT = 500;
/** Retries of retries followed at most. */
const MAX_CHAIN = 20;

function load(): Record<string, string> {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}');
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export class RetryLinks {
  #links = $state.raw<Record<string, string>>(load());

  /** `from` was retried as `to`. */
  note(from: string, to: string): void {
    const entries = [...Object.entries(this.#links).filter(([k]) => k !== from), [from, to] as [string, string]].slice(-MAX_KEPT);
    this.#links = Object.fromEntries(entries);
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(this.#links));
    } catch {
      // Storage full or blocked: the links still hold for this page.
    }
  }

  /** The job that finally succeeded for `job` through this page's retries, if one did (looked up in `jobById`). */
  succeededRetryOf(job: Job, jobById: (id: string) => Job | undefined): Job | undefined {
    let id = this.#links[job.id];
    for (let i = 0; id && i < MAX_CHAIN; i++) {
      const retry = jobById(id);
      if (retry?.status === 'succeeded') return retry;
      id = this.#links[id];
    }
    return undefined;
  }
}

export const RETRY_LINKS = contextKey<RetryLinks>('retries made here');
