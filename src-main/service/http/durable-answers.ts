/**
 * An answer to a request that changes something — a job accepted, a batch, an edit saved, a setting, a key — is sent
 * only once what it committed is on disk (store/durability.ts: one fsync of the WAL shared by the answers waiting
 * at that moment). "Accepted" and "saved" then mean it through a power cut, not only through a crash or a kill
 * (docs/job-engine.md, Durability). Reads answer at once: they acknowledge nothing.
 */
import type { MiddlewareHandler } from 'hono';
import type { Durability } from '../../store/durability.js';

/** Mounted on the writing methods only (service/app.ts). */
export function durableAnswers(durability: Durability): MiddlewareHandler {
  return async (_c, next) => {
    await next();
    await durability.flush();
  };
}
