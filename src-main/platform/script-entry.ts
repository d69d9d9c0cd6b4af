/**
 * The one place that decides how an engine script runs in a process or thread of its own — the job worker
 * processes, the eSpeak threads and the neural-voice children alike: the compiled .js beside the caller when it
 * exists (dist/, the packaged app), else the .ts source through tsx (tests, `tsx` runs from a checkout).
 *
 * A child process gets tsx as an `--import` of its own, by absolute URL (`--import tsx` alone would be resolved from
 * the user's working directory). A worker thread does not inherit the parent's --import loaders, so it evaluates a
 * one-line module that loads the source through tsx's API instead.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export interface ScriptEntry {
  /** Absolute path of the script: `<name>.js` when compiled, else `<name>.ts`. */
  path: string;
  /** Node options a child process needs to run it: none for compiled JS, tsx's loader for the source. */
  execArgv: string[];
  /** False when `path` is TypeScript source that only runs through tsx. */
  compiled: boolean;
}

const localRequire = createRequire(import.meta.url);

/** The script `name` (no extension) in the folder of `base` (the caller's `import.meta.url`). */
export function scriptEntry(name: string, base: string): ScriptEntry {
  const js = fileURLToPath(new URL(`./${name}.js`, base));
  if (existsSync(js)) return { path: js, execArgv: [], compiled: true };
  const tsx = pathToFileURL(localRequire.resolve('tsx')).href;
  return { path: fileURLToPath(new URL(`./${name}.ts`, base)), execArgv: ['--import', tsx], compiled: false };
}

/** A worker thread running the script (see the docblock for how the source runs). */
export function startThread(entry: ScriptEntry, options: WorkerOptions): Worker {
  if (entry.compiled) return new Worker(entry.path, options);
  // localRequire.resolve finds the CommonJS build (index.cjs); a worker needs the ES module build beside it.
  const api = pathToFileURL(localRequire.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const source = pathToFileURL(entry.path).href;
  const code = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`;
  return new Worker(code, { ...options, eval: true });
}
