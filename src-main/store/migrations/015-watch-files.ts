import type { Migration } from './migration.js';

/**
 * Watch folders (docs/watch-folders.md): every version of a file the watcher has seen in a watched folder, and what
 * became of it. A row is written once per (folder, path, size, mtime) — the cheap identity checked before hashing —
 * so a file is never queued twice; `sha256` finds a renamed copy of a file already queued or done. `job_id` is the
 * job the file became (no foreign key: the job history may be deleted by retention while this record stays, so a
 * file done long ago is still not redone). The folders' settings themselves are the `watch_folders` setting.
 */
export const watchFiles: Migration = {
  version: 15,
  name: 'watch-files',
  up: `
    CREATE TABLE watch_files (
      id INTEGER PRIMARY KEY,
      folder TEXT NOT NULL,                   -- the watched folder as configured (absolute, normalised)
      path TEXT NOT NULL,                     -- the file's absolute path when it was seen
      size_bytes INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,              -- whole milliseconds
      sha256 TEXT CHECK (sha256 IS NULL OR length(sha256) = 64), -- null: refused before it was read (too large)
      state TEXT NOT NULL CHECK (state IN ('queued', 'done', 'failed', 'duplicate')),
      job_id TEXT,                            -- the job it became; for a duplicate, the original's job
      duplicate_of INTEGER,                   -- for a duplicate: the row of the file with the same content
      error_code TEXT,
      error_message TEXT,
      formats_json TEXT NOT NULL DEFAULT '[]', -- the exports its folder asked for when it was queued
      output_dir TEXT,                        -- where they go (null: beside the recording), as asked then
      outputs_json TEXT NOT NULL DEFAULT '[]', -- the export files written for it
      seen_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (folder, path, size_bytes, mtime_ms)
    );
    CREATE INDEX watch_files_content ON watch_files (folder, sha256);
    CREATE INDEX watch_files_job ON watch_files (job_id);
    CREATE INDEX watch_files_state ON watch_files (state);
  `,
};
