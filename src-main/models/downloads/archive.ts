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
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readlink, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import unbzip2 from 'unbzip2-stream';
import { PackageError } from '../../common/errors.js';

export type ArchiveKind = 'tar.bz2' | 'tar.gz';

/**
 * auto (default): stream with native decompression when there is a decompressor, else the system tar, else pure JS.
 * stream: tar-stream with native decompression (bzip2 program / zlib). system: the system tar. js: pure JS.
 */
export type ExtractMethod = 'auto' | 'stream' | 'system' | 'js';

/** Whether a program runs here (asked once per process, without waiting on the event loop). */
const found = new Map<string, Promise<boolean>>();
function hasProgram(name: string): Promise<boolean> {
  let known = found.get(name);
  if (!known) {
    known = new Promise((resolve) => {
      const child = spawn(name, ['--help'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('spawn', () => resolve(true));
    });
    found.set(name, known);
  }
  return known;
}

function unsafe(message: string): PackageError {
  return new PackageError('unsafe_archive', `the archive is refused: ${message}; nothing was installed`);
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
 * How much an archive may expand to. A model archive's weights barely compress (ratio ~1.1-1.5) and its text data
 * (tokens, lexicons, espeak-ng-data) by 3-5x, so an archive that expands past 20x its own size (or 64 MiB, for small
 * ones) is a decompression bomb, not a model: the extraction stops as soon as it passes the bound, with
 * `install_failed`, and what was written is removed.
 */
export interface ExtractLimits {
  /** Bytes of files the archive may write (default: max(64 MiB, 20 x the archive's size)). */
  maxBytes: number;
  /** Entries the archive may hold (default 100,000; sherpa-onnx's largest, espeak-ng-data included, hold ~400). */
  maxEntries: number;
}

const MIN_EXPANSION_BYTES = 64 * 1024 * 1024;
const EXPANSION_RATIO = 20;
const MAX_ENTRIES = 100_000;

async function defaultLimits(archive: string): Promise<ExtractLimits> {
  const { size } = await stat(archive);
  return { maxBytes: Math.max(MIN_EXPANSION_BYTES, EXPANSION_RATIO * size), maxEntries: MAX_ENTRIES };
}

export interface ExtractOptions {
  signal?: AbortSignal;
  method?: ExtractMethod;
  /** Defaults: see ExtractLimits. */
  limits?: Partial<ExtractLimits>;
}

/**
 * Extracts `archive` into `dest` (created; must not exist yet), then strips a single top-level folder. Throws
 * PackageError (unsafe_archive or install_failed) for every problem the archive or the disk can cause — never
 * another error — and on any error nothing is left at `dest`. All file-system work is asynchronous: an install
 * never stalls the service's event loop.
 */
export async function extractArchive(archive: string, dest: string, kind: ArchiveKind, options: ExtractOptions = {}): Promise<void> {
  const { signal, method = 'auto' } = options;
  const raw = `${dest}.extracting`;
  try {
    const limits = { ...(await defaultLimits(archive)), ...options.limits };
    await rm(raw, { recursive: true, force: true });
    await mkdir(raw, { recursive: true });
    const chosen = method === 'auto' ? (kind === 'tar.gz' || (await hasProgram('bzip2')) ? 'stream' : (await hasProgram('tar')) ? 'system' : 'js') : method;
    if (chosen === 'system') await extractWithSystemTar(archive, raw, kind, limits, signal);
    else {
      const { stream, done } = decompressed(archive, kind, chosen === 'js');
      // Both: the tar reader may finish on a truncated stream before the decompressor reports its failure.
      await Promise.all([extractStream(stream, raw, limits, signal), done]);
    }
    if ((await readdir(raw)).length === 0) throw new PackageError('install_failed', `cannot extract ${archive}: the archive holds no files`);
    const top = await readdir(raw);
    const single = top.length === 1 && (await stat(join(raw, top[0]!))).isDirectory();
    if (single) {
      await rename(join(raw, top[0]!), dest);
      await rm(raw, { recursive: true, force: true });
    } else {
      await rename(raw, dest);
    }
  } catch (err) {
    await rm(raw, { recursive: true, force: true }).catch(() => undefined);
    if (signal?.aborted) throw new PackageError('install_failed', 'extraction cancelled', { cause: err });
    throw err instanceof PackageError ? err : new PackageError('install_failed', `cannot extract ${archive}: ${(err as Error).message ?? String(err)}`, { cause: err });
  }
}

function tooLarge(limits: ExtractLimits): PackageError {
  return new PackageError(
    'install_failed',
    `the archive expands to more than ${Math.round(limits.maxBytes / 1048576)} MiB (20 times its own size), which no model archive does; nothing was installed`,
  );
}

function tooManyEntries(limits: ExtractLimits): PackageError {
  return new PackageError('install_failed', `the archive holds more than ${limits.maxEntries} entries, which no model archive does; nothing was installed`);
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

/**
 * Reads the tar stream entry by entry. Every entry's handling is one awaited step whose failure (a refused name, a
 * file where a folder must go, a full disk) becomes the extraction's error: nothing an archive holds can throw out
 * of the stream's event handlers and take the process down.
 */
/** One entry's data as tar-stream hands it over (a streamx Readable). */
type EntryStream = tar.ExtractEvents['entry'][1];

async function extractStream(input: Readable, raw: string, limits: ExtractLimits, signal?: AbortSignal): Promise<void> {
  const extract = tar.extract();
  // The first problem is remembered and the rest of the archive drained (destroying the extractor mid-entry
  // leaves upstream classic streams throwing); nothing more is written once there is one.
  let problem: unknown = null;
  const written = new Set<string>();
  let entries = 0;
  let bytes = 0;
  const writeEntry = async (header: tar.Header, stream: EntryStream): Promise<boolean> => {
    entries += 1;
    if (entries > limits.maxEntries) throw tooManyEntries(limits);
    const rel = safeEntryPath(header.name);
    if (header.type === 'symlink') safeLinkTarget(rel, header.linkname ?? '', false);
    const target = join(raw, rel);
    if (rel === '' || !target.startsWith(raw + sep)) return false;
    if (header.type === 'directory') {
      await mkdir(target, { recursive: true });
      return false;
    }
    if (header.type === 'link') {
      const source = safeLinkTarget(rel, header.linkname ?? '', true);
      // A hard link to a file already extracted becomes a copy of it.
      if (written.has(source)) {
        bytes += (await stat(join(raw, source))).size;
        if (bytes > limits.maxBytes) throw tooLarge(limits);
        await mkdir(dirname(target), { recursive: true });
        await copyFile(join(raw, source), target);
        written.add(rel);
      }
      return false;
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file') return false; // symlinks, devices, fifos
    if (bytes + (header.size ?? 0) > limits.maxBytes) throw tooLarge(limits);
    await mkdir(dirname(target), { recursive: true });
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(bytes > limits.maxBytes ? tooLarge(limits) : null, chunk);
      },
    });
    await pipeline(stream, counter, createWriteStream(target));
    written.add(rel);
    return true;
  };
  extract.on('entry', (header, stream, next) => {
    const skip = () => {
      stream.on('end', () => next());
      stream.resume();
    };
    if (problem) return skip();
    void writeEntry(header, stream).then(
      (consumed) => (consumed ? next() : skip()),
      (err: unknown) => {
        problem ??= err;
        if (stream.destroyed) next();
        else skip();
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

/**
 * The system tar (Windows' bsdtar, where there is no bzip2 program): it writes before anything can be counted, so
 * the limits are checked on what it wrote, which is then removed when it is over them.
 */
function extractWithSystemTar(archive: string, raw: string, kind: ArchiveKind, limits: ExtractLimits, signal?: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    // GNU tar and bsdtar refuse '..' members and strip a leading '/' by default; --no-same-owner keeps files ours.
    const child = spawn('tar', [kind === 'tar.gz' ? '-xzf' : '-xjf', archive, '-C', raw, '--no-same-owner'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      signal,
      env: { ...process.env, LC_ALL: 'C' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('error', (err) => reject(new PackageError('install_failed', signal?.aborted ? 'extraction cancelled' : `cannot run tar: ${err.message}`, { cause: err })));
    child.on('close', (code) => {
      const said = stderr.trim().split('\n').slice(-2).join(' ');
      if (/\.\.|absolute|outside|leading/i.test(stderr)) return reject(unsafe(`tar reported entries outside its folder: ${said}`));
      if (code !== 0) return reject(new PackageError('install_failed', `cannot extract ${archive}: tar exited with ${code}: ${said}`));
      checkExtracted(raw, raw, limits, { bytes: 0, entries: 0 }).then(resolvePromise, reject);
    });
  });
}

/** After a system tar: links pointing outside are refused, other links and special files removed, limits checked. */
async function checkExtracted(root: string, dir: string, limits: ExtractLimits, seen: { bytes: number; entries: number }): Promise<void> {
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const st = await lstat(path);
    seen.entries += 1;
    if (seen.entries > limits.maxEntries) throw tooManyEntries(limits);
    if (st.isDirectory()) await checkExtracted(root, path, limits, seen);
    else if (st.isSymbolicLink()) {
      const target = await readlink(path);
      const resolved = resolve(dirname(path), target);
      if (isAbsolute(target) || relative(root, resolved).startsWith('..')) throw unsafe(`its link ${relative(root, path)} points outside its folder (${target})`);
      await rm(path, { force: true });
    } else if (!st.isFile()) await rm(path, { force: true });
    else {
      seen.bytes += st.size;
      if (seen.bytes > limits.maxBytes) throw tooLarge(limits);
    }
  }
}
