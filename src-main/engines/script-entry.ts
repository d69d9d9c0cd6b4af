/**
 * Where a worker thread's script is: the compiled .js next to this module, or (tests, `tsx` runs) the .ts source
 * loaded through tsx's API — worker threads do not inherit the parent's --import loaders.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startThread(baseName: string, options: WorkerOptions): Worker {
  const js = fileURLToPath(new URL(`./${baseName}.js`, import.meta.url));
  if (existsSync(js)) return new Worker(js, options);
  const ts = fileURLToPath(new URL(`./${baseName}.ts`, import.meta.url));
  // require.resolve finds the CommonJS build (index.cjs); a worker needs the ES module build beside it.
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const code = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(pathToFileURL(ts).href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(code, { ...options, eval: true });
}
