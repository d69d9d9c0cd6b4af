/**
 * Nodes of a test cluster as real processes of the CLI (`node bin/voxdesk.js`, which runs the sources through tsx):
 * API nodes (`voxdesk serve --database … --storage …`) and engine nodes (`voxdesk worker … --health-port 0`), each
 * with a data dir of its own, all on one PostgreSQL database and one storage folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './service.js';

export interface NodeProcess {
  /** The API's address (serve) or the health port's (worker). */
  url: string;
  child: ChildProcess;
  pid: number;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ClusterNodeOptions {
  databaseUrl: string;
  storageDir: string;
  apiKey: string;
  /** Extra arguments (e.g. --lease-seconds 3). */
  args?: string[];
  /** Extra environment (e.g. the test engines' knobs). */
  env?: NodeJS.ProcessEnv;
}

function startNode(command: 'serve' | 'worker', options: ClusterNodeOptions, ready: RegExp): Promise<NodeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), `voxdesk-${command}-`));
  const portArgs = command === 'serve' ? ['--port', '0'] : ['--health-port', '0'];
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/voxdesk.js'), command, ...portArgs, '--data-dir', dataDir, '--database', options.databaseUrl, '--storage', options.storageDir, ...(options.args ?? [])],
    { cwd: ROOT, env: { ...process.env, ...options.env, VOXDESK_DATA_DIR: dataDir, VOXDESK_API_KEY: options.apiKey }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`voxdesk ${command} printed no ready line in 60 s; stderr:\n${stderr}`));
    }, 60_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = ready.exec(line);
      if (!match) return reject(new Error(`voxdesk ${command}: unexpected first line ${JSON.stringify(line)}; stderr:\n${stderr}`));
      resolve({ url: match[1]!, child, pid: child.pid!, stderr: () => stderr, exited });
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`voxdesk ${command} exited (${code ?? signal}) before it was ready; stderr:\n${stderr}`));
    });
  });
}

export function startApiNode(options: ClusterNodeOptions): Promise<NodeProcess> {
  return startNode('serve', options, /^voxdesk listening on (http:\/\/\S+)$/);
}

export function startWorkerNode(options: ClusterNodeOptions): Promise<NodeProcess> {
  return startNode('worker', options, /^voxdesk worker running \(health on (http:\/\/\S+)\)$/);
}

/** SIGTERM to a node still running; resolves with how it exited. */
export async function stopNode(node: NodeProcess | undefined): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
  if (!node) return undefined;
  if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
  return node.exited;
}
