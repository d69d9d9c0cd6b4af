/**
 * Extracts a .tar.bz2 model archive (sherpa-onnx's release format). The system `tar` (GNU tar on Linux, bsdtar on
 * macOS and Windows 10+) is used when present: it decompresses several times faster than the pure-JS fallback
 * (unbzip2-stream + tar-stream, ~1 MB/s of archive on these machines), which keeps working where there is none.
 * Both refuse names that climb out of the target; links, devices and fifos are never kept. A single top-level
 * folder is stripped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';
import unbzip2 from 'unbzip2-stream';

export class ArchiveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ArchiveError';
  }
}

function safeRelative(name: string): string {
  const clean = normalize(name.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
  if (isAbsolute(clean) || /^[a-zA-Z]:/.test(clean) || clean.split(/[\\/]/).includes('..')) {
    throw new ArchiveError(`the archive holds an unsafe path: ${name}`);
  }
  return clean;
}

export type ExtractMethod = 'auto' | 'system' | 'js';

let systemTar: boolean | null = null;
function hasSystemTar(): boolean {
  systemTar ??= spawnSync('tar', ['--version'], { stdio: 'ignore' }).status === 0;
  return systemTar;
}

/**
 * Extracts `archive` into `dest` (created; must not exist yet), then strips a single top-level folder.
 * method: 'auto' (default) uses the system tar when there is one, else the pure-JS extractor.
 */
export async function extractTarBz2(archive: string, dest: string, signal?: AbortSignal, method: ExtractMethod = 'auto'): Promise<void> {
  const raw = `${dest}.extracting`;
  rmSync(raw, { recursive: true, force: true });
  mkdirSync(raw, { recursive: true });
  const useSystem = method === 'system' || (method === 'auto' && hasSystemTar());
  try {
    if (useSystem) await extractWithSystemTar(archive, raw, signal);
    else await extractWithJs(archive, raw, signal);
    removeSpecialFiles(raw);
  } catch (err) {
    rmSync(raw, { recursive: true, force: true });
    throw err;
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

/** Symlinks, fifos and devices are never part of a model: remove whatever an extractor created. */
function removeSpecialFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isDirectory()) removeSpecialFiles(path);
    else if (!st.isFile()) rmSync(path, { force: true });
  }
}

function extractWithSystemTar(archive: string, raw: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // GNU tar and bsdtar both strip leading '/' and refuse '..' members by default; --no-same-owner keeps files ours.
    const child = spawn('tar', ['-xjf', archive, '-C', raw, '--no-same-owner'], { stdio: ['ignore', 'ignore', 'pipe'], signal });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('error', (err) => reject(new ArchiveError(signal?.aborted ? 'extraction cancelled' : `cannot run tar: ${err.message}`, { cause: err })));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new ArchiveError(`cannot extract ${archive}: tar exited with ${code}: ${stderr.trim().split('\n').slice(-2).join(' ')}`));
    });
  });
}

async function extractWithJs(archive: string, raw: string, signal?: AbortSignal): Promise<void> {
  const extract = tar.extract();
  // The first problem is remembered and the rest of the archive drained (destroying the extractor mid-entry
  // leaves the upstream classic streams throwing).
  let problem: unknown = null;
  extract.on('entry', (header, stream, next) => {
    const done = (err?: unknown) => {
      if (err && !problem) problem = err;
      next();
    };
    let rel: string;
    try {
      rel = safeRelative(header.name);
    } catch (err) {
      stream.on('end', () => done(err));
      stream.resume();
      return;
    }
    if (problem) {
      stream.on('end', () => done());
      stream.resume();
      return;
    }
    const target = join(raw, rel);
    if (rel === '' || rel === '.' || !target.startsWith(raw + sep)) {
      stream.on('end', () => done());
      stream.resume();
      return;
    }
    if (header.type === 'directory') {
      mkdirSync(target, { recursive: true });
      stream.on('end', () => done());
      stream.resume();
    } else if (header.type === 'file' || header.type === 'contiguous-file') {
      mkdirSync(dirname(target), { recursive: true });
      pipeline(stream, createWriteStream(target)).then(() => done(), done);
    } else {
      stream.on('end', () => done());
      stream.resume();
    }
  });
  const source = createReadStream(archive);
  const decompress = unbzip2();
  const onAbort = () => source.destroy(new ArchiveError('extraction cancelled'));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (err: unknown) => {
        source.destroy();
        reject(err instanceof ArchiveError ? err : new ArchiveError(`cannot extract ${archive}: ${(err as Error).message ?? String(err)}`, { cause: err }));
      };
      source.on('error', fail);
      decompress.on('error', fail);
      extract.on('error', fail);
      extract.on('finish', () => (problem ? fail(problem) : resolve()));
      source.pipe(decompress).pipe(extract);
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
