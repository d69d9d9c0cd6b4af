/**
 * A watched recording swapped for a symbolic link while its job waited is refused when the job runs (trust review
 * 2, item 6): the input names its folder, and a link — to a file, or a linked folder on the way — is not read.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import { inputFile } from '../../../../src-main/engines/audio/input-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-input-'));
  mkdirSync(join(dir, 'watched', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'elsewhere'));
  writeFileSync(join(dir, 'elsewhere', 'secret.wav'), 'secret');
  writeFileSync(join(dir, 'watched', 'sub', 'own.wav'), 'own');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const missing = () => new JobError('invalid_params', 'needs a file');
const refusal = (input: Parameters<typeof inputFile>[0]) => inputFile(input, missing).then(() => null, (e: unknown) => e as JobError);

describe('inputFile', () => {
  it('reads a plain file inside its folder, and any file when no folder is named (uploads)', async () => {
    const root = join(dir, 'watched');
    expect(await inputFile({ filePath: join(root, 'sub', 'own.wav'), fileRoot: root }, missing)).toBe(join(root, 'sub', 'own.wav'));
    expect(await inputFile({ filePath: join(dir, 'elsewhere', 'secret.wav') }, missing)).toBe(join(dir, 'elsewhere', 'secret.wav'));
  });

  it('refuses a link, a file through a linked folder, and a path outside the folder', async () => {
    const root = join(dir, 'watched');
    symlinkSync(join(dir, 'elsewhere', 'secret.wav'), join(root, 'swapped.wav'));
    symlinkSync(join(dir, 'elsewhere'), join(root, 'linked'));
    for (const [path, message] of [
      [join(root, 'swapped.wav'), /is a symbolic link; watch folders do not follow links/],
      [join(root, 'linked', 'secret.wav'), /is reached through a linked folder/],
      [join(dir, 'elsewhere', 'secret.wav'), /is not inside/],
      [join(root, 'gone.wav'), /no longer exists/],
    ] as const) {
      const error = await refusal({ filePath: path, fileRoot: root });
      expect(error, path).toBeInstanceOf(JobError);
      expect(error!.code).toBe('symlink_refused');
      expect(error!.message).toMatch(message);
    }
  });

  it('takes a watched folder that is itself a link (the person chose it)', async () => {
    symlinkSync(join(dir, 'watched'), join(dir, 'alias'));
    const root = join(dir, 'alias');
    expect(await inputFile({ filePath: join(root, 'sub', 'own.wav'), fileRoot: root }, missing)).toBe(join(root, 'sub', 'own.wav'));
  });
});
