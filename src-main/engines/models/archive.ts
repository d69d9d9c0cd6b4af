/**
 * Extracts a model archive (`.tar.bz2`, sherpa-onnx's release format, or `.tar.gz`) into a folder, refusing any
 * archive that reaches outside it: an entry named with `..` or an absolute path, or a link (symbolic or hard) whose
 * target lies outside, fails the whole extraction with `unsafe_archive` and nothing is written outside the folder.
 * Links inside are not kept (a hard link becomes a copy); devices and fifos are skipped. A single top-level folder
 * is stripped.
 *
 * The tar stream is read by tar-stream, which sees every entry before anything is written, so each one is checked.
 * Decompression is native where possible: zlib for gzip, the `bzip2` program for bzip2 (several times faster than
 * the pure-JS unbzip2-stream, ~1 MB/s, which remains the fallback). Where there is no `bzip2` program but a system
 * `tar` (Windows' bsdtar), that tar extracts (it refuses `..` and absolute names itself) and the result is checked.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, createReadStream, createWriteStream, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import unbzip2 from 'unbzip2-stream';

export type ArchiveErrorCode = 'unsafe_archive' | 'install_failed';

export class ArchiveError extends Error {
  /** unsafe_archive: an entry reaches outside the folder; install_failed: the archive is broken or unreadable. */
  readonly code: ArchiveErrorCode;
  constructor(code: ArchiveErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ArchiveError';
    this.code = code;
  }
}

export type ArchiveKind = 'tar.bz2' | 'tar.gz';

/**
 * auto (default): stream with native decompression when there is a decompressor, else the system tar, else pure JS.
 * stream: tar-stream with native decompression (bzip2 program / zlib). system: the system tar. js: pure JS.
 */
export type ExtractMethod = 'auto' | 'stream' | 'system' | 'js';

const found = new Map<string, boolean>();
function hasProgram(name: string): boolean {
  if (!found.has(name)) found.set(name, spawnSync(name, ['--help'], { stdio: 'ignore' }).error === undefined);
  return found.get(name)!;
}

function unsafe(message: string): ArchiveError {
  return new ArchiveError('unsafe_archive', `the archive is refused: ${message}; nothing was installed`);
}

/** An entry's path inside the archive, or an unsafe_archive error when it would land outside. */
export function safeEntryPath(name: string): string {
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) throw unsafe(`it holds an entry with an absolute path (${name})`);
  const clean = posix.normalize(slashed).replace(/^(\.\/)+/, '');
  if (clean === '..' || clean.startsWith('../') || slashed.split('/').includes('..')) throw unsafe(`it holds an entry outside its folder (${name})`);
  return clean === '.' ? '' : clean.replace(/\/+$/, '');
}

/** A link target, resolved from the link's own folder, or an unsafe_archive error when it points outside. */
function safeLinkTarget(entry: string, target: string, hard: boolean): string {
  const slashed = target.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) throw unsafe(`its link ${entry} points to an absolute path (${target})`);
  // A hard link's target is a path in the archive; a symbolic link's is relative to the link's folder.
  const resolved = posix.normalize(hard ? slashed : posix.join(posix.dirname(entry), slashed));
  if (resolved === '..' || resolved.startsWith('../')) throw unsafe(`its link ${entry} points outside its folder (${target})`);
  return resolved;
}

/**
 * Extracts `archive` into `dest` (created; must not exist yet), then strips a single top-level folder. Throws
 * ArchiveError (unsafe_archive or install_failed); on any error nothing is left at `dest`.
 */
export async function extractArchive(archive: string, dest: string, kind: ArchiveKind, signal?: AbortSignal, method: ExtractMethod = 'auto'): Promise<void> {
  const raw = `${dest}.extracting`;
  rmSync(raw, { recursive: true, force: true });
  mkdirSync(raw, { recursive: true });
  const chosen = method === 'auto' ? (kind === 'tar.gz' || hasProgram('bzip2') ? 'stream' : hasProgram('tar') ? 'system' : 'js') : method;
  try {
    if (chosen === 'system') await extractWithSystemTar(archive, raw, kind, signal);
    else {
      const { stream, done } = decompressed(archive, kind, chosen === 'js');
      // Both: the tar reader may finish on a truncated stream before the decompressor reports its failure.
      await Promise.all([extractStream(stream, raw, signal), done]);
    }
    if (readdirSync(raw).length === 0) throw new ArchiveError('install_failed', `cannot extract ${archive}: the archive holds no files`);
  } catch (err) {
    rmSync(raw, { recursive: true, force: true });
    if (signal?.aborted) throw new ArchiveError('install_failed', 'extraction cancelled', { cause: err });
    throw err instanceof ArchiveError ? err : new ArchiveError('install_failed', `cannot extract ${archive}: ${(err as Error).message ?? String(err)}`, { cause: err });
  }
  const top = readdirSync(raw);
  const single = top.length === 1 && statSync(join(raw, top[0]!)).isDirectory();
  if (single) {
    renameSync(join(raw, top[0]!), dest);
    rmSync(raw, { recursive: true, force: true });
  } else {
    renameSync(raw, dest);
  }
}

/** The `.tar.bz2` extractor the curated packages use (same checks). */
export function extractTarBz2(archive: string, dest: string, signal?: AbortSignal, method: ExtractMethod = 'auto'): Promise<void> {
  return extractArchive(archive, dest, 'tar.bz2', signal, method);
}

/** The uncompressed tar stream of `archive`, and a promise that rejects when the decompressor fails. */
function decompressed(archive: string, kind: ArchiveKind, pureJs: boolean): { stream: Readable; done: Promise<void> } {
  if (kind === 'tar.gz') return { stream: createReadStream(archive).pipe(createGunzip()), done: Promise.resolve() };
  if (pureJs) return { stream: createReadStream(archive).pipe(unbzip2()), done: Promise.resolve() };
  const child = spawn('bzip2', ['-dc', archive], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-1000)));
  const done = new Promise<void>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolvePromise();
      reject(new Error(`not a readable bzip2 file (bzip2 ${code !== null ? `exited with ${code}` : `was stopped by ${signal}`}: ${stderr.trim().split('\n').pop() ?? ''})`));
    });
  });
  child.stdout.on('close', () => {
    if (child.exitCode === null) child.kill();
  });
  return { stream: child.stdout, done };
}

async function extractStream(input: Readable, raw: string, signal?: AbortSignal): Promise<void> {
  const extract = tar.extract();
  // The first problem is remembered and the rest of the archive drained (destroying the extractor mid-entry
  // leaves upstream classic streams throwing); nothing more is written once there is one.
  let problem: unknown = null;
  const written = new Set<string>();
  extract.on('entry', (header, stream, next) => {
    const skip = (err?: unknown) => {
      if (err && !problem) problem = err;
      stream.on('end', () => next());
      stream.resume();
    };
    if (problem) return skip();
    let rel: string;
    try {
      rel = safeEntryPath(header.name);
      if (header.type === 'symlink') safeLinkTarget(rel, header.linkname ?? '', false);
    } catch (err) {
      return skip(err);
    }
    const target = join(raw, rel);
    if (rel === '' || !target.startsWith(raw + sep)) return skip();
    if (header.type === 'directory') {
      mkdirSync(target, { recursive: true });
      return skip();
    }
    if (header.type === 'link') {
      let source: string;
      try {
        source = safeLinkTarget(rel, header.linkname ?? '', true);
      } catch (err) {
        return skip(err);
      }
      // A hard link to a file already extracted becomes a copy of it.
      if (written.has(source)) {
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(join(raw, source), target);
        written.add(rel);
      }
      return skip();
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file') return skip(); // symlinks, devices, fifos
    mkdirSync(dirname(target), { recursive: true });
    pipeline(stream, createWriteStream(target)).then(
      () => {
        written.add(rel);
        next();
      },
      (err: unknown) => {
        if (!problem) problem = err;
        next();
      },
    );
  });
  const onAbort = () => input.destroy(new Error('extraction cancelled'));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await new Promise<void>((resolvePromise, reject) => {
      const fail = (err: unknown) => {
        input.destroy();
        reject(err);
      };
      input.on('error', fail);
      extract.on('error', fail);
      extract.on('finish', () => (problem ? fail(problem) : resolvePromise()));
      input.pipe(extract);
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

function extractWithSystemTar(archive: string, raw: string, kind: ArchiveKind, signal?: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    // GNU tar and bsdtar refuse '..' members and strip a leading '/' by default; --no-same-owner keeps files ours.
    const child = spawn('tar', [kind === 'tar.gz' ? '-xzf' : '-xjf', archive, '-C', raw, '--no-same-owner'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      signal,
      env: { ...process.env, LC_ALL: 'C' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('error', (err) => reject(new ArchiveError('install_failed', signal?.aborted ? 'extraction cancelled' : `cannot run tar: ${err.message}`, { cause: err })));
    child.on('close', (code) => {
      const said = stderr.trim().split('\n').slice(-2).join(' ');
      if (/\.\.|absolute|outside|leading/i.test(stderr)) return reject(unsafe(`tar reported entries outside its folder: ${said}`));
      if (code !== 0) return reject(new ArchiveError('install_failed', `cannot extract ${archive}: tar exited with ${code}: ${said}`));
      try {
        checkExtracted(raw, raw);
        resolvePromise();
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** After a system tar: links pointing outside are refused, other links and special files removed. */
function checkExtracted(root: string, dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isDirectory()) checkExtracted(root, path);
    else if (st.isSymbolicLink()) {
      const target = readlinkSync(path);
      const resolved = resolve(dirname(path), target);
      if (isAbsolute(target) || relative(root, resolved).startsWith('..')) throw unsafe(`its link ${relative(root, path)} points outside its folder (${target})`);
      rmSync(path, { force: true });
    } else if (!st.isFile()) rmSync(path, { force: true });
  }
}
