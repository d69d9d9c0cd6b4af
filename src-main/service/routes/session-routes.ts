/**
 * The browser UI's login (browser mode, `--ui`; see auth/browser-login.ts):
 *   POST /v1/session/bootstrap {token}   trades the one-time token printed by `serve --ui` for a session key of the
 *                                        local account → 200 {api_key, account_id, account, data_dir}
 *   GET  /v1/session                     what a key is (the page checks a key it kept) → 200 {account_id, account, data_dir}
 * The bootstrap is refused unless all of these hold:
 * - serveUi is on (the operator chose browser mode; otherwise 404);
 * - the TCP peer is loopback (no other machine can ask, even with --host 0.0.0.0);
 * - the Host header names this service's own address (a DNS-rebinding page carries its own host name);
 * - the browser's Origin, when sent, is the service's own origin, and Sec-Fetch-Site is not cross-site;
 * - the token is the one printed and not yet used: anything else (curl without it, a guess, a replay) is 401.
 * The session key lives in memory only and ends when the service stops. `data_dir` is given to the local account
 * only: the page runs on this machine and the person chose that folder; Settings shows it so they can find files.
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../../common/errors.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { publicRoute } from '../http/route-access.js';
import { clientAddress } from '../auth/auth-middleware.js';
import { rateLimited } from '../auth/authenticate.js';
import type { BrowserLogin } from '../auth/browser-login.js';
import { LOCAL_ACCOUNT } from '../config.js';
import { readJsonObject } from '../http/json-body.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const NO_TOKEN =
  'this page is not logged in: open the address `voxdesk serve --ui` printed (browser UI: http://…/#token=…); each printed address logs in one browser once';

export function sessionRoutes(deps: AppDeps, login: BrowserLogin | null): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  /** Every check but the token; throws the refusal. */
  const checkCaller = (c: Context<AppEnv>): BrowserLogin => {
    if (!deps.config.serveUi || !login) throw new ApiError('not_found', 'the session bootstrap exists only in browser mode (--ui)');
    const address = clientAddress(c);
    if (!LOOPBACK.test(address)) throw new ApiError('forbidden_origin', 'the session bootstrap answers loopback clients only');
    if (!deps.origins.isOwnHost(c.req.header('host'))) throw new ApiError('forbidden_origin', 'the Host header does not name this service');
    const origin = c.req.header('origin');
    if (origin && !deps.origins.isOwn(origin)) throw new ApiError('forbidden_origin', `origin ${origin} may not open a session`);
    const fetchSite = c.req.header('sec-fetch-site');
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') throw new ApiError('forbidden_origin', 'cross-site requests may not open a session');
    return login;
  };

  app.get('/v1/session/bootstrap', publicRoute, (c) => {
    checkCaller(c);
    throw new ApiError('unauthorized', NO_TOKEN);
  });

  app.post('/v1/session/bootstrap', publicRoute, async (c) => {
    const browserLogin = checkCaller(c);
    const body = await readJsonObject(c);
    // A wrong token is a failed key check (auth/failed-auth-limiter.ts); while the address is blocked even the right
    // one waits, unspent: no guessing oracle.
    const address = clientAddress(c);
    const wait = deps.limiter.retryAfter(address);
    if (wait > 0) throw new ApiError('rate_limited', `too many failed key checks from ${address}; try again in ${wait} s`, { retryAfterSeconds: wait });
    const key = browserLogin.redeem(typeof body.token === 'string' ? body.token : null);
    const limited = rateLimited(deps.limiter, address, key ? `session:${key}` : null);
    if (limited) throw limited;
    if (!key) throw new ApiError('unauthorized', `the login token is wrong or was used already; ${NO_TOKEN}`);
    c.header('Cache-Control', 'no-store');
    const owner = deps.sessionKeys.get(key)!;
    return c.json({ api_key: key, account_id: owner.accountId, account: owner.accountName, data_dir: deps.config.dataDir });
  });

  app.get('/v1/session', (c) => {
    const owner = c.get('owner');
    c.header('Cache-Control', 'no-store');
    return c.json({ account_id: owner.accountId, account: owner.accountName, data_dir: owner.accountName === LOCAL_ACCOUNT ? deps.config.dataDir : null });
  });
  return app;
}
