/**
 * Job engine throughput: N jobs created and run to success through real worker processes with the test engine
 * ('succeed', no work), against N bare SQLite insert+update transactions on the same kind of database file.
 * Also prints the CPU the service's process spent per job (its main thread does the bookkeeping; the workers are other
 * processes) and the CPU its worker processes spent per job, which the load of a shared machine distorts less than the
 * wall-clock rate, and the load average.
 * The two runs alternate, ROUNDS times (default 5) of N jobs (default 1,000), each round on fresh database files: a
 * pair of runs of 300 jobs (the default until 23 Nov) lasted a fraction of a second, and one busy moment of the
 * machine moved its ratio by ±25 % (quiet machine, 23 Nov: 0.17–0.28 between the rounds of one run, bare SQLite alone
 * 5,200–8,500/s). The figures printed are the medians of the rounds, with each round's ratio beside them.
 * Prints one JSON line. Usage: node --import tsx bench/jobs-throughput.ts [N=1000] [workers=2] [rounds=5]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NO_LIMITS, type ModelDefinition } from '../src-main/engines/model-definition.js';
import { createJobService } from '../src-main/jobs/engine/job-service.js';
import { createAccountsRepo } from '../src-main/store/accounts-repo.js';
import { openDatabase } from '../src-main/store/database.js';
import { createSqliteStore } from '../src-main/store/sqlite-store.js';

process.env.VOXDESK_TEST_ENGINES = '1';
const count = Number(process.argv[2] ?? 1000);
const workers = Number(process.argv[3] ?? 2);
const rounds = Number(process.argv[4] ?? 5);

const model: ModelDefinition = {
  id: 'bench', name: 'bench', description: 'test engine', capability: 'asr', products: ['speech-to-text'], provider: 'local',
  engine: 'test', engineConfig: {}, languages: ['en'], live: false, acceptsSpeed: false, limits: NO_LIMITS, paramsSchema: {},
  status: 'available', reason: null,
};

/** CPU seconds a process has used (Linux /proc; null elsewhere). */
function processCpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100 a second on Linux)
  } catch {
    return null;
  }
}

function workersCpuSeconds(pids: number[]): number | null {
  const each = pids.map(processCpuSeconds);
  return each.includes(null) ? null : (each as number[]).reduce((a, b) => a + b, 0);
}

/**
 * Seconds for the jobs, the CPU this process (the service's threads) spent per job and the CPU its worker processes
 * spent per job (ms; null where /proc is missing).
 */
async function engineRun(dir: string): Promise<{ seconds: number; cpuMsPerJob: number; workerCpuMsPerJob: number | null }> {
  const db = openDatabase(join(dir, 'engine.db'));
  const service = createJobService({ store: createSqliteStore(db, join(dir, 'engine.db')), dataDir: dir, resolveModel: () => model, workers });
  const accountId = createAccountsRepo(db).createAccount('bench').id;
  await service.start();
  // Warm the workers so process start-up is not what is measured: every worker has loaded (and warmed) its engines
  // (a worker still warming eSpeak took a core from the first seconds of the run), and one job has gone through.
  await service.workersReady();
  const { job: warm } = await service.createJob({ accountId, product: 'speech-to-text', modelId: 'bench', name: null, language: null, params: {}, input: {} });
  await service.waitForTerminal(warm.id, 60_000);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const pids = service.workerStats().pids;
  const workersStart = workersCpuSeconds(pids);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await service.createJob({ accountId, product: 'speech-to-text', modelId: 'bench', name: `j${i}`, language: null, params: { behaviour: 'succeed' }, input: {} })).job.id);
  }
  // As a client waiting on each job would (HTTP ?wait, the OpenAI routes): no view is built for it.
  await Promise.all(ids.map((id) => service.waitForTerminal(id, 600_000)));
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const workersEnd = workersCpuSeconds(pids);
  await service.shutdown(0);
  db.close();
  const workerCpuMsPerJob = workersStart === null || workersEnd === null ? null : ((workersEnd - workersStart) * 1000) / count;
  return { seconds, cpuMsPerJob: (cpu.user + cpu.system) / 1000 / count, workerCpuMsPerJob };
}

function bareRun(dir: string): number {
  const db = openDatabase(join(dir, 'bare.db'));
  const accountId = createAccountsRepo(db).createAccount('bench').id;
  const insert = db.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, created_at, updated_at)
    VALUES (?, ?, 'speech-to-text', 'bench', 'queued', '{}', '{}', ?, ?)`);
  const update = db.prepare("UPDATE jobs SET status = 'succeeded', finished_at = ?, updated_at = ? WHERE id = ?");
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const id = `job_${i}`;
    const now = new Date().toISOString();
    db.transaction(() => insert.run(id, accountId, now, now)).immediate();
    db.transaction(() => update.run(now, now, id)).immediate();
  }
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return seconds;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-jobs-'));
try {
  const load = loadavg()[0]!;
  const each: { engineSeconds: number; cpuMsPerJob: number; workerCpuMsPerJob: number | null; bareSeconds: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const roundDir = mkdtempSync(join(dir, `round-${round}-`));
    const { seconds: engineSeconds, cpuMsPerJob, workerCpuMsPerJob } = await engineRun(roundDir);
    each.push({ engineSeconds, cpuMsPerJob, workerCpuMsPerJob, bareSeconds: bareRun(roundDir) });
  }
  const ratios = each.map((r) => r.bareSeconds / r.engineSeconds);
  const workerCpu = each.map((r) => r.workerCpuMsPerJob);
  console.log(
    JSON.stringify({
      bench: 'jobs-throughput',
      jobs: count,
      workers,
      rounds,
      engine_seconds: +median(each.map((r) => r.engineSeconds)).toFixed(3),
      jobs_per_second: +median(each.map((r) => count / r.engineSeconds)).toFixed(1),
      bare_sqlite_per_second: +median(each.map((r) => count / r.bareSeconds)).toFixed(1),
      ratio: +median(ratios).toFixed(4),
      ratio_each_round: ratios.map((r) => +r.toFixed(4)),
      service_cpu_ms_per_job: +median(each.map((r) => r.cpuMsPerJob)).toFixed(3),
      workers_cpu_ms_per_job: workerCpu.includes(null) ? null : +median(workerCpu as number[]).toFixed(3),
      load_average: +load.toFixed(2),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
