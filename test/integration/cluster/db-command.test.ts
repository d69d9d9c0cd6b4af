/**
 * `voxdesk db migrate|status` and `voxdesk keys --database` against a real PostgreSQL (test/helpers/postgres.ts), as
 * an operator runs them: the exit codes (0 done, 1 unusable, 2 a newer schema, 3 pending) and messages that say what
 * to do.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { scaled } from '../../helpers/time-scale.js';

const run = promisify(execFile);
let db: TestDatabase;
let dataDir: string;

async function voxdesk(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, VOXDESK_DATA_DIR: dataDir };
  delete env.VOXDESK_DATABASE_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'bin/voxdesk.js'), ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  db = await createTestDatabase('db-command');
  dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-db-command-'));
});
afterAll(async () => {
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('voxdesk db', () => {
  it('status says pending (exit 3) on an empty database; migrate applies everything, then nothing', async () => {
    const before = await voxdesk(['db', 'status', '--database', db.url]);
    expect(before.code).toBe(3);
    expect(before.stdout).toMatch(/^database schema 0, this Voxdesk knows \d+ \(voxdesk db migrate applies the rest\)$/m);
    const first = await voxdesk(['db', 'migrate', '--database', db.url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^applied \d+ migration\(s\) \([\d, ]+\); schema version \d+$/m);
    const again = await voxdesk(['db', 'migrate', '--database', db.url]);
    expect(again.stdout).toMatch(/^schema is current \(version \d+\); nothing to apply$/m);
    expect((await voxdesk(['db', 'status', '--database', db.url])).code).toBe(0);
  }, scaled(60_000));

  it('keys work on the cluster database: create, list, revoke', async () => {
    const created = await voxdesk(['keys', 'create', '--database', db.url, '--account', 'newsroom', '--name', 'ingest']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toMatch(/^vdk_/);
    const listed = JSON.parse((await voxdesk(['keys', 'list', '--json', '--database', db.url])).stdout) as { data: { id: string; account: string; name: string }[] };
    const key = listed.data.find((k) => k.account === 'newsroom')!;
    expect(key.name).toBe('ingest');
    expect((await voxdesk(['keys', 'revoke', key.id, '--database', db.url])).stdout).toContain(`${key.id} revoked`);
  }, scaled(60_000));

  it('refuses a database written by a newer Voxdesk with exit 2, and says what to do', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await pool.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from-the-future', '2030-01-01T00:00:00.000Z')");
      const migrate = await voxdesk(['db', 'migrate', '--database', db.url]);
      expect(migrate.code).toBe(2);
      expect(migrate.stderr).toContain('written by a newer Voxdesk (schema 9999');
      expect(migrate.stderr).toContain('upgrade this installation');
      expect((await voxdesk(['db', 'status', '--database', db.url])).code).toBe(2);
    } finally {
      await pool.query('DELETE FROM schema_migrations WHERE version = 9999');
      await pool.end();
    }
  }, scaled(60_000));

  it('exits 1 with where to fix it when no database is given, the URL is not PostgreSQL’s, or nothing answers there', async () => {
    const none = await voxdesk(['db', 'migrate']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no database given: pass --database postgres://');
    const wrong = await voxdesk(['db', 'migrate', '--database', 'mysql://localhost/voxdesk']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--database must be a PostgreSQL URL');
    const closed = await voxdesk(['db', 'status', '--database', 'postgres://nobody:secret@127.0.0.1:1/voxdesk']);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain('check the URL given with --database');
    expect(closed.stderr).not.toContain('secret');
    const worker = await voxdesk(['worker']);
    expect(worker.code).toBe(1);
    expect(worker.stderr).toContain('a worker needs the cluster\'s database');
  }, scaled(60_000));
});
