/**
 * Sends a file on disk as an HTTP answer (a short one in one write, a longer one streamed) with single byte-range
 * support, which is what an `<audio>` element asks for when it seeks (and what curl -r sends):
 * `Range: bytes=a-b | a- | -n` → 206 with Content-Range; a range past
 * the end → 416 with `Content-Range: bytes *\/size`; no Range, or one this does not serve (several ranges, other
 * units) → 200 with the whole file. Always `Accept-Ranges: bytes` and `X-Content-Type-Options: nosniff`. Shared by
 * the artifact links and the transcription recording route, so both seek the same way.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';

/** RFC 6266 filename parameters: an ASCII fallback and the UTF-8 name. */
export function contentDisposition(name: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size`; null for no/unsupported Range; 'unsatisfiable' past the end. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export interface FileToSend {
  path: string;
  /** Bytes, from a stat made just before (the length and ranges are computed from it). */
  size: number;
  contentType: string;
  /** Further headers (Content-Disposition, Cache-Control…). */
  headers?: Record<string, string>;
}

/** Files up to this size (256 KiB: a few seconds of speech) are read whole and sent in one write; longer ones stream. */
export const SMALL_FILE_BYTES = 256 * 1024;

/**
 * `length` bytes at `start`, read synchronously (short files only); null when the file is now shorter or cannot be
 * opened (then it is streamed, and fails there as it always did).
 */
function readExactly(path: string, start: number, length: number): Uint8Array<ArrayBuffer> | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const bytes = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, bytes, done, length - done, start + done);
      if (n === 0) return null;
      done += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** The answer to a GET of `file` given the request's Range header (see the docblock). */
export function fileResponse(file: FileToSend, rangeHeader: string | undefined): Response {
  const { path, size } = file;
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'X-Content-Type-Options': 'nosniff',
    'Accept-Ranges': 'bytes',
    ...file.headers,
  };
  const range = parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  const status = range ? 206 : 200;
  if (size <= SMALL_FILE_BYTES) {
    // A short file is read at once and sent in one write: a stream of it cost an open, a read, a close on the thread
    // pool and a web-stream round trip each, which was most of fetching a short clip (a forwarded job downloads one).
    const bytes = size === 0 ? new Uint8Array(0) : readExactly(path, start, end - start + 1);
    if (bytes) return new Response(bytes, { status, headers });
  }
  const stream = size === 0 ? Readable.from([]) : createReadStream(path, { start, end });
  const body = Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
