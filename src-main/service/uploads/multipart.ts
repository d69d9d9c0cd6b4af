/**
 * Streams a multipart/form-data body to disk with busboy: parts are handled in arrival order, files are written
 * (and hashed) chunk by chunk, never held in memory. The caller's hooks decide on each part as it arrives, so a
 * rule such as "model before file" or "at most 50 files" refuses the request before the offending file is read.
 * On any rejection the partial uploads are deleted and the rest of the body is left to be discarded after the answer
 * (http/unread-body.ts).
 */
import busboy from 'busboy';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ApiError } from '../../common/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../store/private-files.js';

export interface UploadedFile {
  field: string;
  /** Original file name as sent (files[].name of a batch). */
  originalName: string;
  path: string;
  bytes: number;
  sha256: string;
  mimeType: string;
}

export interface MultipartHooks {
  /** A text part arrived (in order). Throw an ApiError to refuse the request. */
  onField(name: string, value: string): void;
  /**
   * A file part is about to be read. Throw to refuse it unread; return the byte limit for this file, and what a
   * refusal at that limit should add (whose limit it is, how to get under it).
   */
  beforeFile(field: string, fileName: string, index: number): { maxBytes: number; limitNote?: string };
  /** Bytes of a file arrived (before they are written). Throw an ApiError to stop the upload (quota). */
  onBytes?(bytes: number): void;
}

export interface MultipartLimits {
  /** Longest text part (params, text, name). Default 1 MiB; longer → 400 text_too_long / invalid_request. */
  maxFieldBytes: number;
  /** Most parts in one body. Default 400 (50 texts + 50 files + a few fields, with room). */
  maxParts: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = { maxFieldBytes: 1024 * 1024, maxParts: 400 };

/** A safe file name inside the upload dir: no path, no odd characters, bounded length. */
export function sanitiseFileName(name: string): string {
  const base = basename(name.replaceAll('\\', '/')).normalize('NFC');
  const clean = base.replace(/[^\p{L}\p{N}._ -]/gu, '_').replace(/^[.\s]+/, '').trim().slice(-120);
  return clean || 'upload';
}

class LimitedHash extends Transform {
  bytes = 0;
  readonly hash = createHash('sha256');
  constructor(
    private readonly maxBytes: number,
    private readonly fileName: string,
    private readonly onBytes: ((bytes: number) => void) | undefined,
    private readonly limitNote: string | undefined,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      const note = this.limitNote ?? 'send a smaller file';
      done(new ApiError('file_too_large', `${this.fileName} is larger than the limit of ${this.maxBytes} bytes: ${note}`));
      return;
    }
    try {
      this.onBytes?.(chunk.length);
    } catch (error) {
      done(error as Error);
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

/**
 * Reads the whole multipart body of `request` into `dir` (created here). Resolves with the files in arrival
 * order; rejects with an ApiError after deleting `dir`.
 */
export async function receiveMultipart(
  request: Request,
  dir: string,
  hooks: MultipartHooks,
  limits: MultipartLimits = DEFAULT_MULTIPART_LIMITS,
): Promise<UploadedFile[]> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiError(
      'unsupported_media_type',
      `this route takes a multipart/form-data body, but Content-Type was ${type ? `"${type}"` : 'not set'}: send the fields as form parts, the model first and then the audio as a file part, as curl -F model=ID -F file=@audio.wav or a FormData body does`,
    );
  }
  if (!request.body) throw new ApiError('invalid_request', 'the request has no body: send multipart/form-data parts, the model first and then the audio as a file part (curl -F model=ID -F file=@audio.wav)');
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: { fieldSize: limits.maxFieldBytes, parts: limits.maxParts, fieldNameSize: 200 },
      preservePath: false,
      defParamCharset: 'utf8',
    });
  } catch (cause) {
    throw new ApiError(
      'invalid_request',
      `the Content-Type header names no usable multipart boundary (${(cause as Error).message}): let the HTTP client write the header and the body together (curl -F, a FormData body) rather than setting Content-Type by hand`,
      { cause },
    );
  }
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const source = Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>);
  const files: UploadedFile[] = [];
  const writes: Promise<void>[] = [];
  const active = new Set<Readable>();
  let failed: Error | null = null;

  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: Error, sourceFailed = false): void => {
      if (failed) return;
      failed = error;
      source.unpipe(parser);
      // The connection stays: the rest of the body is discarded once the answer is out (http/unread-body.ts), so
      // the client sees the refusal instead of a reset. A body that broke off (idle, client gone) is done with.
      if (sourceFailed) source.destroy();
      else source.pause();
      parser.removeAllListeners('file');
      parser.removeAllListeners('field');
      for (const stream of active) stream.destroy(error);
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      if (failed) return;
      try {
        if (info.valueTruncated) {
          throw new ApiError(
            name === 'text' ? 'text_too_long' : 'invalid_request',
            name === 'text'
              ? `the text part is longer than ${limits.maxFieldBytes} bytes: send a shorter text`
              : `the ${name} part is a text part longer than ${limits.maxFieldBytes} bytes; text parts (model, params, name) are short: a recording goes in a file part, with a filename (curl -F ${name}=@path)`,
          );
        }
        hooks.onField(name, value);
      } catch (error) {
        fail(error as Error);
      }
    });
    let index = 0;
    parser.on('file', (field, stream, info) => {
      if (failed) {
        stream.resume();
        return;
      }
      const originalName = info.filename ?? '';
      let maxBytes: number;
      let limitNote: string | undefined;
      try {
        ({ maxBytes, limitNote } = hooks.beforeFile(field, originalName, index));
      } catch (error) {
        stream.resume();
        fail(error as Error);
        return;
      }
      const path = join(dir, `${String(index).padStart(2, '0')}-${sanitiseFileName(originalName)}`);
      index++;
      const meter = new LimitedHash(maxBytes, originalName || `the ${field} part`, hooks.onBytes?.bind(hooks), limitNote);
      active.add(stream);
      stream.once('close', () => active.delete(stream));
      const write = pipeline(stream, meter, createWriteStream(path, { mode: PRIVATE_FILE_MODE })).then(
        () => {
          files.push({ field, originalName, path, bytes: meter.bytes, sha256: meter.hash.digest('hex'), mimeType: info.mimeType });
        },
        (error: Error) => {
          stream.resume();
          fail(
            error instanceof ApiError
              ? error
              : new ApiError('invalid_request', `the upload of ${originalName || `the ${field} part`} broke off (${error.message}): send the request again`, { cause: error }),
          );
        },
      );
      writes.push(write);
    });
    parser.on('partsLimit', () =>
      fail(new ApiError('invalid_request', `the body has more than ${limits.maxParts} parts; a request takes model, params, name and at most 50 files or texts: split it into batches of 50`)),
    );
    parser.on('error', (error: Error) =>
      fail(
        new ApiError(
          'invalid_request',
          `the multipart body is malformed (${error.message}): it ended before its closing boundary, or its boundary is not the one the Content-Type header names; let the HTTP client build the body (curl -F, a FormData body)`,
          { cause: error },
        ),
      ),
    );
    parser.on('close', () => {
      void Promise.all(writes).then(() => (failed ? undefined : resolve()));
    });
    source.on('error', (error) =>
      fail(
        error instanceof ApiError ? error : new ApiError('invalid_request', `the upload was interrupted (${error.message}): the body ended before it was complete; send the request again`, { cause: error }),
        true,
      ),
    );
    source.pipe(parser);
  });

  try {
    await done;
  } catch (error) {
    await Promise.allSettled(writes);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // Files are pushed as their writes finish; report them in arrival order.
  files.sort((a, b) => a.path.localeCompare(b.path));
  return files;
}
