/**
 * Archive extraction: archives made by the system tar/bzip2/gzip, the top folder stripped, and crafted archives that
 * reach outside their folder (`..`, absolute names, links pointing out) refused with nothing written outside.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tarStream from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractArchive, safeEntryPath, type ExtractMethod } from '../../../../src-main/models/downloads/archive.js';
import { requireCommand } from '../../../helpers/system.js';
import { PackageError } from '../../../../src-main/common/errors.js';

/** A crafted entry: a file (holding its own name), a symbolic link or a hard link. */
type Entry = { name: string; type?: 'symlink' | 'link'; linkname?: string };

let dir: string;
beforeEach(() => {
  requireCommand('tar');
  requireCommand('bzip2');
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-arch-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.each(['stream', 'system', 'js'] as const)('extractTarBz2 (%s)', (method) => {
  it('extracts a sherpa-style archive and strips its single top folder', async () => {
    const src = join(dir, 'src', 'sherpa-onnx-thing');
    mkdirSync(join(src, 'test_wavs'), { recursive: true });
    writeFileSync(join(src, 'model.onnx'), Buffer.alloc(200_000, 3));
    writeFileSync(join(src, 'tokens.txt'), 'a 0\n');
    writeFileSync(join(src, 'test_wavs', '0.wav'), 'RIFF');
    execFileSync('tar', ['cjf', join(dir, 'a.tar.bz2'), '-C', join(dir, 'src'), 'sherpa-onnx-thing']);
    await extractTarBz2(join(dir, 'a.tar.bz2'), join(dir, 'out'), method);
    expect(readFileSync(join(dir, 'out', 'model.onnx')).equals(Buffer.alloc(200_000, 3))).toBe(true);
    expect(readFileSync(join(dir, 'out', 'tokens.txt'), 'utf8')).toBe('a 0\n');
    expect(existsSync(join(dir, 'out', 'test_wavs', '0.wav'))).toBe(true);
    expect(existsSync(join(dir, 'out.extracting'))).toBe(false);
  });

  it('keeps several top-level entries as they are', async () => {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.onnx'), 'a');
    writeFileSync(join(dir, 'src', 'b.txt'), 'b');
    execFileSync('tar', ['cjf', join(dir, 'a.tar.bz2'), '-C', join(dir, 'src'), 'a.onnx', 'b.txt']);
    await extractTarBz2(join(dir, 'a.tar.bz2'), join(dir, 'out'), method);
    expect(readFileSync(join(dir, 'out', 'a.onnx'), 'utf8')).toBe('a');
    expect(readFileSync(join(dir, 'out', 'b.txt'), 'utf8')).toBe('b');
  });

  it('refuses entries that reach outside the folder, and writes nothing outside it', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    const crafted: Array<[string, Entry[]]> = [
      ['dot-dot', [{ name: 'pkg/model.onnx' }, { name: 'pkg/../../evil.txt' }]],
      ['absolute', [{ name: 'pkg/model.onnx' }, { name: join(outside, 'evil.txt') }]],
      ['symlink-out', [{ name: 'pkg/model.onnx' }, { name: 'pkg/escape', type: 'symlink', linkname: outside }, { name: 'pkg/escape/evil.txt' }]],
      ['symlink-up', [{ name: 'pkg/up', type: 'symlink', linkname: '../../outside' }, { name: 'pkg/up/evil.txt' }]],
      ['hardlink-out', [{ name: 'pkg/model.onnx' }, { name: 'pkg/passwd', type: 'link', linkname: '../../outside/secret.txt' }]],
    ];
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    for (const [name, entries] of crafted) {
      const archive = await tarBz2(join(dir, `${name}.tar`), entries);
      const err = await extractTarBz2(archive, join(dir, 'out', name), method).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(PackageError);
      if (method !== 'system') {
        expect({ name, code: (err as PackageError).code }).toEqual({ name, code: 'unsafe_archive' });
        expect((err as Error).message).toMatch(/^the archive is refused: .*(outside its folder|absolute path).*; nothing was installed$/);
      }
      expect(readdirSync(outside).sort(), name).toEqual(['secret.txt']);
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
      expect(existsSync(join(dir, 'evil.txt'))).toBe(false);
      expect(existsSync(join(dir, 'out', name)), name).toBe(false);
      expect(existsSync(join(dir, 'out', `${name}.extracting`)), name).toBe(false);
    }
  });

  it('keeps links that stay inside as files (a hard link becomes a copy) and drops inner symbolic links', async () => {
    const archive = await tarBz2(join(dir, 'inner.tar'), [
      { name: 'pkg/model.onnx' },
      { name: 'pkg/copy.onnx', type: 'link', linkname: 'pkg/model.onnx' },
      { name: 'pkg/alias.onnx', type: 'symlink', linkname: 'model.onnx' },
    ]);
    await extractTarBz2(archive, join(dir, 'out'), method);
    expect(readFileSync(join(dir, 'out', 'model.onnx'), 'utf8')).toBe('pkg/model.onnx');
    if (method !== 'system') expect(readFileSync(join(dir, 'out', 'copy.onnx'), 'utf8')).toBe('pkg/model.onnx');
    expect(existsSync(join(dir, 'out', 'alias.onnx'))).toBe(false);
  });

  it('a file and then a folder of the same name fails the install (install_failed) and the process carries on', async () => {
    // Reproduces trust review 2, item 2: `m/x` then `m/x/y` threw EEXIST from the entry handler, outside any try.
    const archive = await tarBz2(join(dir, 'clash.tar'), [{ name: 'm/model.onnx' }, { name: 'm/x' }, { name: 'm/x/y' }]);
    const err = await extractTarBz2(archive, join(dir, 'out'), method).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PackageError);
    expect((err as PackageError).code).toBe('install_failed');
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'out.extracting'))).toBe(false);
  });

  it('stops a decompression bomb at the expansion bound (20x the archive, 64 MiB at least)', async () => {
    // 3.4 KB of bzip2 that expands to 512 MB installed in the review; here 80 MiB of zeros in a few hundred bytes.
    const src = join(dir, 'bomb', 'pkg');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'tokens.txt'), 'a 0\n');
    execFileSync('truncate', ['-s', '80M', join(src, 'model.onnx')]);
    execFileSync('tar', ['cjf', join(dir, 'bomb.tar.bz2'), '-C', join(dir, 'bomb'), 'pkg']);
    rmSync(join(dir, 'bomb'), { recursive: true });
    const err = await extractTarBz2(join(dir, 'bomb.tar.bz2'), join(dir, 'out'), method).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PackageError);
    expect((err as PackageError).code).toBe('install_failed');
    expect((err as Error).message).toMatch(/expands to more than 64 MiB/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'out.extracting'))).toBe(false);
  });

  it('refuses an archive of more entries than any model holds', async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ name: `pkg/f${i}.txt` }));
    const archive = await tarBz2(join(dir, 'many.tar'), entries);
    const err = await extractArchive(archive, join(dir, 'out'), 'tar.bz2', { method, limits: { maxEntries: 20 } }).catch((e: unknown) => e);
    expect((err as PackageError).code).toBe('install_failed');
    expect((err as Error).message).toMatch(/more than 20 entries/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('fails clearly on a file that is not bzip2', async () => {
    writeFileSync(join(dir, 'bad.tar.bz2'), 'this is not an archive');
    const err = await extractTarBz2(join(dir, 'bad.tar.bz2'), join(dir, 'out'), method).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PackageError);
    expect((err as PackageError).code).toBe('install_failed');
    expect((err as Error).message).toMatch(/cannot extract .*bad\.tar\.bz2/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

const extractTarBz2 = (archive: string, dest: string, method: ExtractMethod) => extractArchive(archive, dest, 'tar.bz2', { method });

/** A .tar.bz2 of `entries` (files hold their own name), made with tar-stream so that names can be anything. */
async function tarBz2(tarPath: string, entries: Entry[]): Promise<string> {
  const pack = tarStream.pack();
  for (const header of entries) {
    if (header.type === 'symlink' || header.type === 'link') pack.entry(header);
    else pack.entry(header, header.name);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  writeFileSync(tarPath, Buffer.concat(chunks));
  rmSync(`${tarPath}.bz2`, { force: true });
  execFileSync('bzip2', [tarPath]);
  return `${tarPath}.bz2`;
}

describe('.tar.gz archives and entry names', () => {
  it('extracts a .tar.gz the same way (stream and system)', async () => {
    const src = join(dir, 'src', 'voice');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'model.onnx'), 'm');
    execFileSync('tar', ['czf', join(dir, 'a.tar.gz'), '-C', join(dir, 'src'), 'voice']);
    await extractArchive(join(dir, 'a.tar.gz'), join(dir, 'out1'), 'tar.gz', { method: 'stream' });
    await extractArchive(join(dir, 'a.tar.gz'), join(dir, 'out2'), 'tar.gz', { method: 'system' });
    expect(readFileSync(join(dir, 'out1', 'model.onnx'), 'utf8')).toBe('m');
    expect(readFileSync(join(dir, 'out2', 'model.onnx'), 'utf8')).toBe('m');
  });

  it('normalises safe names and refuses the rest', () => {
    expect(safeEntryPath('./pkg/model.onnx')).toBe('pkg/model.onnx');
    expect(safeEntryPath('pkg/')).toBe('pkg');
    expect(() => safeEntryPath('pkg/../../x')).toThrow(/outside its folder/);
    expect(() => safeEntryPath('pkg/a/../b')).toThrow(/outside its folder/);
    expect(() => safeEntryPath('/etc/passwd')).toThrow(/absolute path/);
    expect(() => safeEntryPath('C:\\Windows\\x')).toThrow(/absolute path/);
  });
});
