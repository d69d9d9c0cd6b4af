/**
 * A role only one node of a cluster plays at a time — the watch folders' owner: two nodes watching the same shared
 * folder would both queue its new files. The role is a session advisory lock held on a connection of its own, so
 * PostgreSQL itself gives the role up when that session ends: a node that dies, or loses the database, frees it
 * without a timeout to wait for, and the other nodes, asking every ROLE_RETRY_MS, take it over. The node that loses
 * its connection stops playing the role at once (`lost`) and asks again like the others.
 */
import pg from 'pg';
import type { RoleClaim, RoleHandlers } from '../store.js';
import { connectionConfig } from './pool.js';

/** How often a node without the role asks for it (and reconnects after losing its connection). */
export const ROLE_RETRY_MS = 5000;
/** The first key of Voxdesk's role locks ("vx"); the second is the role name's hash. */
const ROLE_LOCK_CLASS = 0x7678;

export function claimPostgresRole(url: string, applicationName: string, name: string, handlers: RoleHandlers, retryMs = ROLE_RETRY_MS): RoleClaim {
  let client: pg.Client | null = null;
  let held = false;
  let released = false;
  let timer: NodeJS.Timeout | null = null;
  // gained/lost run one after the other, never overlapping.
  let turn: Promise<void> = Promise.resolve();
  const then = (step: () => Promise<void>): void => {
    turn = turn.then(step).catch(() => undefined);
  };

  const later = (): void => {
    if (released || timer) return; // one retry at a time, however the failure was heard
    timer = setTimeout(() => void attempt(), retryMs);
    timer.unref();
  };

  const drop = (dead: pg.Client): void => {
    if (client !== dead) return;
    client = null;
    dead.end().catch(() => {});
    if (held) {
      held = false;
      then(handlers.lost);
    }
    later();
  };

  async function attempt(): Promise<void> {
    timer = null;
    if (released) return;
    try {
      if (!client) {
        const next = new pg.Client({ ...connectionConfig(url, applicationName), keepAlive: true });
        next.on('error', () => drop(next));
        next.on('end', () => drop(next));
        try {
          await next.connect();
        } catch (error) {
          next.end().catch(() => {});
          throw error;
        }
        client = next;
      }
      const current = client;
      const answer = await current.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [ROLE_LOCK_CLASS, name]);
      if (released || client !== current) return;
      if (answer.rows[0]!.locked) {
        held = true;
        then(handlers.gained);
        return; // held until this session ends
      }
    } catch {
      // The database is unreachable, or the connection broke while asking: ask again later.
      if (client) drop(client);
      else later();
      return;
    }
    later();
  }

  void attempt();
  return {
    async release() {
      released = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = null;
      held = false;
      await turn;
      await last?.end().catch(() => {});
    },
  };
}
