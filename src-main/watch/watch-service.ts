/**
 * Watch folders (docs/watch-folders.md): recordings that appear in a folder the person chose become transcription
 * jobs of the local account, and when a job succeeds its exports are written beside the recording (or to the
 * folder's output_dir) without replacing anyone's file. Runs inside the service (Electron main and `voxdesk serve`),
 * started and stopped with it.
 *
 * One file at a time is checked, in the order files settle: this version of it (path, size, mtime) seen before →
 * nothing; the folder's model cannot take jobs now → held, the folder shows the error and is retried; too large →
 * recorded as failed; else hashed (sha256, streamed), and then in ONE transaction: a file with the same content in
 * the folder already queued or done → recorded as a skipped duplicate, else the job is created through the API's own
 * path (WatchSubmitter) and the file recorded with it — so a crash leaves both or neither, and a restart never queues
 * a file twice nor loses one (the first listing after a restart reports every file again; the record decides).
 *
 * Job endings arrive as job-changed events; at start the files whose job ended while the service was down are
 * settled from the store.
 */
import { basename, dirname, extname, join, relative } from 'node:path';
import { lstat } from 'node:fs/promises';
import type { Job } from '../common/api-types.js';
import { ApiError } from '../common/errors.js';
import { isTerminal } from '../common/job-states.js';
import type { WatchFolder, WatchFolderStatus } from '../common/watch-folder-types.js';
import { linkProblem } from '../engines/audio/input-file.js';
import type { AlongWithJob, JobService } from '../jobs/engine/job-service-types.js';
import type { Store } from '../store/store.js';
import type { FileVersion, WatchFileRow } from '../store/watch-files-repo.js';
import { writeExportFile } from './export-writer.js';
import { sha256OfFile } from './file-fingerprint.js';
import { FolderWatch, type FolderProblem } from './folder-watch.js';
import { DEFAULT_WATCH_TIMINGS, readWatchFolders, sameConfig, saveWatchFolders, type WatchFolderConfig, type WatchTimings } from './watch-folder-config.js';
import type { Log } from '../common/log.js';

/** How the watcher makes jobs and exports: the service implements it with the API's own code. */
export interface WatchSubmitter {
  /**
   * Whether the folder's model and params can make jobs now (throws the ApiError a POST would get); answers the
   * largest file, in bytes inclusive, the model takes.
   */
  check(folder: WatchFolderConfig): { maxFileBytes: number };
  /**
   * The seconds the recording is priced at when its job is accepted, as POST /v1/speech-to-text measures them (the
   * length its container states; null when unknown or when the model's price does not depend on it).
   */
  pricedSeconds(folder: WatchFolderConfig, path: string): Promise<number | null>;
  /**
   * Creates the job exactly as POST /v1/speech-to-text would, for the local account, with `along`'s writes in its
   * transaction; null when `along.before` declined. Throws ApiError.
   */
  submit(folder: WatchFolderConfig, file: { path: string; name: string; bytes: number; seconds: number | null }, along: AlongWithJob): Promise<Job | null>;
  /** The export of a succeeded job in one of the folder's formats: the bytes the export route would answer. */
  render(job: Job, format: string): Promise<Uint8Array>;
}

export interface WatchServiceOptions {
  store: Store;
  jobs: Pick<JobService, 'events' | 'getJob'>;
  /** The account the jobs belong to (the local one). */
  accountId: string;
  submitter: WatchSubmitter;
  /** Default DEFAULT_WATCH_TIMINGS. */
  timings?: Partial<WatchTimings>;
  log: Log;
}

/** Refusals that concern the folder's settings, not the file: the file is held and tried again later. */
const SETTINGS_PROBLEMS: ReadonlySet<string> = new Set(['model_required', 'invalid_request', 'invalid_params', 'unsupported_param', 'model_unavailable']);

function settingsProblem(error: unknown): FolderProblem | null {
  return error instanceof ApiError && SETTINGS_PROBLEMS.has(error.code) ? { code: error.code, message: error.message } : null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class WatchService {
  private readonly timings: WatchTimings;
  private folders: FolderWatch[] = [];
  /** Files reported and not yet checked, in order (path → its folder). */
  private readonly waiting = new Map<string, FolderWatch>();
  /** Files of a folder whose settings cannot make jobs now. */
  private readonly held = new Map<FolderWatch, Set<string>>();
  private draining: Promise<void> | null = null;
  /** Rows being settled (exports being written), so an event and the start-up pass do not both write. */
  private readonly settling = new Map<number, Promise<void>>();
  private stopping = new AbortController();
  /** Background store work started by guard(). */
  private readonly guarded = new Set<Promise<unknown>>();
  private started = false;
  private readonly onJobChanged = (job: Job): void => {
    if (isTerminal(job.status)) this.settleJob(job);
  };
  /** A retried job's file waits for the new job, so its exports are written when the retry succeeds. */
  private readonly onJobRetried = (fromJobId: string, job: Job): void => {
    this.guard(`following the retry of job ${fromJobId}`, () => this.options.store.repos.watchFiles.continueWith(fromJobId, job.id));
  };

  constructor(private readonly options: WatchServiceOptions) {
    this.timings = { ...DEFAULT_WATCH_TIMINGS, ...options.timings };
  }

  /** Watches the saved folders and settles the files whose jobs ended while the service was stopped. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.stopping.signal.aborted) this.stopping = new AbortController(); // started again (a cluster's role came back)
    this.options.jobs.events.on('job-changed', this.onJobChanged);
    this.options.jobs.events.on('job-retried', this.onJobRetried);
    this.guard('settling files whose job ended while stopped', () => this.reconcile());
    await this.apply(await readWatchFolders(this.options.store.repos.settings));
  }

  /** Stops watching and waits for the file being checked and the exports being written. */
  async stop(): Promise<void> {
    this.started = false;
    this.stopping.abort(new Error('the service is stopping'));
    this.options.jobs.events.off('job-changed', this.onJobChanged);
    this.options.jobs.events.off('job-retried', this.onJobRetried);
    const folders = this.folders;
    this.folders = [];
    await Promise.all(folders.map((folder) => folder.stop()));
    await this.draining?.catch(() => undefined);
    await Promise.all([...this.settling.values()]);
    await Promise.all([...this.guarded]);
  }

  /**
   * Applies the saved folder list again (in a cluster another node may have saved it); nothing while not watching.
   */
  async refresh(): Promise<void> {
    if (this.started) await this.apply(await readWatchFolders(this.options.store.repos.settings));
  }

  /** The folders with their status, in the order saved. */
  async list(): Promise<WatchFolder[]> {
    if (!this.started) return this.listWatchedElsewhere();
    const files = this.options.store.repos.watchFiles;
    const counts = await files.countsByFolder();
    const failures = await Promise.all(this.folders.map((folder) => files.lastFailure(folder.path)));
    return this.folders.map((folder, index) => {
      const view = folder.view();
      const count = counts.get(folder.path) ?? { queued: 0, done: 0, failed: 0, duplicate: 0 };
      const failure = failures[index];
      let waiting = this.held.get(folder)?.size ?? 0;
      for (const owner of this.waiting.values()) if (owner === folder) waiting++;
      const status: WatchFolderStatus = {
        state: view.state,
        error: view.error,
        next_retry_at: view.nextRetryAt?.toISOString() ?? null,
        last_scan_at: view.lastScanAt?.toISOString() ?? null,
        files_waiting: waiting,
        files_queued: count.queued,
        files_done: count.done,
        files_failed: count.failed,
        files_skipped: count.duplicate,
        last_failure: failure
          ? { path: failure.path, code: failure.error_code ?? 'failed', message: failure.error_message ?? '', at: failure.updated_at }
          : null,
      };
      return { ...folder.config, status };
    });
  }

  /**
   * Saves the folder list (already checked by the API route) and applies it: removed folders stop, new or changed
   * ones start; resolves once each is checked, so the answer shows a missing folder's error.
   */
  async replace(configs: readonly WatchFolderConfig[]): Promise<WatchFolder[]> {
    await saveWatchFolders(this.options.store.repos.settings, configs);
    if (this.started) await this.apply(configs);
    return this.list();
  }

  /** A cluster node that does not own the watch folders: the saved folders, watched by the node that does. */
  private async listWatchedElsewhere(): Promise<WatchFolder[]> {
    const counts = await this.options.store.repos.watchFiles.countsByFolder();
    return (await readWatchFolders(this.options.store.repos.settings)).map((config) => {
      const count = counts.get(config.path) ?? { queued: 0, done: 0, failed: 0, duplicate: 0 };
      const status: WatchFolderStatus = {
        state: 'elsewhere',
        error: null,
        next_retry_at: null,
        last_scan_at: null,
        files_waiting: 0,
        files_queued: count.queued,
        files_done: count.done,
        files_failed: count.failed,
        files_skipped: count.duplicate,
        last_failure: null,
      };
      return { ...config, status };
    });
  }

  private async apply(configs: readonly WatchFolderConfig[]): Promise<void> {
    if (this.stopping.signal.aborted) return;
    const keep = new Set<FolderWatch>();
    const next = configs.map((config) => {
      const running = this.folders.find((folder) => !keep.has(folder) && sameConfig(folder.config, config));
      if (running) {
        keep.add(running);
        return running;
      }
      return new FolderWatch(config, this.timings, {
        onFile: (path, folder) => this.enqueue(path, folder),
        onRetryHeld: (folder) => this.retryHeld(folder),
        log: this.options.log,
        now: () => this.options.store.clock(),
      });
    });
    const removed = this.folders.filter((folder) => !keep.has(folder));
    this.folders = next;
    for (const folder of removed) this.held.delete(folder);
    for (const [path, folder] of this.waiting) if (removed.includes(folder)) this.waiting.delete(path);
    await Promise.all(removed.map((folder) => folder.stop()));
    await Promise.all(next.filter((folder) => !keep.has(folder)).map((folder) => folder.start()));
  }

  private enqueue(path: string, folder: FolderWatch): void {
    if (this.stopping.signal.aborted) return;
    this.waiting.delete(path);
    this.waiting.set(path, folder);
    this.pump();
  }

  private retryHeld(folder: FolderWatch): void {
    const paths = this.held.get(folder);
    this.held.delete(folder);
    if (!this.folders.includes(folder)) return;
    for (const path of paths ?? []) this.enqueue(path, folder);
  }

  private pump(): void {
    if (this.draining || this.stopping.signal.aborted) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      if (this.waiting.size > 0) this.pump();
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.size > 0 && !this.stopping.signal.aborted) {
      const [path, folder] = this.waiting.entries().next().value as [string, FolderWatch];
      this.waiting.delete(path);
      if (!this.folders.includes(folder)) continue;
      try {
        await this.consider(path, folder);
      } catch (error) {
        if (!this.stopping.signal.aborted) this.options.log.info(`watch folder ${folder.path}: ${path}: ${message(error)}`);
      }
    }
  }

  private hold(path: string, folder: FolderWatch, problem: FolderProblem): void {
    const paths = this.held.get(folder) ?? new Set<string>();
    paths.add(path);
    this.held.set(folder, paths);
    folder.holdFiles(problem);
  }

  /** One file: see the class comment for the order of the checks. */
  private async consider(path: string, folder: FolderWatch): Promise<void> {
    const repo = this.options.store.repos.watchFiles;
    // lstat: a symbolic link is looked at as the link, never as what it points to.
    const info = await lstat(path).catch(() => null);
    if (!info) return;
    const version: FileVersion = { folder: folder.path, path, sizeBytes: info.size, mtimeMs: info.mtimeMs };
    if (info.isSymbolicLink() || info.isFile()) {
      const refused = await linkProblem(folder.path, path).catch(() => null);
      if (refused) {
        if (!(await repo.seen(version))) await repo.insertFailed(version, null, 'symlink_refused', refused);
        return;
      }
    }
    // Gone again, or empty (a recorder that made the file and writes later: its growth is reported as a change).
    if (!info.isFile() || info.size === 0) return;
    if (await repo.seen(version)) return;

    let limits: { maxFileBytes: number };
    try {
      limits = this.options.submitter.check(folder.config);
    } catch (error) {
      const problem = settingsProblem(error);
      if (!problem) throw error;
      return this.hold(path, folder, problem);
    }
    folder.releaseFiles();
    if (info.size > limits.maxFileBytes) {
      await repo.insertFailed(version, null, 'file_too_large', `${basename(path)} is ${info.size} bytes; model ${folder.config.model} takes files of at most ${limits.maxFileBytes} bytes`);
      return;
    }

    let sha256: string;
    try {
      sha256 = await sha256OfFile(path, this.stopping.signal);
    } catch (error) {
      if (this.stopping.signal.aborted || (error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await repo.insertFailed(version, null, 'file_unreadable', `${basename(path)} cannot be read: ${message(error)}`);
      return;
    }
    // Priced like an upload (the spending cap holds hosted work to this quote), before the transaction below.
    let seconds: number | null;
    try {
      seconds = await this.options.submitter.pricedSeconds(folder.config, path);
    } catch (error) {
      const problem = settingsProblem(error);
      if (!problem) throw error;
      return this.hold(path, folder, problem);
    }
    // Changed while it was read: its next version is reported once it stops changing.
    const after = await lstat(path).catch(() => null);
    if (!after || after.size !== info.size || Math.floor(after.mtimeMs) !== Math.floor(info.mtimeMs)) return;

    // The job and the file's record in one transaction; a file seen meanwhile, or a copy of one, makes no job.
    const along: AlongWithJob = {
      async before(repos) {
        if (await repos.watchFiles.seen(version)) return false;
        const original = await repos.watchFiles.sameContent(folder.path, sha256);
        if (!original) return true;
        await repos.watchFiles.insertDuplicate(version, sha256, original);
        return false;
      },
      async after(repos, jobId) {
        await repos.watchFiles.insertQueued(version, sha256, jobId, { formats: folder.config.formats, outputDir: folder.config.output_dir });
      },
    };
    try {
      await this.options.submitter.submit(folder.config, { path, name: basename(path), bytes: info.size, seconds }, along);
    } catch (error) {
      const held = settingsProblem(error);
      if (held) return this.hold(path, folder, held);
      await repo.insertFailed(version, sha256, error instanceof ApiError ? error.code : 'internal_error', message(error));
    }
  }

  /** At start: the files whose job ended (or was deleted) while the service was not running. */
  private async reconcile(): Promise<void> {
    const repo = this.options.store.repos.watchFiles;
    for (const row of await repo.queued()) {
      const job = row.job_id ? await this.options.jobs.getJob(this.options.accountId, 'speech-to-text', row.job_id) : undefined;
      if (!job) {
        await repo.markFailed(row.id, 'job_missing', `the job ${row.job_id ?? ''} of ${basename(row.path)} no longer exists (deleted from the job history)`);
      } else if (isTerminal(job.status)) {
        this.settleRow(row, job);
      }
    }
  }

  private settleJob(job: Job): void {
    this.guard(`settling job ${job.id}`, async () => {
      for (const row of await this.options.store.repos.watchFiles.queuedForJob(job.id)) this.settleRow(row, job);
    });
  }

  private settleRow(row: WatchFileRow, job: Job): void {
    if (this.settling.has(row.id)) return;
    const work = this.settle(row, job)
      .catch((error) => this.options.log.info(`watch folder ${row.folder}: ${row.path}: ${message(error)}`))
      .finally(() => this.settling.delete(row.id));
    this.settling.set(row.id, work);
  }

  private async settle(row: WatchFileRow, job: Job): Promise<void> {
    const repo = this.options.store.repos.watchFiles;
    if (job.status !== 'succeeded') {
      await repo.markFailed(row.id, job.error_code ?? job.status, job.error_message ?? `the job ended ${job.status}`);
      return;
    }
    const formats = JSON.parse(row.formats_json) as string[];
    // Exports go below the output folder (or the watched one) and never through a link inside it.
    const root = row.output_dir ?? row.folder;
    const dir = join(root, relative(row.folder, dirname(row.path)));
    const base = basename(row.path, extname(row.path));
    const written: string[] = [];
    for (const format of formats) {
      try {
        const content = await this.options.submitter.render(job, format);
        written.push(await writeExportFile(dir, base, format, content, root));
      } catch (error) {
        await repo.markFailed(row.id, 'output_write_failed', `the ${format} export of ${basename(row.path)} could not be written to ${dir}: ${message(error)}`, written);
        return;
      }
    }
    await repo.markDone(row.id, written);
  }

  /** Runs `fn` in the background, logging its failure; stop() waits for what is still running. */
  private guard(label: string, fn: () => Promise<unknown>): void {
    const work = fn()
      .catch((error) => this.options.log.info(`watch folders: ${label} failed: ${message(error)}`))
      .finally(() => this.guarded.delete(work));
    this.guarded.add(work);
  }
}
