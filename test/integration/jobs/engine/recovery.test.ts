import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { openDatabase } from '../../../../src-main/store/database.js';
import { createHarness, syncReposOf, terminal, type Harness } from '../harness.js';

/** The claim a killed process of this machine leaves (no such pid); another machine's claim is judged by its lease. */
const GONE = `${hostname()}:999999:dead`;

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) c();
});

describe('durability', () => {
  it('two service instances on one database never run a job twice', async () => {
    h = createHarness({ workers: 1 });
    const other = h.newService({ workers: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await h.service.createJob(h.job({ behaviour: 'sleep', ms: 100 }))).job.id);
    const finished = new Set<string>();
    const ranBy = new Map<string, string>();
    const all = new Promise<void>((resolve) => {
      for (const [name, service] of [['a', h!.service], ['b', other]] as const) {
        service.events.on('job-changed', (job: Job) => {
          if (job.status === 'running') {
            const start = `${name}@${job.started_at}`;
            expect(ranBy.get(job.id) ?? start).toBe(start); // one start, by one instance
            ranBy.set(job.id, start);
          }
          if (isTerminal(job.status)) finished.add(job.id);
          if (finished.size === ids.length) resolve();
        });
      }
    });
    await h.service.start();
    await other.start();
    await all;
    for (const id of ids) {
      const row = h.repos.jobs.get(id)!;
      expect(row.status).toBe('succeeded');
      expect(row.attempts).toBe(1);
    }
    expect(new Set([...ranBy.values()].map((v) => v[0]))).toEqual(new Set(['a', 'b'])); // both instances did work
    expect((await h.service.ledgerFor(h.accountId)).filter((e) => e.kind === 'request_fee')).toHaveLength(ids.length);
  });

  it('a job left running by a crashed service is requeued on start and charged once', async () => {
    h = createHarness();
    const { job } = await h.service.createJob(h.job({ behaviour: 'succeed', seconds: 60 }, { modelId: 'test-priced' }));
    // What a kill -9 leaves: running, claimed by a process of this machine that no longer exists.
    h.db.prepare("UPDATE jobs SET status = 'running', attempts = 1, started_at = created_at, claimed_by = ? WHERE id = ?").run(GONE, job.id);
    const fresh = h.newService();
    await fresh.start();
    const done = await terminal(fresh, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    // The interrupted run was not the job's fault: it does not count as an attempt.
    expect(syncReposOf(fresh).jobs.get(job.id)?.attempts).toBe(1);
    const ledger = await fresh.ledgerFor(h.accountId);
    expect(ledger.map((e) => e.kind)).toEqual(['request_fee', 'usage']);
    // A replayed success (the same charges again) is refused by the unique indexes.
    const again = syncReposOf(fresh).ledger.charge({ ...ledger[0]!, created_at: new Date().toISOString() });
    expect(again).toBe(false);
    expect(await fresh.ledgerFor(h.accountId)).toHaveLength(2);
  });

  it('no number of service restarts fails a job (the "interrupted" outcome is gone)', async () => {
    h = createHarness();
    const { job } = await h.service.createJob(h.job({ behaviour: 'sleep', ms: 1500 }));
    for (let restart = 1; restart <= 7; restart++) {
      // What a kill -9 during a run leaves: running (one more attempt), claimed by an instance that no longer exists.
      h.db
        .prepare("UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = created_at, claimed_by = ? WHERE id = ?")
        .run(GONE, job.id);
      const service = h.newService();
      await service.start(); // recovery puts it back in the queue; it starts again at once
      if (restart < 7) await service.shutdown(0);
      else expect((await terminal(service, h.accountId, job.id)).status).toBe('succeeded');
    }
    expect(h.repos.jobs.get(job.id)).toMatchObject({ error_code: null, attempts: 1 });
  });

  it('kill -9 of a whole service process: after a restart every job is terminal and nothing is charged twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-kill9-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const script = new URL('../fixtures/queue-process.ts', import.meta.url).pathname;
    const run = (args: string[]): { child: ChildProcess; lines: AsyncIterableIterator<string> } => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
      cleanups.push(() => child.kill('SIGKILL'));
      return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator]() };
    };
    const first = run(['create', dir, '8']);
    let workerPids: number[] = [];
    // Wait until jobs are running on both workers, then kill -9 the service mid-run.
    for (;;) {
      const line = await first.lines.next();
      if (line.done) throw new Error('the service process ended before running jobs');
      workerPids = (JSON.parse(line.value) as { workers: number[] }).workers;
      const db = openDatabase(join(dir, 'voxdesk.db'));
      const running = (db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'running'").get() as { n: number }).n;
      const succeeded = (db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'succeeded'").get() as { n: number }).n;
      db.close();
      if (running > 0 && succeeded > 0 && workerPids.length > 0) break;
    }
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    const before = openDatabase(join(dir, 'voxdesk.db'));
    const interrupted = (before.prepare("SELECT id FROM jobs WHERE status = 'running'").all() as { id: string }[]).map((r) => r.id);
    before.close();
    expect(interrupted.length).toBeGreaterThan(0);

    const second = run(['resume', dir]);
    const last = await second.lines.next();
    expect(JSON.parse(String(last.value))).toEqual({ done: true });

    const db = openDatabase(join(dir, 'voxdesk.db'));
    const jobs = db.prepare('SELECT id, status, attempts FROM jobs').all() as { id: string; status: string; attempts: number }[];
    expect(jobs).toHaveLength(8);
    expect(jobs.every((j) => j.status === 'succeeded')).toBe(true);
    // Interrupted jobs ran again, and a service stop is not counted against them.
    for (const id of interrupted) expect(jobs.find((j) => j.id === id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    const charges = db.prepare('SELECT job_id, kind, COUNT(*) AS n FROM ledger GROUP BY job_id, kind').all() as { n: number }[];
    expect(charges).toHaveLength(16);
    expect(charges.every((c) => c.n === 1)).toBe(true);
    db.close();
    // The killed service's workers noticed their parent was gone and exited.
    for (const pid of workerPids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
