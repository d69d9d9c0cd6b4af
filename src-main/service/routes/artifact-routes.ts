/**
 * GET /v1/artifacts/{token}/{name}: the unguessable download link of a job's audio (no key: the token is the
 * secret, so links work in <audio> tags and curl). Unknown token or name → 404; expired or deleted → 410
 * artifact_expired; otherwise the file is streamed with its type, length and a download file name (single byte
 * ranges → 206, so browsers can seek in audio).
 */
import { Hono } from 'hono';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ApiError } from '../../common/errors.js';
import { toFound } from '../../store/artifacts-repo.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';

/** RFC 6266 filename parameters: an ASCII fallback and the UTF-8 name. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
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

export function artifactRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const repo = deps.repos.artifacts;
  app.get('/v1/artifacts/:token/:name', async (c) => {
    const found = repo.byToken(c.req.param('token'));
    const row = found ? toFound(found, new Date()) : undefined;
    if (!row || row.fileName !== c.req.param('name')) throw new ApiError('not_found', 'no such artifact');
    if (row.expired) throw new ApiError('artifact_expired', 'this download link has expired (links live one day); the job record remains');
    let size: number;
    try {
      size = (await stat(row.path)).size;
    } catch {
      throw new ApiError('artifact_expired', 'the file behind this link has been deleted; the job record remains');
    }
    const headers: Record<string, string> = {
      'Content-Type': row.contentType,
      'Content-Disposition': contentDisposition(row.fileName),
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Accept-Ranges': 'bytes',
    };
    // One byte range (what <audio> seeking asks for); anything else gets the whole file.
    const range = parseRange(c.req.header('range'), size);
    if (range === 'unsatisfiable') {
      return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const stream = size === 0 ? Readable.from([]) : createReadStream(row.path, { start, end });
    const body = Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
    headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    return new Response(body, { status: range ? 206 : 200, headers });
  });
  return app;
}
