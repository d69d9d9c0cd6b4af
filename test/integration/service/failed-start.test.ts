/**
 * A start that fails after the service has begun listening gives everything back (create-service.ts): the port is
 * free again, the database is closed, and the same data dir and port start cleanly once the cause is gone. The
 * failure here is a real one of that kind: the stored watch-folders setting cannot be read (watch folders start
 * last, after the listener, the live server and the workers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createService } from '../../../src-main/service/create-service.js';
import { openDatabase } from '../../../src-main/store/database.js';
import { createRepositories } from '../../../src-main/store/repositories.js';
import { WATCH_FOLDERS_SETTING } from '../../../src-main/watch/watch-folder-config.js';
import { silentLog } from '../../../src-main/common/log.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Listens on `port` (0: any free one) and closes again; rejects when the port is taken. */
function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => {
      const { port: bound } = probe.address() as { port: number };
      probe.close(() => resolve(bound));
    });
  });
}

function storeWatchFolders(dataDir: string, value: unknown): void {
  const db = openDatabase(join(dataDir, 'voxdesk.db'));
  try {
    createRepositories(db).settings.set(WATCH_FOLDERS_SETTING, value);
  } finally {
    db.close();
  }
}

describe('a failed start', () => {
  it('frees the port it listened on and closes what it opened, in reverse order', async () => {
    dir = mkdtempSync(join(tmpdir(), 'voxdesk-failed-start-'));
    const port = await listenOnce(0);
    storeWatchFolders(dir, 42);
    const config = { dataDir: dir, host: '127.0.0.1', port, workers: 1, apiKey: null, log: silentLog };
    await expect(createService(config)).rejects.toThrow();
    // The port is free: nothing of the failed start still listens on it.
    await expect(listenOnce(port)).resolves.toBe(port);
    // And the database was closed: the same folder and port start once the setting is readable.
    storeWatchFolders(dir, []);
    const service = await createService(config);
    try {
      expect(service.port).toBe(port);
      expect((await fetch(`${service.url}/v1/health`)).status).toBeLessThan(500);
    } finally {
      await service.close(0);
    }
  });
});
