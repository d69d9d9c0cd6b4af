/**
 * GET /v1/artifacts/{token}/{name}: the unguessable download link of a job's audio (no key: the token is the
 * secret, so links work in <audio> tags and curl). Unknown token or name → 404; expired or deleted → 410
 * artifact_expired; otherwise the file is streamed with its type, length and a download file name (single byte
 * ranges → 206, so browsers can seek in audio). With object storage the file is fetched from the bucket into this
 * node's cache first (streamed), so every API node serves every link (docs/cluster.md says why links are not
 * presigned).
 */
import { Hono } from 'hono';
import { stat } from 'node:fs/promises';
import { ApiError } from '../../common/errors.js';
import { toFound } from '../../store/artifacts-repo.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { publicRoute } from '../http/route-access.js';
import { contentDisposition, fileResponse } from '../http/file-response.js';

export function artifactRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const repo = deps.store.repos.artifacts;
  app.get('/v1/artifacts/:token/:name', publicRoute, async (c) => {
    const found = await repo.byToken(c.req.param('token'));
    const row = found ? toFound(found, new Date()) : undefined;
    if (!row || row.fileName !== c.req.param('name')) throw new ApiError('not_found', 'no such artifact');
    if (row.expired) throw new ApiError('artifact_expired', 'this download link has expired (links live one day); the job record remains');
    let path: string;
    let size: number;
    try {
      path = await deps.files.local(row.path);
      size = (await stat(path)).size;
    } catch (error) {
      if (deps.files.kind === 's3' && (error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ApiError('upstream_unavailable', `the file behind this link could not be read from storage (${(error as Error).message}); try again`, { cause: error });
      }
      throw new ApiError('artifact_expired', 'the file behind this link has been deleted; the job record remains');
    }
    const headers = { 'Content-Disposition': contentDisposition(row.fileName), 'Cache-Control': 'private, max-age=3600' };
    return fileResponse({ path, size, contentType: row.contentType, headers }, c.req.header('range'));
  });
  return app;
}
