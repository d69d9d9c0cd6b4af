/**
 * What `voxdesk serve` costs while it waits (issue 35.9: a desktop app in the tray must cost little), as built — the
 * compiled JavaScript of dist/ (built first when missing), not the TypeScript loader: the resident memory of the
 * service and every process under it, right after start, while it works, and after idle minutes (default 10); and
 * what waiting costs the next person: the first text-to-speech job after the idle minutes (its engine worker
 * started again) against a warm one, over HTTP as a client sees it.
 *
 * Goals: at most 150 MB in all after start and after the idle minutes; the first job after idling at most 300 ms
 * more than a warm one. Prints one JSON line.
 * Usage: node --import tsx bench/idle-footprint.ts [--idle-minutes 10] [--no-build]  (builds dist/ first unless told)
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist', 'src-main', 'cli', 'main.js');
const argIndex = process.argv.indexOf('--idle-minutes');
const IDLE_MINUTES = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 10;
if (!(IDLE_MINUTES >= 0)) throw new Error('--idle-minutes takes a number of minutes');
const KEY = 'vdk_idle_footprint_bench_key_0000000001';
const TEXT = 'The service was idle for a while and speaks again.';
const WARM_JOBS = 5;
const SAMPLE_EVERY_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Every process under `root` (itself included) with its resident memory in MB, from `ps` (Linux and macOS). */
function processTree(root: number): { pid: number; rssMb: number }[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of table) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return table.filter(([pid]) => tree.has(pid)).map(([pid, , rss]) => ({ pid, rssMb: Math.round(rss / 102.4) / 10 }));
}

function footprint(root: number): { mb: number; processes: number } {
  const tree = processTree(root);
  return { mb: Math.round(tree.reduce((sum, p) => sum + p.rssMb, 0) * 10) / 10, processes: tree.length };
}

async function speak(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/v1/text-to-speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'espeak-ng', text: TEXT }),
  });
  const job = (await res.json()) as { status: string; error_code?: string | null };
  if (job.status !== 'succeeded') throw new Error(`the job ended ${job.status} ${job.error_code ?? ''}`);
  return Math.round(performance.now() - started);
}

async function warmJobs(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < WARM_JOBS; i++) times.push(await speak(url));
  return median(times.slice(1)); // the first may still be warming
}

// A stale dist/ would measure old code: built every time unless --no-build (and then it must exist).
if (!process.argv.includes('--no-build') || !existsSync(MAIN)) {
  process.stderr.write('idle-footprint: building dist/ (npm run build:main)\n');
  const built = spawnSync('npm', ['run', 'build:main'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (built.status !== 0) throw new Error('npm run build:main failed');
}

const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-idle-'));
const serve = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--data-dir', dataDir], {
  cwd: ROOT,
  env: { ...process.env, VOXDESK_API_KEY: KEY },
  stdio: ['ignore', 'pipe', 'pipe'],
});
serve.stderr.resume();
try {
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: serve.stdout }).once('line', resolve);
    serve.once('exit', (code) => reject(new Error(`voxdesk serve exited with code ${code}`)));
  });
  const url = /^voxdesk listening on (http:\/\/\S+)$/.exec(firstLine)?.[1];
  if (!url) throw new Error(`unexpected first line: ${firstLine}`);
  const pid = serve.pid!;

  // After start: the start-up warm-up request done, nothing else to do.
  await sleep(10_000);
  const afterStart = footprint(pid);
  process.stderr.write(`idle-footprint: after start ${JSON.stringify(afterStart)}\n`);

  const firstAfterStart = await speak(url);
  const warm = await warmJobs(url);
  const working = footprint(pid);
  process.stderr.write(`idle-footprint: working ${JSON.stringify(working)}, first job ${firstAfterStart} ms, warm ${warm} ms\n`);

  const samples: { minute: number; mb: number; processes: number }[] = [];
  const idleUntil = Date.now() + IDLE_MINUTES * 60_000;
  while (Date.now() < idleUntil) {
    await sleep(Math.min(SAMPLE_EVERY_MS, Math.max(0, idleUntil - Date.now())));
    const now = footprint(pid);
    samples.push({ minute: Math.round((IDLE_MINUTES - (idleUntil - Date.now()) / 60_000) * 10) / 10, ...now });
  }
  const afterIdle = footprint(pid);
  process.stderr.write(`idle-footprint: after ${IDLE_MINUTES} idle minutes ${JSON.stringify(afterIdle)}\n`);

  const firstAfterIdle = await speak(url);
  const warmAfter = await warmJobs(url);
  console.log(
    JSON.stringify({
      bench: 'idle-footprint',
      idle_minutes: IDLE_MINUTES,
      after_start_mb: afterStart.mb,
      after_start_processes: afterStart.processes,
      working_mb: working.mb,
      working_processes: working.processes,
      after_idle_mb: afterIdle.mb,
      after_idle_processes: afterIdle.processes,
      idle_samples: samples,
      first_job_after_start_ms: firstAfterStart,
      first_job_after_idle_ms: firstAfterIdle,
      warm_job_ms: warmAfter,
      first_after_idle_extra_ms: firstAfterIdle - warmAfter,
      goal_footprint_le_150_mb: afterStart.mb <= 150 && afterIdle.mb <= 150,
      goal_first_after_idle_le_300_ms_more: firstAfterIdle - warmAfter <= 300,
      warm_before_idle_ms: warm,
    }),
  );
} finally {
  if (serve.exitCode === null && serve.signalCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
