/**
 * A long meeting capture (issue 30, docs/capture.md): `voxdesk serve` records both sides of a private PulseAudio —
 * jfk.wav said into the microphone and another speaker's recordings played through the speakers, both on a loop, so
 * both recognizer streams work the whole time — for MINUTES, sampling every 30 s the CPU time of the service and
 * every process under it (parec ×2, the live recognizer) and their resident memory. Reports the capture's CPU per hour
 * of meeting (CPU seconds / wall hours, from the first sample after the warm-up to the last) and the RSS at the first
 * and last sample and its least-squares slope in MB per hour, for all and for the service alone (flat is the goal: a
 * leak per chunk, final or level message grows it).
 * Runs the app as built — the compiled JavaScript of dist/, built first unless `--no-build` — not the TypeScript
 * loader, and reports each kind of process apart (service, live recognizer, parec, engine workers), so a growth
 * names its owner.
 * The issue's figure is over 2 hours: `node --import tsx bench/capture-soak.ts 120`; the default (20 minutes) fits
 * `npm run bench`'s 30-minute limit per script. Prints one JSON line.
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capture } from '../src-main/common/capture-protocol.js';
import { startCapturePulse } from '../test/helpers/capture-pulse.js';
import { JFK_WAV } from '../test/helpers/dictation-fixtures.js';
import { ROOT, startServeProcess, stopServe } from '../test/helpers/service.js';
import { SHARED } from '../test/helpers/system.js';
import { round3 } from './_stats.js';

const minutes = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 20);
const MAIN = join(ROOT, 'dist', 'src-main', 'cli', 'main.js');
const SAMPLE_MS = 30_000;
const WARM_UP_MS = 60_000;
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
const PAGE_KB = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) / 1024;

/** Every process under `root` (itself included), from /proc. */
function tree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    out.push(pid);
    for (const child of parents.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

/** CPU seconds (user + system) and RSS in MB of the processes. */
function usage(pids: number[]): { cpu: number; rss: number } {
  let ticks = 0;
  let pages = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      pages += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    } catch {
      // Gone meanwhile.
    }
  }
  return { cpu: ticks / TICKS_PER_SECOND, rss: (pages * PAGE_KB) / 1024 };
}

/** What a process is, from its command line: the service itself, the live recognizer, parec, an engine worker. */
type Role = 'service' | 'recognizer' | 'parec' | 'engine-worker' | 'other';
function roleOf(pid: number, root: number): Role {
  if (pid === root) return 'service';
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return 'other';
  }
  if (command.includes('recognizer-child')) return 'recognizer';
  if (command.includes('parec')) return 'parec';
  if (command.includes('worker')) return 'engine-worker';
  return 'other';
}

/** RSS in MB of each role's processes together. */
function rssByRole(root: number): Partial<Record<Role, number>> {
  const out: Partial<Record<Role, number>> = {};
  for (const pid of tree(root)) {
    const role = roleOf(pid, root);
    out[role] = (out[role] ?? 0) + usage([pid]).rss;
  }
  return out;
}

/** The least-squares slope of `value` per hour of `at` (ms). */
function trendPerHour(points: { at: number; value: number }[]): number {
  const xs = points.map((p) => (p.at - points[0]!.at) / 3_600_000);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = points.reduce((a, p) => a + p.value, 0) / points.length;
  let num = 0;
  let den = 0;
  points.forEach((p, i) => {
    num += (xs[i]! - meanX) * (p.value - meanY);
    den += (xs[i]! - meanX) ** 2;
  });
  return den > 0 ? num / den : 0;
}

// A stale dist/ would measure old code: built every time unless --no-build (and then it must exist).
if (!process.argv.includes('--no-build') || !existsSync(MAIN)) {
  process.stderr.write('capture-soak: building dist/ (npm run build:main)\n');
  const built = spawnSync('npm', ['run', 'build:main'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build:main failed');
}

const pulse = startCapturePulse();
const dir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-capture-'));
const hifi = join(SHARED, 'audio/hifitts-6097');
const otherSide = join(dir, 'other-side.wav');
execFileSync('sox', [...readdirSync(hifi).filter((f) => f.endsWith('.wav')).sort().slice(0, 6).map((f) => join(hifi, f)), '-r', '16000', '-c', '1', otherSide]);
const key = 'vdk_capture_soak_bench_key_0123456789';
const serve = await startServeProcess(join(dir, 'data'), [], { ...pulse.env, VOXDESK_API_KEY: key }, MAIN);
const players = new Set<ChildProcess>();
let looping = true;
const loop = (file: string, into: 'mic' | 'speakers'): void => {
  if (!looping) return;
  const child = pulse.playing(file, into);
  players.add(child);
  child.once('exit', () => {
    players.delete(child);
    loop(file, into);
  });
};
try {
  const api = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${serve.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const capture = await api<Capture>('/v1/captures', { model: 'pocketsphinx-en-us' });
  loop(JFK_WAV, 'mic');
  loop(otherSide, 'speakers');
  await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
  const samples: { at: number; cpu: number; rss: number; serviceRss: number; byRole: Partial<Record<Role, number>> }[] = [];
  const end = Date.now() + minutes * 60_000;
  while (Date.now() < end) {
    const all = usage(tree(serve.child.pid!));
    const byRole = rssByRole(serve.child.pid!);
    samples.push({ at: Date.now(), ...all, serviceRss: usage([serve.child.pid!]).rss, byRole });
    const roles = Object.entries(byRole).map(([role, mb]) => `${role} ${mb.toFixed(1)}`).join(', ');
    process.stderr.write(`capture-soak: ${Math.round((Date.now() - samples[0]!.at) / 60_000)} min, CPU ${all.cpu.toFixed(1)} s, RSS ${all.rss.toFixed(1)} MB (${roles})\n`);
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  const state = await api<Capture>(`/v1/captures/${capture.id}`);
  looping = false;
  const stopped = await api<Capture>(`/v1/captures/${capture.id}/stop`, {});
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const hours = (last.at - first.at) / 3_600_000;
  console.log(
    JSON.stringify({
      bench: 'capture-soak',
      minutes,
      captured_seconds: state.duration_seconds,
      committed_seconds: state.committed_seconds,
      job_id: stopped.job_id,
      cpu_seconds_per_hour: round3((last.cpu - first.cpu) / hours),
      cpu_percent_of_one_core: round3(((last.cpu - first.cpu) / (hours * 3600)) * 100),
      rss_mb: { first: round3(first.rss), last: round3(last.rss), max: round3(Math.max(...samples.map((s) => s.rss))) },
      service_rss_mb: { first: round3(first.serviceRss), last: round3(last.serviceRss) },
      // The least-squares trend over every sample, not the two ends: the recognizer's heap saws by ±10 MB.
      rss_slope_mb_per_hour: round3(trendPerHour(samples.map((s) => ({ at: s.at, value: s.rss })))),
      // Flat means it stops growing: the second half's trend, after allocators and caches have settled.
      rss_slope_mb_per_hour_second_half: round3(trendPerHour(samples.slice(Math.floor(samples.length / 2)).map((s) => ({ at: s.at, value: s.rss })))),
      service_rss_slope_mb_per_hour: round3(trendPerHour(samples.map((s) => ({ at: s.at, value: s.serviceRss })))),
      by_role: Object.fromEntries(
        (['service', 'recognizer', 'parec', 'engine-worker', 'other'] as const)
          .filter((role) => samples.some((s) => s.byRole[role] !== undefined))
          .map((role) => {
            const series = samples.map((s) => ({ at: s.at, value: s.byRole[role] ?? 0 }));
            const slope = round3(trendPerHour(series));
            const secondHalf = round3(trendPerHour(series.slice(Math.floor(series.length / 2))));
            return [role, { first: round3(series[0]!.value), last: round3(series[series.length - 1]!.value), max: round3(Math.max(...series.map((p) => p.value))), slope_mb_per_hour: slope, slope_mb_per_hour_second_half: secondHalf }];
          }),
      ),
      warnings: state.warnings.map((w) => w.code),
    }),
  );
} finally {
  looping = false;
  for (const child of players) child.kill();
  await stopServe(serve);
  pulse.stop();
}
