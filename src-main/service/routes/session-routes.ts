/**
 * GET /v1/session/bootstrap: gives the browser UI (served by this service with --ui) a key for the local account,
 * so it works without typing one. Safe because all of these must hold:
 * - it exists only when serveUi is on (the operator chose browser mode);
 * - the TCP peer is loopback (no other machine can ask, even with --host 0.0.0.0);
 * - the Host header names this service's own address (a DNS-rebinding page carries its own host name);
 * - the browser's Origin, when sent, is the service's own origin (other pages' fetches are refused; and without
 *   CORS headers they could not read the answer anyway);
 * - the key is a per-process session key, held in memory only, gone when the service stops.
 */
import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../../common/errors.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function sessionRoutes(deps: AppDeps, sessionKey: string | null): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/session/bootstrap', (c) => {
    if (!deps.config.serveUi || !sessionKey) throw new ApiError('not_found', 'the session bootstrap exists only in browser mode (--ui)');
    let address: string | undefined;
    try {
      address = getConnInfo(c).remote.address;
    } catch {
      address = undefined;
    }
    if (!address || !LOOPBACK.test(address)) throw new ApiError('forbidden_origin', 'the session bootstrap answers loopback clients only');
    if (!deps.origins.isOwnHost(c.req.header('host'))) throw new ApiError('forbidden_origin', 'the Host header does not name this service');
    const origin = c.req.header('origin');
    if (origin && !deps.origins.isOwn(origin)) throw new ApiError('forbidden_origin', `origin ${origin} may not open a session`);
    const fetchSite = c.req.header('sec-fetch-site');
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') throw new ApiError('forbidden_origin', 'cross-site requests may not open a session');
    c.header('Cache-Control', 'no-store');
    const owner = deps.sessionKeys.get(sessionKey);
    return c.json({
      api_key: sessionKey,
      account_id: owner?.accountId ?? null,
      account: owner?.accountName ?? null,
      // The page runs on this machine and the user chose this folder: Settings shows it so they can find their files.
      data_dir: deps.config.dataDir,
    });
  });
  return app;
}
