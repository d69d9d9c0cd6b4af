/**
 * GET/PUT /v1/settings/watch-folders (docs/watch-folders.md): the folders whose new recordings are transcribed by
 * themselves, each with its status. PUT replaces the whole list (`{"folders": []}` stops watching) and answers like
 * GET. Like every /v1/settings route only the local account may read or change it (auth/local-account-only.ts,
 * applied by app.ts by path prefix): the folders are this computer's.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import { parseWatchFolders, refuseMissingNewFolders } from '../watch-folders/watch-folders-body.js';

export function watchFolderRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/settings/watch-folders', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ folders: await deps.watch.list() });
  });

  app.put('/v1/settings/watch-folders', async (c) => {
    const folders = parseWatchFolders(deps, await readJsonObject(c));
    await refuseMissingNewFolders(folders, await deps.watch.list());
    c.header('Cache-Control', 'no-store');
    return c.json({ folders: await deps.watch.replace(folders) });
  });
  return app;
}
