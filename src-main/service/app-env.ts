/**
 * The one Hono environment of the service: what the auth middleware puts on the context (the key's owner). Every
 * route sub-app is typed with it, so `c.get('owner')` is checked everywhere. Its own file so route files need not
 * import app.ts (which imports them).
 */
import type { AuthVariables } from './auth/auth-middleware.js';

export type AppEnv = { Variables: AuthVariables };
