/**
 * The connection pool of the PostgreSQL store (node-postgres). Values come back as the SQLite repositories give them:
 * `bigint` (what SQLite's INTEGER is here, postgres-baseline.ts) and the `numeric` a SUM of bigints answers are read
 * as JavaScript numbers, not the strings node-postgres gives by default — micro-dollars, counts and ids stay far
 * below 2^53. These parsers belong to this pool only (not node-postgres's global table).
 *
 * Every connection names the node it belongs to (`voxdesk.node`, a setting given when it connects): the change
 * notifications the database sends on every commit carry it, so a node tells its own commits from the others'
 * (change-feed.ts).
 */
import pg from 'pg';

export interface PoolOptions {
  /** Connections at most (default 10). */
  max?: number;
  /** This node's id, carried by the change notifications its commits send. */
  nodeId: string;
  /** `application_name`, seen in pg_stat_activity (default "voxdesk"). */
  applicationName?: string;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

const toNumber = (text: string): number => Number(text);

/** node-postgres's type parsers, with bigint and numeric read as numbers. */
export const STORE_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === INT8_OID || oid === NUMERIC_OID) return toNumber;
    return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
  },
};

/** A value inside a startup `options` string: spaces and backslashes escaped as libpq reads them. */
const optionValue = (value: string): string => value.replace(/[\\ ]/g, (ch) => `\\${ch}`);

/**
 * What a connection needs to reach the database: the URL, this pool's type parsers and, when `nodeId` is given, the
 * `voxdesk.node` setting as a startup option (no extra round trip). node-postgres lets the URL's own parameters win
 * over the config's, so options the URL carries (`?options=-c search_path=…`) are moved into the config and kept.
 */
export function connectionConfig(url: string, applicationName = 'voxdesk', nodeId?: string): pg.ClientConfig {
  let connectionString = url;
  const options: string[] = [];
  if (/^postgres(ql)?:\/\//.test(url)) {
    const parsed = new URL(url);
    const given = parsed.searchParams.get('options');
    if (given !== null) {
      options.push(given);
      parsed.searchParams.delete('options');
      connectionString = parsed.toString();
    }
  }
  if (nodeId !== undefined) options.push(`-c voxdesk.node=${optionValue(nodeId)}`);
  return {
    connectionString,
    types: STORE_TYPES,
    application_name: applicationName,
    ...(options.length > 0 ? { options: options.join(' ') } : {}),
  };
}

export function createPool(url: string, options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({ ...connectionConfig(url, options.applicationName, options.nodeId), max: options.max ?? 10 });
  // An idle connection the server closed (a restart, a network cut) reports here; the pool drops it and opens
  // another on the next query. Without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}

/** A pooled connection held by a transaction or a migration, and how to give it back. */
export interface Checkout {
  client: pg.PoolClient;
  /** Gives the connection back; one that failed (or `destroy`) is closed instead of reused. */
  release(destroy?: boolean): void;
}

/**
 * Takes a connection from the pool for a while. A held connection that the server or the network drops reports an
 * 'error' event of its own, which would end the process without a listener (the pool listens only to idle ones):
 * the statement in flight fails with the error anyway, and the connection is closed when given back.
 */
export async function checkout(pool: pg.Pool): Promise<Checkout> {
  const client = await pool.connect();
  let failed = false;
  const onError = (): void => {
    failed = true;
  };
  client.on('error', onError);
  return {
    client,
    release(destroy = false) {
      client.removeListener('error', onError);
      client.release(destroy || failed);
    },
  };
}

/** The URL as it may be shown in a message or a log: its password left out. */
export function redactedUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** Errors that mean the database cannot be reached or entered (network, DNS, login, no such database). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', '28P01', '28000', '3D000']);

/** A failure to reach the database, said so the operator knows which URL and where to fix it; others unchanged. */
export function connectionFailure(url: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !UNREACHABLE.has(code)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`cannot use the PostgreSQL database at ${redactedUrl(url)}: ${reason} (check the URL given with --database or VOXDESK_DATABASE_URL, and that the server is running)`, { cause: error });
}
