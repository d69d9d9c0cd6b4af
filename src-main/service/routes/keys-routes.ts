/**
 * API keys, for the local account only (auth/local-account-only.ts covers /v1/keys):
 *   GET    /v1/keys        every key of every account → 200 {object: 'list', data: ApiKeyView[]}
 *   DELETE /v1/keys/{id}   revoke it                  → 200 ApiKeyView (revoked_at set; again → the same answer)
 * A view never carries the key or its hash: the key was shown once, at creation. A revoked key is refused on the
 * next HTTP request, and open live sessions with it end with an `unauthorized` error (api-keys.ts onRevoked).
 * The keys of this process's own sessions (browser UI, CLI) live in memory only and end with the process.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import type { ApiKeyInfo } from '../../store/accounts-repo.js';
import type { AppEnv } from '../app-env.js';
import type { ApiKeys } from '../auth/api-keys.js';

export interface ApiKeyView {
  id: string;
  object: 'api_key';
  account: string;
  account_id: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function apiKeyView(info: ApiKeyInfo): ApiKeyView {
  return {
    id: info.id,
    object: 'api_key',
    account: info.account,
    account_id: info.account_id,
    name: info.name,
    created_at: info.created_at,
    last_used_at: info.last_used_at,
    revoked_at: info.revoked_at,
  };
}

export function keysRoutes(keys: ApiKeys): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/keys', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ object: 'list', data: (await keys.list()).map(apiKeyView) });
  });
  app.delete('/v1/keys/:id', async (c) => {
    const id = c.req.param('id');
    if (!(await keys.get(id))) throw new ApiError('not_found', `no API key ${id}; GET /v1/keys lists them`);
    await keys.revoke(id);
    return c.json(apiKeyView((await keys.get(id))!));
  });
  return app;
}
