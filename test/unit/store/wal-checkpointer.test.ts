/**
 * The WAL is checkpointed by the checkpoint thread, not inside the service connection's commits
 * (store/wal-checkpointer.ts): with the thread running, commits never copy pages themselves, yet the WAL stays as
 * small as with SQLite's automatic checkpoint; when the thread stops, the automatic checkpoint is back.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { startWalCheckpointer, type WalCheckpointer } from '../../../src-main/store/wal-checkpointer.js';
import { scaled } from '../../helpers/time-scale.js';

const here = new URL('.', import.meta.url);

const dirs: string[] = [];
const opened: { db: Db; checkpointer?: WalCheckpointer }[] = [];

afterEach(async () => {
  for (const { db, checkpointer } of opened.splice(0)) {
    await checkpointer?.stop();
    if (db.open) db.close();
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDatabase(): { db: Db; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-checkpoint-'));
  dirs.push(dir);
  const file = join(dir, 'voxdesk.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE blob_rows (id INTEGER PRIMARY KEY, body BLOB)');
  return { db, file };
}

/** Commits one row of `bytes` random bytes (so that no page compresses away) in a transaction of its own. */
function commitRow(db: Db, bytes: number): void {
  db.prepare('INSERT INTO blob_rows (body) VALUES (randomblob(?))').run(bytes);
}

const walPages = (db: Db): number => (db.pragma('wal_checkpoint(NOOP)') as { log: number }[])[0]?.log ?? 0;

describe('WAL checkpointer', () => {
  it('turns off the commits’ own checkpoint while the thread runs, and gives it back when stopped', async () => {
    const { db, file } = freshDatabase();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const checkpointer = await startWalCheckpointer(db, file, { intervalMs: 20 });
    opened.push({ db, checkpointer });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('copies committed pages from the thread, so the WAL rewinds instead of growing', async () => {
    const { db, file } = freshDatabase();
    const checkpointer = await startWalCheckpointer(db, file, { intervalMs: 20 });
    opened.push({ db, checkpointer });
    // 12 commits of 1.5 MB: 4.4k pages in all, past the 1,000 at which SQLite would checkpoint inside a commit.
    // The thread passes only when the database changed. A complete pass reported after a commit may have begun
    // before it (on a busy machine it often has): the commit is copied once the thread has gone quiet.
    const quiet = async (): Promise<void> => {
      for (;;) {
        const before = checkpointer.checkpoints;
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (checkpointer.checkpoints === before) return;
      }
    };
    for (let round = 0; round < 12; round += 1) {
      const copied = checkpointer.nextCheckpoint();
      commitRow(db, 1_500_000);
      await copied;
      await quiet();
    }
    expect(checkpointer.checkpoints).toBeGreaterThanOrEqual(12);
    // Each commit started a rewound WAL: it holds one commit's pages, not twelve, and the file never grew past two.
    expect(walPages(db)).toBeLessThan(800);
    expect(statSync(`${file}-wal`).size).toBeLessThan(2 * 1_600_000 + 64 * 1024);
    expect(db.prepare('SELECT count(*) AS n FROM blob_rows').get()).toEqual({ n: 12 });
  });

  it('a connection closed after the thread stopped leaves every row in the database file', async () => {
    const { db, file } = freshDatabase();
    const checkpointer = await startWalCheckpointer(db, file, { intervalMs: 20 });
    for (let round = 0; round < 3; round += 1) commitRow(db, 200_000);
    await checkpointer.stop();
    db.close();
    const again = openDatabase(file);
    opened.push({ db: again });
    expect(again.prepare('SELECT count(*) AS n FROM blob_rows').get()).toEqual({ n: 3 });
  });

  it('lets a process whose last handle it is stop the thread and close, instead of exiting half-way', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-checkpoint-'));
    dirs.push(dir);
    const script = `
      const { openDatabase } = await import(${JSON.stringify(new URL('../../../src-main/store/database.ts', here).href)});
      const { startWalCheckpointer } = await import(${JSON.stringify(new URL('../../../src-main/store/wal-checkpointer.ts', here).href)});
      const file = ${JSON.stringify(join(dir, 'voxdesk.db'))};
      const db = openDatabase(file);
      const checkpointer = await startWalCheckpointer(db, file, { intervalMs: 20 });
      await checkpointer.stop();
      db.close();
      console.log('closed');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: scaled(60_000) });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('closed');
    expect(child.status).toBe(0);
  });
});
