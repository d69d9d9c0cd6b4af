/**
 * What one account may upload: at most maxConcurrent uploads at a time (more → 429 too_many_uploads, with
 * Retry-After), and at most maxStoredBytes of recordings kept on disk (the account's uploads not yet deleted by
 * retention, plus those arriving now; more → 507 upload_quota_exceeded, checked against Content-Length before a byte
 * is read and again as bytes arrive, the partial file then deleted). Each account's uploads live in
 * uploads/<account id>/, so what it keeps is measured on disk — whatever retention has deleted no longer counts.
 *
 * `receive` is the one way a request's files reach the disk (a repository test holds every route to it): a new upload
 * route cannot forget the limits, as the OpenAI-compatible route once did (trust review 2, item 4).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../common/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../store/private-files.js';
import { RECEIVING_MARKER } from './abandoned-uploads.js';
import { receiveMultipart, type MultipartHooks, type UploadedFile } from './multipart.js';

/** Uploads one account may run at once. Default 4 (the browser UI uses at most 3). */
export const DEFAULT_MAX_CONCURRENT_UPLOADS = 4;
/** Bytes of uploaded recordings one account may keep. Default 50 GiB (two open 50-file batches of 500 MB files). */
export const DEFAULT_MAX_STORED_UPLOAD_BYTES = 50 * 1024 ** 3;
/** What a refused concurrent upload is told to wait. */
const RETRY_UPLOAD_SECONDS = 10;

export interface UploadLimits {
  maxConcurrent: number;
  maxStoredBytes: number;
}

/** One upload in progress: count its bytes with add() (throws 507 past the quota), close() when it ends. */
export interface UploadTicket {
  /** The folder this account's uploads go to. */
  readonly dir: string;
  add(bytes: number): void;
  close(): void;
}

/** Bytes of the files below `path` (0 when it does not exist): what uploads take on disk. */
export async function diskUsage(path: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch {
    return 0; // nothing uploaded yet
  }
  let total = 0;
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) total += await diskUsage(child);
    else if (entry.isFile()) total += await stat(child).then((s) => s.size, () => 0);
  }
  return total;
}

function gib(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** One upload received: its files, the folder they are in, and a way to delete them. */
export interface ReceivedUpload {
  files: UploadedFile[];
  dir: string;
  /** Deletes the upload (on a rejection after it arrived, or a replayed Idempotency-Key). */
  discard(): Promise<void>;
}

export class UploadBudget {
  private readonly active = new Map<string, Set<{ bytes: number; concurrent: boolean }>>();

  constructor(
    private readonly uploadsDir: string,
    private readonly limits: UploadLimits,
  ) {}

  /**
   * Receives a multipart body for an account within its budget: a folder of its own under the account's uploads,
   * counted as it arrives; the concurrency slot is held until the body has been read.
   */
  async receive(accountId: string, request: Request, hooks: Omit<MultipartHooks, 'onBytes'>): Promise<ReceivedUpload> {
    const declared = Number(request.headers.get('content-length') ?? Number.NaN);
    const ticket = await this.open(accountId, Number.isFinite(declared) ? declared : null);
    try {
      const dir = join(ticket.dir, `up_${randomUUID().replaceAll('-', '')}`);
      // Marked while the body arrives: a service that dies meanwhile leaves it for the sweep (abandoned-uploads.ts).
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFile(join(dir, RECEIVING_MARKER), '', { mode: PRIVATE_FILE_MODE });
      let files: UploadedFile[];
      try {
        files = await receiveMultipart(request, dir, { ...hooks, onBytes: ticket.add });
      } catch (error) {
        await rm(dir, { recursive: true, force: true }); // refused before its first byte too (a bad Content-Type)
        throw error;
      }
      await rm(join(dir, RECEIVING_MARKER), { force: true });
      return { files, dir, discard: () => rm(dir, { recursive: true, force: true }) };
    } finally {
      ticket.close();
    }
  }

  /**
   * A live dictation's recording, written as the session goes: it counts in the account's stored bytes like an
   * upload (its frames are add()ed), but not in the uploads at once (live sessions have caps of their own).
   */
  openRecording(accountId: string): Promise<UploadTicket> {
    return this.open(accountId, null, false);
  }

  /** Starts an upload for an account (`declaredBytes`: the request's Content-Length when known). */
  async open(accountId: string, declaredBytes: number | null, concurrent = true): Promise<UploadTicket> {
    const running = this.active.get(accountId) ?? new Set();
    if (concurrent && [...running].filter((u) => u.concurrent).length >= this.limits.maxConcurrent) {
      throw new ApiError('too_many_uploads', `${this.limits.maxConcurrent} uploads of this account are already running (at most ${this.limits.maxConcurrent} at a time); send this one when one of them has finished`, {
        retryAfterSeconds: RETRY_UPLOAD_SECONDS,
      });
    }
    const mine = { bytes: 0, concurrent };
    running.add(mine);
    this.active.set(accountId, running);
    const close = (): void => {
      running.delete(mine);
      if (running.size === 0 && this.active.get(accountId) === running) this.active.delete(accountId);
    };
    const dir = join(this.uploadsDir, accountId);
    let stored: number;
    try {
      stored = await diskUsage(dir);
    } catch (error) {
      close();
      throw error;
    }
    const arriving = (): number => [...running].reduce((sum, u) => sum + u.bytes, 0);
    const refuse = (extra: number): ApiError =>
      new ApiError(
        'upload_quota_exceeded',
        `this account's uploaded recordings would take ${gib(stored + arriving() + extra)}, more than the ${gib(this.limits.maxStoredBytes)} it may keep; ` +
          'recordings are deleted some hours after their job ends (Settings → Retention)',
      );
    if (declaredBytes !== null && stored + arriving() + declaredBytes > this.limits.maxStoredBytes) {
      const error = refuse(declaredBytes);
      close();
      throw error;
    }
    return {
      dir,
      add: (bytes) => {
        mine.bytes += bytes;
        if (stored + arriving() > this.limits.maxStoredBytes) throw refuse(0);
      },
      close,
    };
  }
}
