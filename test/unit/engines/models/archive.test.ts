/** .tar.bz2 extraction: archives made by the system tar/bzip2, the top folder stripped, unsafe names refused. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tarStream from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveError, extractTarBz2 } from '../../../../src-main/engines/models/archive.js';
import { requireCommand } from '../../../helpers/system.js';

let dir: string;
beforeEach(() => {
  requireCommand('tar');
  requireCommand('bzip2');
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-arch-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.each(['system', 'js'] as const)('extractTarBz2 (%s)', (method) => {
  it('extracts a sherpa-style archive and strips its single top folder', async () => {
    const src = join(dir, 'src', 'sherpa-onnx-thing');
    mkdirSync(join(src, 'test_wavs'), { recursive: true });
    writeFileSync(join(src, 'model.onnx'), Buffer.alloc(200_000, 3));
    writeFileSync(join(src, 'tokens.txt'), 'a 0\n');
    writeFileSync(join(src, 'test_wavs', '0.wav'), 'RIFF');
    execFileSync('tar', ['cjf', join(dir, 'a.tar.bz2'), '-C', join(dir, 'src'), 'sherpa-onnx-thing']);
    await extractTarBz2(join(dir, 'a.tar.bz2'), join(dir, 'out'), undefined, method);
    expect(readFileSync(join(dir, 'out', 'model.onnx')).equals(Buffer.alloc(200_000, 3))).toBe(true);
    expect(readFileSync(join(dir, 'out', 'tokens.txt'), 'utf8')).toBe('a 0\n');
    expect(existsSync(join(dir, 'out', 'test_wavs', '0.wav'))).toBe(true);
    expect(existsSync(join(dir, 'out.extracting'))).toBe(false);
  });

  it('drops symbolic links', async () => {
    mkdirSync(join(dir, 'src', 'pkg'), { recursive: true });
    writeFileSync(join(dir, 'src', 'pkg', 'model.onnx'), 'm');
    symlinkSync('/etc/passwd', join(dir, 'src', 'pkg', 'link'));
    execFileSync('tar', ['cjf', join(dir, 'a.tar.bz2'), '-C', join(dir, 'src'), 'pkg']);
    await extractTarBz2(join(dir, 'a.tar.bz2'), join(dir, 'out'), undefined, method);
    expect(readdirSync(join(dir, 'out'))).toEqual(['model.onnx']);
  });

  it('keeps several top-level entries as they are', async () => {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.onnx'), 'a');
    writeFileSync(join(dir, 'src', 'b.txt'), 'b');
    execFileSync('tar', ['cjf', join(dir, 'a.tar.bz2'), '-C', join(dir, 'src'), 'a.onnx', 'b.txt']);
    await extractTarBz2(join(dir, 'a.tar.bz2'), join(dir, 'out'), undefined, method);
    expect(readFileSync(join(dir, 'out', 'a.onnx'), 'utf8')).toBe('a');
    expect(readFileSync(join(dir, 'out', 'b.txt'), 'utf8')).toBe('b');
  });

  it('refuses an entry that climbs out of the target folder', async () => {
    const pack = tarStream.pack();
    pack.entry({ name: '../evil.txt' }, 'gotcha');
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    writeFileSync(join(dir, 'evil.tar'), Buffer.concat(chunks));
    execFileSync('bzip2', [join(dir, 'evil.tar')]);
    mkdirSync(join(dir, 'out'));
    const err = await extractTarBz2(join(dir, 'evil.tar.bz2'), join(dir, 'out', 'x'), undefined, method).catch((e: unknown) => e);
    if (method === 'js') {
      expect(err).toBeInstanceOf(ArchiveError);
      expect((err as Error).message).toContain('unsafe path: ../evil.txt');
    }
    // Whatever the extractor does with the name (refuse it, or strip the '../'), nothing lands outside the target.
    expect(existsSync(join(dir, 'out', 'evil.txt'))).toBe(false);
    expect(existsSync(join(dir, 'evil.txt'))).toBe(false);
  });

  it('fails clearly on a file that is not bzip2', async () => {
    writeFileSync(join(dir, 'bad.tar.bz2'), 'this is not an archive');
    const err = await extractTarBz2(join(dir, 'bad.tar.bz2'), join(dir, 'out'), undefined, method).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArchiveError);
    expect((err as Error).message).toMatch(/cannot extract .*bad\.tar\.bz2/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
