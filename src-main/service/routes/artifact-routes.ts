/**
 * GET /v1/artifacts/{token}/{name}: the unguessable download link of a job's audio (no key: the token is the
 * secret, so links work in <audio> tags and curl). Unknown token or name → 404; expired or deleted → 410
 * artifact_expired; otherwise the file is streamed with its type, length and a download file name.
 */
import type { Hono } from 'hono';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ApiError } from '../../common/errors.js';
import { createArtifactsRepo, toFound } from '../../store/artifacts-repo.js';
import type { AppDeps } from '../app-deps.js';
import type { AuthVariables } from '../auth/auth-middleware.js';

/** RFC 6266 filename parameters: an ASCII fallback and the UTF-8 name. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function registerArtifactRoutes(app: Hono<{ Variables: AuthVariables }>, deps: AppDeps): void {
  const repo = createArtifactsRepo(deps.db);
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
    const body = Readable.toWeb(createReadStream(row.path)) as unknown as ReadableStream<Uint8Array>;
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': row.contentType,
        'Content-Length': String(size),
        'Content-Disposition': contentDisposition(row.fileName),
        'Cache-Control': 'private, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}
