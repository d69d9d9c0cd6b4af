/**
 * Extracts a .tar.bz2 model archive (sherpa-onnx's release format) with pure-JS libraries, so it works on every
 * desktop without a system tar. Only regular files and folders are written; names that are absolute or climb out
 * of the target are refused; links and devices are skipped. A single top-level folder is stripped.
 */
import { createReadStream, createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
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

/** Extracts `archive` into `dest` (created; must not exist yet), then strips a single top-level folder. */
export async function extractTarBz2(archive: string, dest: string, signal?: AbortSignal): Promise<void> {
  const raw = `${dest}.extracting`;
  rmSync(raw, { recursive: true, force: true });
  mkdirSync(raw, { recursive: true });
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
  } catch (err) {
    rmSync(raw, { recursive: true, force: true });
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
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
