/**
 * Wire types of the watch-folder settings (`GET/PUT /v1/settings/watch-folders`, docs/watch-folders.md), shared by
 * the service, the typed client and the renderer.
 */

/** One watched folder as a PUT sends it. */
export interface WatchFolderInput {
  /** Absolute path of the folder (watched with its subfolders). */
  path: string;
  /** A speech-to-text model id of the catalogue. */
  model: string;
  /** The model's params, validated against its params_schema like a job's. Default {}. */
  params?: Record<string, unknown>;
  /** Absolute folder the exports go to (subfolders mirrored). Default null: beside each recording. */
  output_dir?: string | null;
  /** Export formats written when a job succeeds (`srt`, `txt`, …), at least one. */
  formats: string[];
}

/**
 * starting: just saved; scanning: listing what is already there; watching; error: see `error`, retried; elsewhere:
 * another node of the cluster watches the folders (this node shows the saved folders and their counts).
 */
export type WatchFolderState = 'starting' | 'scanning' | 'watching' | 'error' | 'elsewhere';

export interface WatchFolderStatus {
  state: WatchFolderState;
  /** Why the folder is in `error` (folder_missing, folder_unreadable, model_unavailable …), else null. */
  error: { code: string; message: string } | null;
  /** When an error is tried again (ISO 8601), else null. */
  next_retry_at: string | null;
  /** When the folder was last listed completely (at start, after a save, after it came back). */
  last_scan_at: string | null;
  /** Files seen and not yet checked (still growing, or being read). */
  files_waiting: number;
  /** Files whose job has not ended yet. */
  files_queued: number;
  /** Files transcribed with their exports written. */
  files_done: number;
  /** Files whose job failed, or that were refused, or whose exports could not be written. */
  files_failed: number;
  /** Renamed copies of files already queued or done, not redone. */
  files_skipped: number;
  /** The most recent failure, for Settings to show. */
  last_failure: { path: string; code: string; message: string; at: string } | null;
}

export interface WatchFolder {
  path: string;
  model: string;
  params: Record<string, unknown>;
  output_dir: string | null;
  formats: string[];
  status: WatchFolderStatus;
}

export interface WatchFoldersSettings {
  folders: WatchFolder[];
}
