/**
 * The asynchronous private log (store/private-log.ts): lines in the order given, a 0600 file in a 0700 folder, every
 * line written by close(), and a failed write reported, never thrown, with the next line tried again.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPrivateLog } from '../../../src-main/store/private-log.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-private-log-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('private log', () => {
  it('appends every line in order, to a 0600 file in a 0700 folder, all written by close()', async () => {
    const path = join(dir, 'logs', 'remote.log');
    const errors: unknown[] = [];
    const log = createPrivateLog(path, (error) => errors.push(error));
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`);
    for (const [i, line] of lines.entries()) {
      log.append(line);
      // Some lines come while a write is under way, some after it finished.
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await log.close();
    expect(readFileSync(path, 'utf8')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(errors).toEqual([]);
    if (process.platform !== 'win32') {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'logs')).mode & 0o777).toBe(0o700);
    }
    log.append('after close');
    await log.close();
    expect(readFileSync(path, 'utf8')).not.toContain('after close');
  });

  it('appends to what the file already holds (a restart keeps the earlier lines)', async () => {
    const path = join(dir, 'remote.log');
    const first = createPrivateLog(path, () => {});
    first.append('one');
    await first.close();
    const second = createPrivateLog(path, () => {});
    second.append('two');
    await second.close();
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\n');
  });

  it('reports a failed write without throwing, and writes the next line once the file can be written', async () => {
    const path = join(dir, 'remote.log');
    mkdirSync(path); // a folder where the file should be: every open fails
    const errors: unknown[] = [];
    const log = createPrivateLog(path, (error) => errors.push(error));
    expect(() => log.append('lost')).not.toThrow();
    await expect.poll(() => errors.length).toBe(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('EISDIR');
    rmSync(path, { recursive: true });
    log.append('kept');
    await log.close();
    expect(readFileSync(path, 'utf8')).toBe('kept\n');
  });
});
