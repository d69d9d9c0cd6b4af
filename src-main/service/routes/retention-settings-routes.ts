/**
 * GET/PUT /v1/settings/retention (key required): how long uploaded recordings and the job history are kept, and the
 * disk the recordings take now. Answers `{recordings_hours, job_history_days, artifact_link_hours, recordings_bytes}`;
 * artifact links are fixed at one day by the spec and cannot be set. PUT takes `{recordings_hours?, job_history_days?}`
 * (an omitted field keeps its value; recordings_hours null = as long as the job, job_history_days null = keep
 * forever); the job engine reads the policy at its next maintenance sweep. Like every
 * /v1/settings route, only the local account may read or change it (auth/local-account-only.ts, applied by app.ts):
 * the policy deletes every account's data.
 */
import { Hono } from 'hono';
import { mergeRetentionUpdate, readRetention, retentionSettings, saveRetention } from '../../jobs/retention/retention-policy.js';
import type { AsyncSettingsRepo } from '../../store/store.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import { diskUsage } from '../uploads/upload-budget.js';

/** `uploadsDir`: where every account's uploaded recordings are kept (their size is the answer's recordings_bytes). */
export function retentionSettingsRoutes(settings: AsyncSettingsRepo, uploadsDir: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/settings/retention', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(retentionSettings(await readRetention(settings), await diskUsage(uploadsDir)));
  });

  app.put('/v1/settings/retention', async (c) => {
    const body = await readJsonObject(c);
    const next = mergeRetentionUpdate(await readRetention(settings), body);
    await saveRetention(settings, next);
    c.header('Cache-Control', 'no-store');
    return c.json(retentionSettings(next, await diskUsage(uploadsDir)));
  });
  return app;
}
