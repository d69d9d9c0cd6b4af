/**
 * `npm run bench`: runs every benchmark script in bench/ one after another (never in parallel: they measure
 * ratios against a baseline in the same run, and 2-core machines are noisy enough), collects the JSON lines each
 * prints on stdout, and writes them to bench/results/<date>.json. `npm run bench -- NAME…` runs only the scripts
 * whose file name contains one of the NAMEs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const scripts = readdirSync(benchDir)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.startsWith('_'))
  .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
  .sort();

interface BenchLine {
  bench: string;
  [key: string]: unknown;
}

const results: { script: string; ok: boolean; seconds: number; lines: BenchLine[]; error?: string }[] = [];
for (const script of scripts) {
  process.stderr.write(`\n▶ ${script}\n`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(benchDir, script)], {
    cwd: join(benchDir, '..'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
    timeout: 30 * 60 * 1000,
  });
  const lines = run.stdout
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as BenchLine];
      } catch {
        return [];
      }
    });
  for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
  const ok = run.status === 0;
  results.push({
    script,
    ok,
    seconds: (Date.now() - started) / 1000,
    lines,
    ...(ok ? {} : { error: run.error?.message ?? `exit ${run.status ?? run.signal}` }),
  });
}

const machine = { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? 'unknown', mem_gib: Math.round(totalmem() / 2 ** 30), node: process.version };
const resultsDir = join(benchDir, 'results');
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2));
process.stderr.write(`\nresults: ${file}\n`);
const failed = results.filter((r) => !r.ok);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.map((r) => `${r.script} (${r.error})`).join(', ')}\n`);
  process.exitCode = 1;
}
