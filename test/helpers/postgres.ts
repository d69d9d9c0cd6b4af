/**
 * A private PostgreSQL for the tests: Debian's `postgresql` (15 or newer), a cluster made with `initdb` in a temporary
 * directory and started with `pg_ctl` on a free loopback port, and a fresh database per test file.
 *
 * One cluster per vitest worker slot (VITEST_POOL_ID), shared by every file that slot runs: the first file to need
 * it makes and starts it (about a second), later ones find it running. The test run's global setup stops and removes
 * the clusters of the run at its end, and clusters left behind by a run that died. Databases are made from
 * template0 and dropped by the file that made them.
 *
 * PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (`runuser -u postgres`).
 * It trades durability for speed (fsync off), which only a test may. A missing PostgreSQL fails the test with the
 * package to install — never a skip (CI=true or not).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where the clusters of test runs live: `voxdesk-pg-<run>-<slot>` under the system's temp folder. */
const CLUSTER_PREFIX = 'voxdesk-pg-';
const SUPERUSER = 'voxdesk_test';

export interface TestDatabase {
  /** A connection URL for the database. */
  url: string;
  name: string;
  /** Drops the database (its connections are closed first). */
  drop(): Promise<void>;
}

interface Cluster {
  dir: string;
  port: number;
}

/** The newest PostgreSQL of Debian's layout (/usr/lib/postgresql/N/bin), 15 at least. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((v) => v >= 15 && existsSync(join(root, String(v), 'bin', 'initdb')))
        .sort((a, b) => b - a)
    : [];
  if (versions.length === 0) {
    throw new Error('PostgreSQL 15 or newer is not installed (Debian package postgresql): run bash .ci/system-packages.sh');
  }
  return join(root, String(versions[0]), 'bin');
}

const asRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL program as the user that owns the cluster. */
function runPg(program: string, args: string[]): string {
  const bin = join(postgresBinDir(), program);
  const [command, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: 'utf8', cwd: tmpdir() });
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
  return result.stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function running(dir: string): boolean {
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'postmaster.pid'))) return false;
  const bin = join(postgresBinDir(), 'pg_ctl');
  const [command, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, 'status', '-D', data]] : [bin, ['status', '-D', data]];
  return spawnSync(command, argv, { stdio: 'ignore', cwd: tmpdir() }).status === 0;
}

function clusterDir(run: string, slot: string): string {
  return join(tmpdir(), `${CLUSTER_PREFIX}${run}-${slot}`);
}

/** The run id the global setup gave (its process id), or this process's parent's when run without it. */
function runId(): string {
  return process.env.VOXDESK_TEST_RUN ?? String(process.ppid);
}

async function startCluster(dir: string): Promise<Cluster> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const data = join(dir, 'data');
  mkdirSync(data, { mode: 0o700 });
  if (asRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chownSync(data, uid, gid);
  }
  runPg('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
  // The port was free a moment ago; another program (another test run on this machine) may take it first: try again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const settings = [
      `-c port=${port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${dir}'`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
      '-c shared_buffers=32MB',
    ].join(' ');
    try {
      runPg('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'server.log'), '-o', settings]);
    } catch (error) {
      if (attempt >= 3) throw error;
      continue;
    }
    writeFileSync(join(dir, 'port'), String(port));
    return { dir, port };
  }
}

let cluster: Promise<Cluster> | null = null;

/** This worker slot's cluster, started if it is not running. */
function slotCluster(): Promise<Cluster> {
  cluster ??= (async () => {
    const dir = clusterDir(runId(), process.env.VITEST_POOL_ID ?? '0');
    if (running(dir) && existsSync(join(dir, 'port'))) return { dir, port: Number(readFileSync(join(dir, 'port'), 'utf8')) };
    return startCluster(dir);
  })();
  cluster.catch(() => (cluster = null));
  return cluster;
}

export function clusterUrl(port: number, database: string): string {
  return `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
}

/** A new, empty database on this worker's cluster. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const { port } = await slotCluster();
  const name = `${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase().slice(0, 30)}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: clusterUrl(port, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0`);
  } finally {
    await admin.end();
  }
  return {
    url: clusterUrl(port, name),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: clusterUrl(port, 'postgres') });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

function stopCluster(dir: string): void {
  const data = join(dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    try {
      runPg('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
    } catch {
      // already stopped
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stops and removes the clusters of test run `run`, and those of runs whose process is gone. */
export function removeClusters(run: string): void {
  if (!existsSync('/usr/lib/postgresql')) return;
  for (const name of readdirSync(tmpdir())) {
    const match = new RegExp(`^${CLUSTER_PREFIX}(\\d+)-\\w+$`).exec(name);
    if (!match) continue;
    if (match[1] === run || !alive(Number(match[1]))) stopCluster(join(tmpdir(), name));
  }
}
