/**
 * The monthly spending cap (jobs/spending-cap.ts) and the price recorded when work is accepted (jobs/billing.ts), on
 * a real SQLite file with the job engine's real scheduler. The hosted service is the runner boundary: a scripted
 * runner that "runs" each job in a moment (two real instances are in test/integration/remote/spending.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../../src-main/common/api-types.js';
import { chargesFor, sumMicro, toMicro } from '../../../../src-main/common/pricing.js';
import type { HoldOutcome, JobRunner } from '../../../../src-main/jobs/engine/job-runner.js';
import type { JobEngine } from '../../../../src-main/jobs/engine/job-service.js';
import { createHarness, PRICED, whenJob, type Harness, type HarnessOptions } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';
import { untilFound } from '../../../helpers/wait.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** $0.05 a request, nothing per minute: the acceptance's hosted price. */
const FEE_ONLY = { currency: 'USD' as const, request_fee_usd: 0.05, per_minute_usd: 0, options: {} };

interface Script {
  runner: JobRunner;
  /** Jobs the runner was given, in order. */
  started: string[];
  /** Runs wait until released (to hold several hosted jobs running at once). */
  gate: Promise<void>;
  open(): void;
  placement: HoldOutcome;
}

function scriptedRunner(): Script {
  let open!: () => void;
  const script: Script = {
    started: [],
    gate: new Promise<void>((resolve) => (open = resolve)),
    open: () => open(),
    placement: { kind: 'accepted' },
    runner: {} as JobRunner,
  };
  open(); // runs finish at once unless a test closes the gate
  script.runner = {
    async run(task, ctx) {
      script.started.push(task.jobId);
      await script.gate;
      ctx.measured(30);
      return { result: { text: 'hosted' }, artifacts: [], durationSeconds: 30 };
    },
    async placeBatch() {
      return script.placement;
    },
  };
  return script;
}

function setUp(extra: HarnessOptions = {}, pricing = FEE_ONLY): Script {
  const script = scriptedRunner();
  h = createHarness({ schedulerIntervalMs: 50, runners: { remote: script.runner }, ...extra });
  h.models.set('hosted', { ...h.models.get('test-free')!, id: 'hosted', engine: 'remote', provider: 'remote', pricing });
  return script;
}

async function hostedJob(service: JobEngine, name: string): Promise<Job> {
  return (await service.createJob(h.job({}, { modelId: 'hosted', name }))).job;
}

/** Created one after another, in this order. */
async function hostedJobs(service: JobEngine, names: string[]): Promise<Job[]> {
  const jobs: Job[] = [];
  for (const name of names) jobs.push(await hostedJob(service, name));
  return jobs;
}

async function jobNow(service: JobEngine, id: string): Promise<Job> {
  return (await service.getJob(h.accountId, 'speech-to-text', id))!;
}

async function jobsNow(service: JobEngine, jobs: Job[]): Promise<Job[]> {
  return Promise.all(jobs.map((j) => jobNow(service, j.id)));
}

const until = <T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> => untilFound(what, probe, { timeoutMs: scaled(20_000), everyMs: 20 });

const hostedTotal = async (service: JobEngine): Promise<number> =>
  (await service.ledgerFor(h.accountId)).filter((e) => e.provider === 'remote').reduce((sum, e) => sum + e.amount_usd_micro, 0);

describe('the monthly spending cap on hosted work', () => {
  it('$0.12 cap, $0.05 a job: two run, the third waits for the budget (queued, its reason given), raising the cap releases it', async () => {
    setUp();
    await h.service.setMonthlyCap(toMicro(0.12));
    await h.service.start();
    const jobs = await hostedJobs(h.service, ['one', 'two', 'three']);
    await until('two to finish', async () => (await jobsNow(h.service, jobs.slice(0, 2))).every((j) => j.status === 'succeeded'));
    const third = await until('the third to wait', async () => {
      const j = await jobNow(h.service, jobs[2]!.id);
      return j.error_code === 'waiting_for_budget' && j;
    });
    expect(third).toMatchObject({ status: 'queued', started_at: null });
    expect(third.error_message).toMatch(/\$0\.05 would pass the monthly cap.*\$0\.10 of \$0\.12.*\$0\.02 left/);
    expect(await hostedTotal(h.service)).toBe(100_000);
    expect(await h.service.budget()).toMatchObject({ monthly_usd: 0.12, spent_usd: 0.1, reserved_usd: 0, remaining_usd: 0.02, waiting: 1 });
    expect((await h.service.queueSummary(h.accountId)).waiting).toEqual({ waiting_for_budget: 1 });

    await h.service.setMonthlyCap(toMicro(0.15));
    expect((await whenJob(h.service, jobs[2]!.id, (j) => j.status === 'succeeded')).error_code).toBeNull();
    expect(await hostedTotal(h.service)).toBe(150_000);
    expect(await h.service.budget()).toMatchObject({ spent_usd: 0.15, remaining_usd: 0, waiting: 0 });
  });

  it('holds across a restart and releases in the order the work was sent', async () => {
    setUp();
    await h.service.setMonthlyCap(0);
    await h.service.start();
    const jobs = await hostedJobs(h.service, ['a', 'b', 'c']);
    await until('all three to wait', async () => (await jobsNow(h.service, jobs)).every((j) => j.error_code === 'waiting_for_budget'));
    // Only the oldest is measured against the cap; the others wait behind it.
    expect(await (await jobNow(h.service, jobs[0]!.id)).error_message).toMatch(/would pass the monthly cap/);
    expect(await (await jobNow(h.service, jobs[2]!.id)).error_message).toMatch(/behind earlier hosted work/);
    await h.service.shutdown(0);

    const script = scriptedRunner();
    const next = h.newService({ schedulerIntervalMs: 50, runners: { remote: script.runner } });
    await next.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await jobsNow(next, jobs)).map((j) => j.status)).toEqual(['queued', 'queued', 'queued']);
    expect(script.started).toEqual([]);
    await next.setMonthlyCap(toMicro(0.1));
    await until('two to finish', async () => (await jobsNow(next, jobs)).filter((j) => j.status === 'succeeded').length === 2);
    expect(script.started).toEqual([jobs[0]!.id, jobs[1]!.id]);
    expect(await jobNow(next, jobs[2]!.id)).toMatchObject({ status: 'queued', error_code: 'waiting_for_budget' });
    await next.setMonthlyCap(null);
    await whenJob(next, jobs[2]!.id, (j) => j.status === 'succeeded');
    expect(script.started).toEqual(jobs.map((j) => j.id));
  });

  it('several hosted jobs starting at once never pass the cap together: each reserves its quote as it starts', async () => {
    const script = setUp();
    script.gate = new Promise<void>((resolve) => (script.open = resolve)); // runs stay in flight
    await h.service.setMonthlyCap(toMicro(0.1));
    // Created before the engine starts, so one scheduling pass sees all five at once.
    const jobs = await hostedJobs(h.service, ['j0', 'j1', 'j2', 'j3', 'j4']);
    await h.service.start();
    await until('two to run', async () => script.started.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(script.started).toHaveLength(2);
    expect(await h.service.budget()).toMatchObject({ spent_usd: 0, reserved_usd: 0.1, remaining_usd: 0, waiting: 3 });
    // A second instance on the same database sees the reservations too, and its scheduler starts none of the rest.
    const otherScript = scriptedRunner();
    const other = h.newService({ schedulerIntervalMs: 50, runners: { remote: otherScript.runner } });
    expect(await other.budget()).toMatchObject({ reserved_usd: 0.1, remaining_usd: 0 });
    await other.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(otherScript.started).toHaveLength(0);
    expect((await jobsNow(other, jobs)).filter((j) => j.error_code === 'waiting_for_budget')).toHaveLength(3);
    script.open();
    await until('two charged', async () => (await hostedTotal(h.service)) === 100_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await jobsNow(h.service, jobs)).filter((j) => j.status === 'succeeded')).toHaveLength(2);
    expect(await h.service.budget()).toMatchObject({ spent_usd: 0.1, reserved_usd: 0, remaining_usd: 0, waiting: 3 });
  });

  it('a job paused while it waits for the budget steps out of the line; resumed, it is checked again', async () => {
    setUp();
    await h.service.setMonthlyCap(toMicro(0.05));
    await h.service.start();
    const [first, paused, later] = await hostedJobs(h.service, ['first', 'paused', 'later']);
    await whenJob(h.service, first!.id, (j) => j.status === 'succeeded');
    await until('both to wait', async () => (await jobsNow(h.service, [paused!, later!])).every((j) => j.error_code === 'waiting_for_budget'));
    await h.service.pauseJob(h.accountId, 'speech-to-text', paused!.id);
    expect(await jobNow(h.service, paused!.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    expect(await h.service.budget()).toMatchObject({ waiting: 1 });
    // Raised by one job's worth: the later job no longer waits behind the paused one.
    await h.service.setMonthlyCap(toMicro(0.1));
    await whenJob(h.service, later!.id, (j) => j.status === 'succeeded');
    expect(await jobNow(h.service, paused!.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    await h.service.resumeJob(h.accountId, 'speech-to-text', paused!.id);
    await until('it to wait again', async () => (await jobNow(h.service, paused!.id)).error_code === 'waiting_for_budget');
    await h.service.setMonthlyCap(toMicro(0.15));
    await whenJob(h.service, paused!.id, (j) => j.status === 'succeeded');
    expect(await hostedTotal(h.service)).toBe(150_000);
  });

  it('work waiting for the budget never expires; released, it gets a fresh queue window', async () => {
    let now = Date.parse('2026-03-10T00:00:00.000Z');
    setUp({ clock: () => new Date(now), queueWindowSeconds: 60 });
    await h.service.setMonthlyCap(0);
    await h.service.start();
    const job = await hostedJob(h.service, 'late');
    await until('it waits', async () => (await jobNow(h.service, job.id)).error_code === 'waiting_for_budget');
    now += 3600_000;
    await h.service.runMaintenance();
    expect(await (await jobNow(h.service, job.id)).status).toBe('queued');
    await h.service.setMonthlyCap(toMicro(1));
    expect((await whenJob(h.service, job.id, (j) => j.status === 'succeeded')).status).toBe('succeeded');
  });

  it('a new month releases what the cap held', async () => {
    let now = Date.parse('2026-03-31T23:59:00.000Z');
    setUp({ clock: () => new Date(now) });
    await h.service.setMonthlyCap(toMicro(0.05));
    await h.service.start();
    const first = await hostedJob(h.service, 'march');
    await whenJob(h.service, first.id, (j) => j.status === 'succeeded');
    const second = await hostedJob(h.service, 'april');
    await until('it waits', async () => (await jobNow(h.service, second.id)).error_code === 'waiting_for_budget');
    expect(await h.service.budget()).toMatchObject({ month: '2026-03', resets_at: '2026-04-01T00:00:00.000Z', remaining_usd: 0 });
    now = Date.parse('2026-04-01T00:00:01.000Z');
    await whenJob(h.service, second.id, (j) => j.status === 'succeeded');
    expect(await h.service.budget()).toMatchObject({ month: '2026-04', spent_usd: 0.05, remaining_usd: 0 });
  });

  it('a hosted batch is checked as a whole: it stays pending until the cap takes all of it, then pays one fee', async () => {
    setUp({}, PRICED);
    // PRICED: $0.05 a request + $0.006 a minute. Three 60-second items: $0.05 + 3 × $0.006 = $0.068.
    await h.service.setMonthlyCap(toMicro(0.06));
    await h.service.start();
    const { batch } = await h.service.createBatch({
      accountId: h.accountId,
      product: 'speech-to-text',
      modelId: 'hosted',
      params: {},
      language: null,
      items: [0, 1, 2].map((i) => ({ name: `clip-${i}.wav`, input: { fileName: `clip-${i}.wav` }, estimatedSeconds: 60 })),
    });
    const waiting = await until('the batch to wait', async () => {
      const b = (await h.service.getBatch(h.accountId, 'speech-to-text', batch.id))!;
      return b.files.every((f) => f.status === 'pending' && f.error_code === 'waiting_for_budget') && b;
    });
    expect(waiting.files[0]!.error_message).toMatch(/\$0\.068 would pass the monthly cap/);
    expect((await h.service.budget()).waiting).toBe(3);
    await h.service.setMonthlyCap(toMicro(0.07));
    const done = await until('the batch to complete', async () => {
      const b: Batch = (await h.service.getBatch(h.accountId, 'speech-to-text', batch.id))!;
      return b.status === 'complete' && b;
    });
    expect(done).toMatchObject({ succeeded: 3, failed: 0 });
    // Ran 30 s each (the runner's figure), charged from that: $0.05 + 3 × $0.003.
    expect(await hostedTotal(h.service)).toBe(50_000 + 3 * 3_000);
    expect(await h.service.budget()).toMatchObject({ reserved_usd: 0, spent_usd: 0.059 });
  });
});

describe('the price is recorded when work is accepted', () => {
  it('a job and a held batch are charged at the price they were accepted at, not the price when they finish', async () => {
    const script = setUp({}, PRICED);
    script.placement = { kind: 'waiting', code: 'waiting_for_capacity', message: 'no room yet' };
    h.models.set('test-priced', { ...h.models.get('test-priced')!, pricing: PRICED });
    const job = (await h.service.createJob(h.job({ seconds: 90 }, { modelId: 'test-priced' }))).job;
    const { batch } = await h.service.createBatch({
      accountId: h.accountId,
      product: 'speech-to-text',
      modelId: 'hosted',
      params: {},
      language: null,
      items: [{ name: 'a.wav', input: { fileName: 'a.wav' }, estimatedSeconds: 30 }],
    });
    const row = h.repos.jobs.get(job.id)!;
    expect(JSON.parse(row.price_json!)).toEqual({ pricing: PRICED, hosted: false });
    expect(row.estimated_usd_micro).toBe(50_000); // the length of a recording is not known here: the fee
    expect(h.repos.batches.get(batch.id)).toMatchObject({ estimated_usd_micro: 50_000 + 3_000 });
    expect(h.repos.batches.items(batch.id)[0]).toMatchObject({ estimated_seconds: 30 });

    // The operator doubles every price before anything has run.
    const doubled = { ...PRICED, request_fee_usd: 0.1, per_minute_usd: 0.012 };
    h.models.set('test-priced', { ...h.models.get('test-priced')!, pricing: doubled });
    h.models.set('hosted', { ...h.models.get('hosted')!, pricing: doubled });
    await h.service.start();
    await whenJob(h.service, job.id, (j) => j.status === 'succeeded');
    script.placement = { kind: 'accepted' };
    await until('the batch to complete', async () => (await h.service.getBatch(h.accountId, 'speech-to-text', batch.id))!.status === 'complete');
    const ledger = await h.service.ledgerFor(h.accountId);
    expect(ledger.filter((e) => e.job_id === job.id).reduce((s, e) => s + e.amount_usd_micro, 0)).toBe(sumMicro(chargesFor(PRICED, 90)));
    const released = h.repos.jobs.ofBatch(batch.id)[0]!;
    expect(released).toMatchObject({ estimated_seconds: 30, estimated_usd_micro: 3_000 });
    expect(ledger.filter((e) => e.batch_id === batch.id).map((e) => [e.kind, e.amount_usd_micro, e.provider]).sort()).toEqual([
      ['request_fee', 50_000, 'remote'],
      ['usage', 3_000, 'remote'],
    ]);
  });
});
