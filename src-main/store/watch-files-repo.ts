/**
 * The files the watch folders have seen (migration 015) and what became of each: the record that makes a file
 * queued once, a renamed copy of a queued or done file skipped, and a restart pick up where it stopped. Rows are
 * keyed by (folder, path, size, mtime): `seen()` answers before a byte is hashed whether this version of the file is
 * known; `sameContent()` finds an earlier file with the same sha256 in the folder.
 */
import { isoAt, systemClock, type Clock } from './clock.js';
import type { Db } from './db.js';

export const WATCH_FILE_STATES = ['queued', 'done', 'failed', 'duplicate'] as const;
export type WatchFileState = (typeof WATCH_FILE_STATES)[number];

export interface WatchFileRow {
  id: number;
  folder: string;
  path: string;
  size_bytes: number;
  mtime_ms: number;
  sha256: string | null;
  state: WatchFileState;
  job_id: string | null;
  duplicate_of: number | null;
  error_code: string | null;
  error_message: string | null;
  /** JSON string[]: the exports asked for when the file was queued. */
  formats_json: string;
  output_dir: string | null;
  /** JSON string[]: the export files written. */
  outputs_json: string;
  seen_at: string;
  updated_at: string;
}

/** One version of a file: where it is and what stat() said. */
export interface FileVersion {
  folder: string;
  path: string;
  sizeBytes: number;
  mtimeMs: number;
}

/** What to write when the job succeeds. */
export interface ExportPlan {
  formats: readonly string[];
  outputDir: string | null;
}

/** What a new row of a seen file records besides its version (both backends' `add`). */
export interface NewWatchFile {
  sha256: string | null;
  state: WatchFileState;
  jobId: string | null;
  duplicateOf?: number | null;
  errorCode?: string;
  errorMessage?: string;
  plan?: ExportPlan;
}

export interface WatchFileCounts {
  queued: number;
  done: number;
  failed: number;
  duplicate: number;
}

export interface WatchFilesRepo {
  /** The row of this exact version of the file (same folder, path, size and mtime), if it was seen before. */
  seen(version: FileVersion): WatchFileRow | undefined;
  /** The first queued or done file of the folder with this content, if any (a failed one does not count). */
  sameContent(folder: string, sha256: string): WatchFileRow | undefined;
  /**
   * Records a file that became job `jobId`, with the exports its folder asks for (call inside the transaction that
   * creates the job). Returns the row id.
   */
  insertQueued(version: FileVersion, sha256: string, jobId: string, plan: ExportPlan): number;
  /** Records a renamed copy of row `original` (not redone). */
  insertDuplicate(version: FileVersion, sha256: string, original: WatchFileRow): number;
  /** Records a file refused before it became a job (e.g. larger than the model takes). */
  insertFailed(version: FileVersion, sha256: string | null, code: string, message: string): number;
  /** The rows waiting for their job to end (for the reconciliation at start). */
  queued(): WatchFileRow[];
  /** The queued rows of a job (normally one). */
  queuedForJob(jobId: string): WatchFileRow[];
  /** The job ended well and these files were written. */
  markDone(id: number, outputs: readonly string[]): void;
  /** The job failed, or its exports could not be written (`outputs`: those written before the failure). */
  markFailed(id: number, code: string, message: string, outputs?: readonly string[]): void;
  /**
   * The failed job `fromJobId` was retried as `toJobId`: its failed files wait for the new job again (their exports
   * are written when it succeeds). Returns how many files.
   */
  continueWith(fromJobId: string, toJobId: string): number;
  /** Counts by state for each folder. */
  countsByFolder(): Map<string, WatchFileCounts>;
  /** The most recent failure of a folder. */
  lastFailure(folder: string): WatchFileRow | undefined;
}

export function createWatchFilesRepo(db: Db, clock: Clock = systemClock): WatchFilesRepo {
  const seen = db.prepare<[string, string, number, number], WatchFileRow>(
    'SELECT * FROM watch_files WHERE folder = ? AND path = ? AND size_bytes = ? AND mtime_ms = ?',
  );
  const sameContent = db.prepare<[string, string], WatchFileRow>(
    `SELECT * FROM watch_files WHERE folder = ? AND sha256 = ? AND state IN ('queued', 'done') ORDER BY id LIMIT 1`,
  );
  const insert = db.prepare(
    `INSERT INTO watch_files (folder, path, size_bytes, mtime_ms, sha256, state, job_id, duplicate_of, error_code, error_message,
       formats_json, output_dir, seen_at, updated_at)
     VALUES (@folder, @path, @sizeBytes, @mtimeMs, @sha256, @state, @jobId, @duplicateOf, @errorCode, @errorMessage, @formats, @outputDir, @at, @at)`,
  );
  const queued = db.prepare<[], WatchFileRow>(`SELECT * FROM watch_files WHERE state = 'queued' ORDER BY id`);
  const queuedForJob = db.prepare<[string], WatchFileRow>(`SELECT * FROM watch_files WHERE job_id = ? AND state = 'queued' ORDER BY id`);
  const continueWith = db.prepare<{ from: string; to: string; at: string }>(
    `UPDATE watch_files SET state = 'queued', job_id = @to, error_code = NULL, error_message = NULL, updated_at = @at
     WHERE job_id = @from AND state = 'failed'`,
  );
  const finish = db.prepare(
    `UPDATE watch_files SET state = @state, error_code = @errorCode, error_message = @errorMessage, outputs_json = @outputs, updated_at = @at
     WHERE id = @id AND state = 'queued'`,
  );
  const counts = db.prepare<[], { folder: string; state: WatchFileState; n: number }>(
    'SELECT folder, state, COUNT(*) AS n FROM watch_files GROUP BY folder, state',
  );
  const lastFailure = db.prepare<[string], WatchFileRow>(
    `SELECT * FROM watch_files WHERE folder = ? AND state = 'failed' ORDER BY updated_at DESC, id DESC LIMIT 1`,
  );

  const add = (version: FileVersion, fields: NewWatchFile): number =>
    Number(
      insert.run({
        folder: version.folder,
        path: version.path,
        sizeBytes: version.sizeBytes,
        mtimeMs: Math.floor(version.mtimeMs),
        sha256: fields.sha256,
        state: fields.state,
        jobId: fields.jobId,
        duplicateOf: fields.duplicateOf ?? null,
        errorCode: fields.errorCode ?? null,
        errorMessage: fields.errorMessage ?? null,
        formats: JSON.stringify(fields.plan?.formats ?? []),
        outputDir: fields.plan?.outputDir ?? null,
        at: isoAt(clock),
      }).lastInsertRowid,
    );

  return {
    seen: (v) => seen.get(v.folder, v.path, v.sizeBytes, Math.floor(v.mtimeMs)),
    sameContent: (folder, sha256) => sameContent.get(folder, sha256),
    insertQueued: (version, sha256, jobId, plan) => add(version, { sha256, state: 'queued', jobId, plan }),
    insertDuplicate: (version, sha256, original) => add(version, { sha256, state: 'duplicate', jobId: original.job_id, duplicateOf: original.id }),
    insertFailed: (version, sha256, errorCode, errorMessage) => add(version, { sha256, state: 'failed', jobId: null, errorCode, errorMessage }),
    queued: () => queued.all(),
    queuedForJob: (jobId) => queuedForJob.all(jobId),
    markDone(id, outputs) {
      finish.run({ id, state: 'done', errorCode: null, errorMessage: null, outputs: JSON.stringify(outputs), at: isoAt(clock) });
    },
    markFailed(id, code, message, outputs = []) {
      finish.run({ id, state: 'failed', errorCode: code, errorMessage: message, outputs: JSON.stringify(outputs), at: isoAt(clock) });
    },
    continueWith: (from, to) => continueWith.run({ from, to, at: isoAt(clock) }).changes,
    countsByFolder() {
      const byFolder = new Map<string, WatchFileCounts>();
      for (const row of counts.all()) {
        const entry = byFolder.get(row.folder) ?? { queued: 0, done: 0, failed: 0, duplicate: 0 };
        entry[row.state] = row.n;
        byFolder.set(row.folder, entry);
      }
      return byFolder;
    },
    lastFailure: (folder) => lastFailure.get(folder),
  };
}
