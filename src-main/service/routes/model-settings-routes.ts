/**
 * GET/PUT /v1/settings/models (key required; local account only, like every /v1/settings route: app.ts applies
 * auth/local-account-only.ts): where model downloads come from.
 * GET answers `{mirror, mirror_from, ca_file, ca_file_from, proxy: {https, http, no_proxy}}` — `*_from` is
 * `setting`, `environment` (VOXDESK_MODEL_MIRROR / VOXDESK_CA_FILE) or null; the proxies are the service's
 * environment variables, read only, without credentials. PUT `{mirror?, ca_file?}`: an omitted field keeps its
 * value, null or '' clears the setting (the environment's value applies again); a bad mirror URL or an unreadable
 * or certificate-less CA file is 400 `invalid_request`, an unknown field 400 `unsupported_param`. The next download
 * uses the new values; running ones keep theirs.
 */
import { Hono } from 'hono';
import { downloadSettingsView, saveDownloadSettings } from '../../models/downloads/download-source.js';
import type { ModelManager } from '../../models/model-manager.js';
import type { AsyncSettingsRepo } from '../../store/store.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';

export function modelSettingsRoutes(manager: ModelManager, settings: AsyncSettingsRepo): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/settings/models', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(downloadSettingsView(await manager.downloadSource()));
  });
  app.put('/v1/settings/models', async (c) => {
    const body = await readJsonObject(c);
    await saveDownloadSettings(settings, body);
    c.header('Cache-Control', 'no-store');
    return c.json(downloadSettingsView(await manager.downloadSource()));
  });
  return app;
}
