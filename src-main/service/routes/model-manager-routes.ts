/**
 * The model manager's routes, for the local account only (auth/local-account-only.ts, applied by app.ts to every
 * /v1/local route; other accounts get 404 — they read what is installed from the public catalogue, which carries
 * no paths of this machine):
 *   GET    /v1/local/models                 packages with install state and progress  → 200 {object, curated_list_version, data}
 *   POST   /v1/local/models                 {id?, name?, url, sha256, size_bytes?, family?, languages?}: add a
 *                                           model by URL and start its download        → 202 PackageStatus
 *   GET    /v1/local/models/{id}            one package                               → 200 PackageStatus
 *   POST   /v1/local/models/{id}/download   start or join a download; body optional: {accept_unconfirmed: true}
 *                                           installs a package whose pin nobody confirms, unverified
 *                                           (without it such a package is 409)         → 202 PackageStatus (200 when installed)
 *   DELETE /v1/local/models/{id}/download   cancel it and delete the partial files     → 200 PackageStatus
 *   DELETE /v1/local/models/{id}            remove an installed package                → 200 {id, object, deleted}
 *   POST   /v1/local/models/import          {path, id?, family?, name?, languages?}    → 202 PackageStatus (importing)
 * The service runs on the user's machine, so `path` is a path on that machine (the desktop app's folder dialog). An
 * import is checked at once (the path, the id, the family: a wrong folder is 400 naming what is missing) and then
 * copied in the background like a download: GET shows `importing` with progress, then `installed` or `failed`;
 * DELETE …/download cancels it, DELETE on a failed import forgets it. Links pointing outside the folder are not
 * followed (models/imports/import-plan.ts).
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { CURATED_LIST_VERSION } from '../../models/packages/curated-models.js';
import type { ModelManager } from '../../models/model-manager.js';
import type { AppEnv } from '../app-env.js';
import { optionalString, readJsonObject } from '../http/json-body.js';
import { requestHeader } from '../http/node-request.js';
import type { Context } from 'hono';

function stringList(body: Record<string, unknown>, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new ApiError('invalid_request', `${field} must be an array of strings`);
  }
  return value as string[];
}

/** Mounted before the public catalogue routes, behind the auth and local-account-only middlewares. */
export function modelManagerRoutes(manager: ModelManager): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/v1/local/models', async (c) => c.json(await manager.addFromUrl(await readJsonObject(c)), 202));
  // Reads look for what another process or node committed first (a package imported through another API node).
  app.get('/v1/local/models', async (c) => {
    await manager.refresh();
    return c.json({ object: 'list', curated_list_version: CURATED_LIST_VERSION, data: manager.list() });
  });
  app.post('/v1/local/models/import', async (c) => {
    const body = await readJsonObject(c);
    const path = optionalString(body, 'path');
    if (!path || !path.trim()) throw new ApiError('invalid_request', 'path is required: the model folder (or .onnx file) to import');
    const id = optionalString(body, 'id');
    const family = optionalString(body, 'family');
    const name = optionalString(body, 'name');
    const languages = stringList(body, 'languages');
    const status = await manager.startImport(path, {
      ...(id !== null ? { id } : {}),
      ...(family !== null ? { family } : {}),
      ...(name !== null ? { name } : {}),
      ...(languages ? { languages } : {}),
    });
    return c.json(status, 202);
  });
  app.get('/v1/local/models/:id', async (c) => {
    await manager.refresh();
    return c.json(manager.status(c.req.param('id')!));
  });
  app.post('/v1/local/models/:id/download', async (c) => {
    const status = manager.pull(c.req.param('id')!, await downloadOptions(c));
    return c.json(status, status.installed ? 200 : 202);
  });
  app.delete('/v1/local/models/:id/download', async (c) => c.json(await manager.cancel(c.req.param('id')!)));
  app.delete('/v1/local/models/:id', async (c) => {
    const id = c.req.param('id')!;
    await manager.remove(id);
    return c.json({ id, object: 'local_model', deleted: true });
  });
  return app;
}

/** The download's optional JSON body: nothing, or {accept_unconfirmed: boolean}. */
async function downloadOptions(c: Context<AppEnv>): Promise<{ acceptUnconfirmed: boolean }> {
  if (!requestHeader(c, 'content-type') && (requestHeader(c, 'content-length') ?? '0') === '0') return { acceptUnconfirmed: false };
  const body = await readJsonObject(c);
  refuseUnknownFields(body, ['accept_unconfirmed']);
  const accept = body.accept_unconfirmed ?? false;
  if (typeof accept !== 'boolean') throw new ApiError('invalid_request', 'accept_unconfirmed must be true or false');
  return { acceptUnconfirmed: accept };
}
