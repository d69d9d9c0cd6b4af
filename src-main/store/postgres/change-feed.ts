/**
 * The change notifications of the PostgreSQL store: one connection of its own LISTENs on CHANGE_CHANNEL, on which
 * every transaction that writes a row sends one notification carrying the writing node's id (the triggers
 * migrate.ts installs). The count of other nodes' notifications is the store's `othersVersion()` — what SQLite's
 * `PRAGMA data_version` is on one file: it moves whenever another node (or `voxdesk keys revoke`, or anything else
 * writing to the database) commits.
 *
 * A notification arrives a moment after its commit (usually well under a millisecond on one network), so a cache
 * that checks the count may serve a row for that moment after another node changed it. While the listening
 * connection is down, notifications are lost: then every read of the count answers a new value (no cache holds
 * anything), and the connection is opened again with a growing delay (0.1 s, doubling, at most 5 s).
 */
import pg from 'pg';
import { connectionConfig } from './pool.js';

export const CHANGE_CHANNEL = 'voxdesk_changes';

export interface ChangeFeed {
  /** Others' commits seen so far; a new number on every read while notifications may be missed. */
  version(): number;
  /** Calls `listener` on every notification (`own`: a commit of this node). Answers the unsubscribe. */
  onChange(listener: (own: boolean) => void): () => void;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;

/** Starts listening; resolves once the first LISTEN is in place (a commit after that is counted). */
export async function startChangeFeed(url: string, nodeId: string, applicationName?: string): Promise<ChangeFeed> {
  let count = 0;
  let connected = false;
  let closed = false;
  let client: pg.Client | null = null;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | null = null;
  const listeners = new Set<(own: boolean) => void>();

  /** Tries again later; the timer alone does not keep the process alive (the pool and the server do). */
  const retryLater = (): void => {
    if (closed) return;
    retryTimer = setTimeout(() => void connect().catch(() => {}), retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  const lost = (): void => {
    if (!connected && client === null) return;
    connected = false;
    const dead = client;
    client = null;
    dead?.removeAllListeners('notification');
    dead?.end().catch(() => {});
    count++;
    retryLater();
  };

  async function connect(): Promise<void> {
    retryTimer = null;
    if (closed) return;
    const next = new pg.Client(connectionConfig(url, applicationName));
    next.on('error', () => {
      if (client === next) lost();
    });
    next.on('end', () => {
      if (client === next) lost();
    });
    next.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      const own = message.payload === nodeId;
      if (!own) count++;
      for (const listener of listeners) listener(own);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      next.end().catch(() => {});
      retryLater();
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    connected = true;
    retryMs = FIRST_RETRY_MS;
    count++; // whatever was missed while not listening
    for (const listener of listeners) listener(false);
  }

  await connect().catch((error: unknown) => {
    closed = true;
    if (retryTimer) clearTimeout(retryTimer);
    throw error;
  });

  return {
    version: () => (connected ? count : ++count),
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const last = client;
      client = null;
      connected = false;
      listeners.clear();
      await last?.end().catch(() => {});
    },
  };
}
