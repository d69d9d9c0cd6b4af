/**
 * Routes that change the machine itself — what is downloaded and installed, where downloads come from — belong to
 * the local account (the desktop user, the CLI, the browser UI's bootstrap key). On a service shared with other
 * accounts they answer 404, as if the route did not exist, rather than telling those accounts what is there.
 * Mount after the auth middleware (it reads the key's owner).
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../common/errors.js';
import { LOCAL_ACCOUNT } from '../config.js';
import type { AuthVariables } from './auth-middleware.js';

export function localAccountOnly(what: string): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    if (c.get('owner').accountName !== LOCAL_ACCOUNT) throw new ApiError('not_found', `${what} belong to the local account`);
    return next();
  };
}
