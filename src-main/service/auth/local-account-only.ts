/**
 * Local-account-only administration. Routes that change or reveal the machine itself — the model manager (it copies
 * folders of this computer, downloads and deletes files, adds models every account then runs), every setting (the
 * hosted service jobs are forwarded to, retention, and whatever settings come next: watch folders, budget, mirrors)
 * the API keys, and meeting capture (it records this computer's microphone and sound) — belong to the person who owns the computer: the `local` account (its CLI, desktop app and
 * browser-UI keys). On a service shared with other accounts (`keys create --account NAME`), those accounts get
 * 404 not_found, the answer an unknown route gets, so they learn nothing of the machine.
 *
 * The app applies it by path prefix (ADMIN_PATH_PREFIXES), so a route added later under one of these prefixes is
 * covered without anyone remembering to; the test over every registered route keeps that true.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../common/errors.js';
import type { AppEnv } from '../app-env.js';
import { LOCAL_ACCOUNT } from '../config.js';
import { gate } from '../http/route-gates.js';

/** Path prefixes of the machine's administration routes: everything at or under them is local-account only. */
export const ADMIN_PATH_PREFIXES = ['/v1/local', '/v1/settings', '/v1/keys', '/v1/captures'] as const;

/** The prefixes as folders ("/v1/local/"), made once: the check runs on every /v1 request. */
const ADMIN_FOLDERS = ADMIN_PATH_PREFIXES.map((prefix) => `${prefix}/`);

/** True when `path` is one of the administration routes. */
export function isAdminPath(path: string): boolean {
  return ADMIN_PATH_PREFIXES.some((prefix, i) => path === prefix || path.startsWith(ADMIN_FOLDERS[i]!));
}

/**
 * Runs after the auth gate (it needs the key's owner): any account but the local one gets 404. A gate
 * (http/route-gates.ts); `onlyUnder` limits it to the administration paths when it is mounted on all of /v1.
 */
export function localAccountOnly(onlyUnder: ((path: string) => boolean) | null = null): MiddlewareHandler<AppEnv> {
  return gate((c: Context<AppEnv>) => {
    if (c.req.method === 'OPTIONS' || (onlyUnder && !onlyUnder(c.req.path))) return undefined;
    if (c.get('owner').accountName !== LOCAL_ACCOUNT) {
      throw new ApiError('not_found', `no route ${c.req.method} ${new URL(c.req.url).pathname} for this key (the machine's settings, models, keys and captures answer the local account only)`);
    }
    return undefined;
  });
}
