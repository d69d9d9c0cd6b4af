/**
 * A real `voxdesk serve --ui` for browser tests and UI benchmarks: spawned as a child process on port 0 with a
 * temp data dir; the URL comes from the first stdout line (docs/design.md §3 contract), the one-time login address from the
 * `browser UI: …/#token=…` line on stderr — the page opened there logs itself in, as a person's browser would. Tests
 * that call the API directly use `apiKey` (registered with VOXDESK_API_KEY), never the browser's session.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface ServedUi {
  url: string;
  /** The address `serve --ui` printed, with its one-time login token: open it once. */
  loginUrl: string;
  /** A key of the local account for direct API calls. */
  apiKey: string;
  dataDir: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first stdout line. */
  startupMs: number;
  stop(): Promise<void>;
}

export interface ServeUiOptions {
  env?: NodeJS.ProcessEnv;
  /** The operator's prices, written to DATA_DIR/pricing.json before the service starts (read at start only). */
  pricing?: unknown;
}

export async function startServeUi(options: ServeUiOptions = {}): Promise<ServedUi> {
  if (!existsSync(join(ROOT, 'src-renderer', 'dist', 'index.html'))) {
    throw new Error('src-renderer/dist is missing: run npm run build:renderer before the browser tests');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-e2e-'));
  if (options.pricing !== undefined) writeFileSync(join(dataDir, 'pricing.json'), JSON.stringify(options.pricing));
  const started = performance.now();
  const apiKey = `vdk_${randomBytes(24).toString('base64url')}`;
  const child = spawn(process.execPath, ['bin/voxdesk.js', 'serve', '--port', '0', '--ui', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...options.env, VOXDESK_DATA_DIR: dataDir, VOXDESK_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let loginLine: (line: string) => void = () => undefined;
  const login = new Promise<string>((resolve) => (loginLine = resolve));
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr = `${stderr}${line}\n`.slice(-4000);
    const printed = /^browser UI: (http:\/\/\S+\/#token=\S+)$/.exec(line);
    if (printed) loginLine(printed[1]!);
  });
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
  const loginUrl = await Promise.race([
    login,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`voxdesk serve --ui printed no "browser UI: …#token=…" line:\n${stderr}`)), 10_000)),
  ]);
  return {
    url: match[1]!,
    loginUrl,
    apiKey,
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
