/**
 * GET/PUT /v1/settings/budget (the local account only: the cap limits what this machine's hosted key spends for
 * every account): the monthly cap on hosted spending and where the month stands (BudgetSettings). PUT takes
 * `{"monthly_usd": number|null}` (jobs/budget-policy.ts parseBudgetUpdate); hosted work the cap held starts at once
 * as far as the new cap allows.
 */
import { Hono } from 'hono';
import { parseBudgetUpdate } from '../../jobs/money/budget-policy.js';
import type { JobService } from '../../jobs/engine/job-service-types.js';
import type { AppEnv } from '../app-env.js';
import { localAccountOnly } from '../auth/local-account-only.js';
import { readJsonObject } from '../http/json-body.js';

export function budgetSettingsRoutes(jobs: JobService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('/v1/settings/budget', localAccountOnly());
  app.get('/v1/settings/budget', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await jobs.budget());
  });
  app.put('/v1/settings/budget', async (c) => {
    const micro = parseBudgetUpdate(await readJsonObject(c));
    c.header('Cache-Control', 'no-store');
    return c.json(await jobs.setMonthlyCap(micro));
  });
  return app;
}
