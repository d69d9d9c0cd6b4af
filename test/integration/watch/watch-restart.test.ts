/**
 * Watch folders across trouble: a service stopped while files are queued and running (and more files arriving while
 * it is down) loses nothing and queues nothing twice after a restart; a folder that is missing, deleted, replaced,
 * unreadable or not a folder shows the error and is watched again once it is back.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audio, Client } from '../../helpers/http-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { FAST_WATCH, namesIn, saveFolders, waitForFolder } from '../../helpers/watch-folders.js';
import { scaled } from '../../helpers/time-scale.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-watch-restart-'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function recording(seed: number): Uint8Array {
  const data = audio(3000);
  data[0] = seed;
  return data;
}

async function start(dataDir: string): Promise<{ t: TestService; api: Client }> {
  const t = await startTestService({ dataDir, watchTimings: FAST_WATCH, workers: 1 });
  return { t, api: new Client(t.url, t.key) };
}

describe('watch folders across restarts and trouble', () => {
  it('a restart in the middle loses no file and queues none twice', async () => {
    const dataDir = join(work, 'data');
    const dir = join(work, 'inbox');
    mkdirSync(dir);
    for (let i = 0; i < 6; i++) writeFileSync(join(dir, `call-${i}.wav`), recording(i));
    let { t, api } = await start(dataDir);
    try {
      await saveFolders(api, [{ path: dir, model: 'test-asr', params: { behaviour: 'sleep', ms: 1200 }, formats: ['txt'] }]);
      await waitForFolder(api, dir, 'every file queued, one done', (f) => f.status.files_queued + f.status.files_done === 6 && f.status.files_done >= 1);
    } finally {
      await t.stop();
    }
    // While it is down: two more recordings.
    writeFileSync(join(dir, 'call-6.wav'), recording(6));
    writeFileSync(join(dir, 'call-7.wav'), recording(7));

    ({ t, api } = await start(dataDir));
    try {
      const done = await waitForFolder(api, dir, 'eight files done', (f) => f.status.files_done === 8, scaled(120_000));
      expect(done.status).toMatchObject({ files_queued: 0, files_failed: 0, files_skipped: 0, state: 'watching' });
      const jobs = t.service.db.prepare("SELECT name, COUNT(*) AS n FROM jobs WHERE name LIKE 'call-%' GROUP BY name").all() as { name: string; n: number }[];
      expect(jobs).toHaveLength(8);
      expect(jobs.every((row) => row.n === 1)).toBe(true);
      const names = namesIn(dir);
      expect(names.filter((n) => n.endsWith('.txt'))).toHaveLength(8);
      expect(names.filter((n) => n.includes('('))).toEqual([]);
    } finally {
      await t.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, scaled(180_000));

  it('a missing, vanished, replaced or non-folder path shows an error and is watched again when it is back', async () => {
    const { t, api } = await start(join(work, 'data2'));
    try {
      const dir = join(work, 'usb', 'RECORDER');
      // Added while the recorder is plugged in (a folder that does not exist is refused when it is added), then
      // unplugged before the list is saved again.
      mkdirSync(dir, { recursive: true });
      await saveFolders(api, [{ path: dir, model: 'test-asr', formats: ['srt'] }]);
      rmSync(join(work, 'usb'), { recursive: true, force: true });
      const [missing] = await saveFolders(api, [{ path: dir, model: 'test-asr', formats: ['srt'] }]);
      const waiting = missing!.status.error?.code === 'folder_missing' ? missing! : await waitForFolder(api, dir, 'folder_missing', (f) => f.status.error?.code === 'folder_missing');
      expect(waiting.status).toMatchObject({ state: 'error', error: { code: 'folder_missing' } });
      expect(waiting.status.error!.message).toContain(dir);
      expect(waiting.status.next_retry_at).toMatch(/^\d{4}-/);

      // The drive is plugged in.
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'first.wav'), recording(20));
      await waitForFolder(api, dir, 'first done', (f) => f.status.files_done === 1 && f.status.state === 'watching');

      // Unplugged: the folder is gone.
      rmSync(join(work, 'usb'), { recursive: true, force: true });
      const gone = await waitForFolder(api, dir, 'an error', (f) => f.status.state === 'error');
      expect(gone.status.error).toMatchObject({ code: 'folder_missing' });

      // Back, with a recording made meanwhile.
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'second.wav'), recording(21));
      await waitForFolder(api, dir, 'second done', (f) => f.status.files_done === 2 && f.status.state === 'watching' && f.status.error === null);
      expect(readdirSync(dir).sort()).toEqual(['second.srt', 'second.wav']);

      // Deleted and made again between two checks (inotify would keep watching the old one): still watched.
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      writeFileSync(join(dir, 'third.wav'), recording(22));
      await waitForFolder(api, dir, 'third done', (f) => f.status.files_done === 3);

      // A file where the saved folder should be.
      const file = join(work, 'not-a-folder');
      mkdirSync(file);
      await saveFolders(api, [{ path: file, model: 'test-asr', formats: ['srt'] }]);
      rmSync(file, { recursive: true });
      writeFileSync(file, 'x');
      const notFolder = await waitForFolder(api, file, 'folder_not_directory', (f) => f.status.error?.code === 'folder_not_directory');
      expect(notFolder.status).toMatchObject({ state: 'error', error: { code: 'folder_not_directory' } });
    } finally {
      await t.stop();
    }
  });

  it('a folder that cannot be read shows folder_unreadable until it can be', async () => {
    const { t, api } = await start(join(work, 'data3'));
    // A symlink loop cannot be read whoever runs the tests (root ignores permission bits).
    const dir = join(work, 'loop');
    symlinkSync(join(work, 'loop-back'), dir);
    symlinkSync(dir, join(work, 'loop-back'));
    try {
      const [locked] = await saveFolders(api, [{ path: dir, model: 'test-asr', formats: ['srt'] }]);
      expect(locked!.status).toMatchObject({ state: 'error', error: { code: 'folder_unreadable' } });
      rmSync(dir);
      mkdirSync(dir);
      writeFileSync(join(dir, 'open.wav'), recording(30));
      await waitForFolder(api, dir, 'open done', (f) => f.status.files_done === 1);
    } finally {
      await t.stop();
    }
  });
});
