/**
 * A real `voxdesk serve --ui` for browser tests and UI benchmarks: spawned as a child process on port 0 with a
 * temp data dir; the URL comes from the first stdout line (docs/design.md §3 contract).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface ServedUi {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first stdout line. */
  startupMs: number;
  stop(): Promise<void>;
}

export async function startServeUi(options: { env?: NodeJS.ProcessEnv } = {}): Promise<ServedUi> {
  if (!existsSync(join(ROOT, 'src-renderer', 'dist', 'index.html'))) {
    throw new Error('src-renderer/dist is missing: run npm run build:renderer before the browser tests');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-e2e-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/voxdesk.js', 'serve', '--port', '0', '--ui', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...options.env, VOXDESK_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`voxdesk serve did not start in 60 s:\n${stderr}`)), 60_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`voxdesk serve exited with ${code}:\n${stderr}`));
    });
  });
  const startupMs = performance.now() - started;
  const match = /^voxdesk listening on (http:\/\/\S+)$/.exec(first);
  if (!match) throw new Error(`unexpected first line from voxdesk serve: ${first}`);
  lines.on('line', () => undefined); // keep draining stdout
  return {
    url: match[1]!,
    dataDir,
    child,
    startupMs,
    async stop() {
      // Not yet exited (a process killed by a signal has exitCode null and a signalCode).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
