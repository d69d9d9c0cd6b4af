/**
 * "Has another connection committed since?" (`PRAGMA data_version`), read once per request instead of once per cache.
 *
 * `PRAGMA data_version` moves whenever another connection commits (a worker process, `voxdesk keys revoke`, a second
 * instance on the same file); the key cache (accounts-repo.ts) and the job view cache (change-stamp.ts) each read it
 * to know their rows are still the database's. The read looks at the WAL's shared index: 3–6 µs on the development
 * machine, and a poll of a job read it twice (issue 14, goal 1, bench/api-overhead.ts).
 *
 * `within(run)` lets every read made during `run` (synchronous code only) share the first one. That is exact: a
 * commit another connection makes while `run` is running is concurrent with it, so answering as if it came just after
 * is an answer the database could have given; it is seen by the next `run` or plain read. Outside `within` every read
 * asks SQLite. The HTTP layer wraps each /v1 request's synchronous part (service/http/route-gates.ts).
 */
import type { Db } from './db.js';

export interface OthersCommits {
  /** The connection's data_version: the value shared inside `within`, else read now. */
  read(): number;
  /** Runs `run` with one data_version read shared by every `read()` it makes (nested calls share the outer one). */
  within<T>(run: () => T): T;
}

export function createOthersCommits(db: Db): OthersCommits {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let depth = 0;
  let shared = -1;
  return {
    read() {
      if (depth === 0) return dataVersion.get()!;
      if (shared < 0) shared = dataVersion.get()!;
      return shared;
    },
    within(run) {
      depth++;
      try {
        return run();
      } finally {
        if (--depth === 0) shared = -1;
      }
    },
  };
}
