/**
 * GET/PUT /v1/settings/remote (key required): the hosted service this desktop forwards jobs to. The key is write
 * only: answers carry `key_set`, never the key. PUT body `{url: string|null, key?: string|null}` — `key` omitted
 * keeps the stored key, '' or null clears it; `url` null turns forwarding off (hosted rows leave the catalogue).
 * Only the local account may read or change where jobs are forwarded (auth/local-account-only.ts, applied by
 * app.ts to every /v1/settings route): on a service shared by several accounts another account must not redirect the
 * owner's work.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import type { RemoteProvider } from '../../remote/remote-provider.js';
import { normaliseRemoteUrl } from '../../remote/remote-settings-store.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';

export function hostedSettingsRoutes(remote: RemoteProvider): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/settings/remote', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(remote.view());
  });

  app.put('/v1/settings/remote', async (c) => {
    const body = await readJsonObject(c);
    for (const field of Object.keys(body)) {
      if (field !== 'url' && field !== 'key') throw new ApiError('invalid_request', `unknown field ${field} (expected url, key)`);
    }
    if (!('url' in body)) throw new ApiError('invalid_request', 'url is required (a URL, or null to stop forwarding)');
    const url = body.url;
    if (url !== null && (typeof url !== 'string' || !url.trim())) throw new ApiError('invalid_request', 'url must be a non-empty string or null');
    const key = body.key;
    if (key !== undefined && key !== null && typeof key !== 'string') throw new ApiError('invalid_request', 'key must be a string or null');
    if (typeof key === 'string' && /\s/.test(key)) throw new ApiError('invalid_request', 'key must not contain spaces');
    let normalised: string | null = null;
    try {
      normalised = url === null ? null : normaliseRemoteUrl(url);
    } catch (cause) {
      throw new ApiError('invalid_request', (cause as Error).message, { cause });
    }
    c.header('Cache-Control', 'no-store');
    return c.json(await remote.update({ url: normalised, key: key as string | null | undefined }));
  });
  return app;
}
