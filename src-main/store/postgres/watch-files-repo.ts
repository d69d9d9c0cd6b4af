/**
 * The files the watch folders have seen, on PostgreSQL, with the semantics of store/watch-files-repo.ts. A version
 * of a file (folder, path, size, mtime) is unique: a second insert of it fails, on whichever node. `markDone` and
 * `markFailed` change only a row still `queued`, and `continueWith` only rows still `failed` (compare-and-set).
 */
import { isoAt } from '../clock.js';
import type { Async } from '../store.js';
import type { FileVersion, NewWatchFile, WatchFileCounts, WatchFileRow, WatchFilesRepo, WatchFileState } from '../watch-files-repo.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const COLUMNS = 'id, folder, path, size_bytes, mtime_ms, sha256, state, job_id, duplicate_of, error_code, error_message, formats_json, output_dir, outputs_json, seen_at, updated_at';
const SEEN = `SELECT ${COLUMNS} FROM watch_files WHERE folder = $1 AND path = $2 AND size_bytes = $3 AND mtime_ms = $4`;
const SAME_CONTENT = `SELECT ${COLUMNS} FROM watch_files WHERE folder = $1 AND sha256 = $2 AND state IN ('queued', 'done') ORDER BY id LIMIT 1`;
const INSERT = `INSERT INTO watch_files (folder, path, size_bytes, mtime_ms, sha256, state, job_id, duplicate_of, error_code, error_message,
    formats_json, output_dir, seen_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id`;
const QUEUED = `SELECT ${COLUMNS} FROM watch_files WHERE state = 'queued' ORDER BY id`;
const QUEUED_FOR_JOB = `SELECT ${COLUMNS} FROM watch_files WHERE job_id = $1 AND state = 'queued' ORDER BY id`;
const CONTINUE_WITH = `UPDATE watch_files SET state = 'queued', job_id = $2, error_code = NULL, error_message = NULL, updated_at = $3
  WHERE job_id = $1 AND state = 'failed'`;
const FINISH = `UPDATE watch_files SET state = $2, error_code = $3, error_message = $4, outputs_json = $5, updated_at = $6
  WHERE id = $1 AND state = 'queued'`;
const COUNTS = 'SELECT folder, state, COUNT(*) AS n FROM watch_files GROUP BY folder, state';
const LAST_FAILURE = `SELECT ${COLUMNS} FROM watch_files WHERE folder = $1 AND state = 'failed' ORDER BY updated_at DESC, id DESC LIMIT 1`;

export function createPgWatchFilesRepo(sql: Sql, shared: PgShared): Async<WatchFilesRepo> {
  const now = (): string => isoAt(shared.clock);
  const add = async (v: FileVersion, f: NewWatchFile): Promise<number> => {
    const [row] = await sql.write<{ id: number }>(INSERT, [
      v.folder, v.path, v.sizeBytes, Math.floor(v.mtimeMs), f.sha256, f.state, f.jobId, f.duplicateOf ?? null, f.errorCode ?? null,
      f.errorMessage ?? null, JSON.stringify(f.plan?.formats ?? []), f.plan?.outputDir ?? null, now(),
    ]);
    return row!.id;
  };
  const finish = async (id: number, state: WatchFileState, code: string | null, message: string | null, outputs: readonly string[]): Promise<void> =>
    void (await sql.run(FINISH, [id, state, code, message, JSON.stringify(outputs), now()]));
  return {
    seen: (v) => sql.one<WatchFileRow>(SEEN, [v.folder, v.path, v.sizeBytes, Math.floor(v.mtimeMs)]),
    sameContent: (folder, sha256) => sql.one<WatchFileRow>(SAME_CONTENT, [folder, sha256]),
    insertQueued: (version, sha256, jobId, plan) => add(version, { sha256, state: 'queued', jobId, plan }),
    insertDuplicate: (version, sha256, original) => add(version, { sha256, state: 'duplicate', jobId: original.job_id, duplicateOf: original.id }),
    insertFailed: (version, sha256, errorCode, errorMessage) => add(version, { sha256, state: 'failed', jobId: null, errorCode, errorMessage }),
    queued: () => sql.all<WatchFileRow>(QUEUED),
    queuedForJob: (jobId) => sql.all<WatchFileRow>(QUEUED_FOR_JOB, [jobId]),
    markDone: (id, outputs) => finish(id, 'done', null, null, outputs),
    markFailed: (id, code, message, outputs = []) => finish(id, 'failed', code, message, outputs),
    continueWith: (from, to) => sql.run(CONTINUE_WITH, [from, to, now()]),
    async countsByFolder() {
      const byFolder = new Map<string, WatchFileCounts>();
      for (const row of await sql.all<{ folder: string; state: WatchFileState; n: number }>(COUNTS)) {
        const entry = byFolder.get(row.folder) ?? { queued: 0, done: 0, failed: 0, duplicate: 0 };
        entry[row.state] = row.n;
        byFolder.set(row.folder, entry);
      }
      return byFolder;
    },
    lastFailure: (folder) => sql.one<WatchFileRow>(LAST_FAILURE, [folder]),
  };
}
