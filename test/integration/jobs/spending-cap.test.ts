/**
 * The monthly spending cap (jobs/spending-cap.ts) and the price recorded when work is accepted (jobs/billing.ts), on
 * a real SQLite file with the job engine's real scheduler. The hosted service is the runner boundary: a scripted
 * runner that "runs" each job in a moment (two real instances are in test/integration/remote/spending.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../src-main/common/api-types.js';
import { chargesFor, sumMicro, toMicro } from '../../../src-main/common/pricing.js';
import type { HoldOutcome, JobRunner } from '../../../src-main/jobs/job-runner.js';
import type { JobEngine } from '../../../src-main/jobs/job-service.js';
import { createHarness, PRICED, whenJob, type Harness, type HarnessOptions } from './harness.js';

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

function hostedJob(service: JobEngine, name: string): Job {
  return service.createJob(h.job({}, { modelId: 'hosted', name })).job;
}

function jobNow(service: JobEngine, id: string): Job {
  return service.getJob(h.accountId, 'speech-to-text', id)!;
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const hostedTotal = (service: JobEngine): number =>
  service.ledgerFor(h.accountId).filter((e) => e.provider === 'remote').reduce((sum, e) => sum + e.amount_usd_micro, 0);

describe('the monthly spending cap on hosted work', () => {
  it('$0.12 cap, $0.05 a job: two run, the third waits for the budget (queued, its reason given), raising the cap releases it', async () => {
    setUp();
    h.service.setMonthlyCap(toMicro(0.12));
    h.service.start();
    const jobs = ['one', 'two', 'three'].map((name) => hostedJob(h.service, name));
    await until('two to finish', () => jobs.slice(0, 2).every((j) => jobNow(h.service, j.id).status === 'succeeded'));
    const third = await until('the third to wait', () => {
      const j = jobNow(h.service, jobs[2]!.id);
      return j.error_code === 'waiting_for_budget' && j;
    });
    expect(third).toMatchObject({ status: 'queued', started_at: null });
    expect(third.error_message).toMatch(/\$0\.05 would pass the monthly cap.*\$0\.10 of \$0\.12.*\$0\.02 left/);
    expect(hostedTotal(h.service)).toBe(100_000);
    expect(h.service.budget()).toMatchObject({ monthly_usd: 0.12, spent_usd: 0.1, reserved_usd: 0, remaining_usd: 0.02, waiting: 1 });
    expect(h.service.queueSummary(h.accountId).waiting).toEqual({ waiting_for_budget: 1 });

    h.service.setMonthlyCap(toMicro(0.15));
    expect((await whenJob(h.service, jobs[2]!.id, (j) => j.status === 'succeeded')).error_code).toBeNull();
    expect(hostedTotal(h.service)).toBe(150_000);
    expect(h.service.budget()).toMatchObject({ spent_usd: 0.15, remaining_usd: 0, waiting: 0 });
  });

  it('holds across a restart and releases in the order the work was sent', async () => {
    setUp();
    h.service.setMonthlyCap(0);
    h.service.start();
    const jobs = ['a', 'b', 'c'].map((name) => hostedJob(h.service, name));
    await until('all three to wait', () => jobs.every((j) => jobNow(h.service, j.id).error_code === 'waiting_for_budget'));
    // Only the oldest is measured against the cap; the others wait behind it.
    expect(jobNow(h.service, jobs[0]!.id).error_message).toMatch(/would pass the monthly cap/);
    expect(jobNow(h.service, jobs[2]!.id).error_message).toMatch(/behind earlier hosted work/);
    await h.service.shutdown(0);

    const script = scriptedRunner();
    const next = h.newService({ schedulerIntervalMs: 50, runners: { remote: script.runner } });
    next.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(jobs.map((j) => jobNow(next, j.id).status)).toEqual(['queued', 'queued', 'queued']);
    expect(script.started).toEqual([]);
    next.setMonthlyCap(toMicro(0.1));
    await until('two to finish', () => jobs.filter((j) => jobNow(next, j.id).status === 'succeeded').length === 2);
    expect(script.started).toEqual([jobs[0]!.id, jobs[1]!.id]);
    expect(jobNow(next, jobs[2]!.id)).toMatchObject({ status: 'queued', error_code: 'waiting_for_budget' });
    next.setMonthlyCap(null);
    await whenJob(next, jobs[2]!.id, (j) => j.status === 'succeeded');
    expect(script.started).toEqual(jobs.map((j) => j.id));
  });

  it('several hosted jobs starting at once never pass the cap together: each reserves its quote as it starts', async () => {
    const script = setUp();
    script.gate = new Promise<void>((resolve) => (script.open = resolve)); // runs stay in flight
    h.service.setMonthlyCap(toMicro(0.1));
    // Created before the engine starts, so one scheduling pass sees all five at once.
    const jobs = Array.from({ length: 5 }, (_, i) => hostedJob(h.service, `j${i}`));
    h.service.start();
    await until('two to run', () => script.started.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(script.started).toHaveLength(2);
    expect(h.service.budget()).toMatchObject({ spent_usd: 0, reserved_usd: 0.1, remaining_usd: 0, waiting: 3 });
    // A second instance on the same database sees the reservations too, and its scheduler starts none of the rest.
    const otherScript = scriptedRunner();
    const other = h.newService({ schedulerIntervalMs: 50, runners: { remote: otherScript.runner } });
    expect(other.budget()).toMatchObject({ reserved_usd: 0.1, remaining_usd: 0 });
    other.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(otherScript.started).toHaveLength(0);
    expect(jobs.filter((j) => jobNow(other, j.id).error_code === 'waiting_for_budget')).toHaveLength(3);
    script.open();
    await until('two charged', () => hostedTotal(h.service) === 100_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(jobs.filter((j) => jobNow(h.service, j.id).status === 'succeeded')).toHaveLength(2);
    expect(h.service.budget()).toMatchObject({ spent_usd: 0.1, reserved_usd: 0, remaining_usd: 0, waiting: 3 });
  });

  it('a job paused while it waits for the budget steps out of the line; resumed, it is checked again', async () => {
    setUp();
    h.service.setMonthlyCap(toMicro(0.05));
    h.service.start();
    const [first, paused, later] = ['first', 'paused', 'later'].map((name) => hostedJob(h.service, name));
    await whenJob(h.service, first!.id, (j) => j.status === 'succeeded');
    await until('both to wait', () => [paused!, later!].every((j) => jobNow(h.service, j.id).error_code === 'waiting_for_budget'));
    h.service.pauseJob(h.accountId, 'speech-to-text', paused!.id);
    expect(jobNow(h.service, paused!.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    expect(h.service.budget()).toMatchObject({ waiting: 1 });
    // Raised by one job's worth: the later job no longer waits behind the paused one.
    h.service.setMonthlyCap(toMicro(0.1));
    await whenJob(h.service, later!.id, (j) => j.status === 'succeeded');
    expect(jobNow(h.service, paused!.id)).toMatchObject({ status: 'queued', error_code: 'paused' });
    h.service.resumeJob(h.accountId, 'speech-to-text', paused!.id);
    await until('it to wait again', () => jobNow(h.service, paused!.id).error_code === 'waiting_for_budget');
    h.service.setMonthlyCap(toMicro(0.15));
    await whenJob(h.service, paused!.id, (j) => j.status === 'succeeded');
    expect(hostedTotal(h.service)).toBe(150_000);
  });

  it('work waiting for the budget never expires; released, it gets a fresh queue window', async () => {
    let now = Date.parse('2026-03-10T00:00:00.000Z');
    setUp({ clock: () => new Date(now), queueWindowSeconds: 60 });
    h.service.setMonthlyCap(0);
    h.service.start();
    const job = hostedJob(h.service, 'late');
    await until('it waits', () => jobNow(h.service, job.id).error_code === 'waiting_for_budget');
    now += 3600_000;
    h.service.runMaintenance();
    expect(jobNow(h.service, job.id).status).toBe('queued');
    h.service.setMonthlyCap(toMicro(1));
    expect((await whenJob(h.service, job.id, (j) => j.status === 'succeeded')).status).toBe('succeeded');
  });

  it('a new month releases what the cap held', async () => {
    let now = Date.parse('2026-03-31T23:59:00.000Z');
    setUp({ clock: () => new Date(now) });
    h.service.setMonthlyCap(toMicro(0.05));
    h.service.start();
    const first = hostedJob(h.service, 'march');
    await whenJob(h.service, first.id, (j) => j.status === 'succeeded');
    const second = hostedJob(h.service, 'april');
    await until('it waits', () => jobNow(h.service, second.id).error_code === 'waiting_for_budget');
    expect(h.service.budget()).toMatchObject({ month: '2026-03', resets_at: '2026-04-01T00:00:00.000Z', remaining_usd: 0 });
    now = Date.parse('2026-04-01T00:00:01.000Z');
    await whenJob(h.service, second.id, (j) => j.status === 'succeeded');
    expect(h.service.budget()).toMatchObject({ month: '2026-04', spent_usd: 0.05, remaining_usd: 0 });
  });

  it('a hosted batch is checked as a whole: it stays pending until the cap takes all of it, then pays one fee', async () => {
    setUp({}, PRICED);
    // PRICED: $0.05 a request + $0.006 a minute. Three 60-second items: $0.05 + 3 × $0.006 = $0.068.
    h.service.setMonthlyCap(toMicro(0.06));
    h.service.start();
    const { batch } = h.service.createBatch({
      accountId: h.accountId,
      product: 'speech-to-text',
      modelId: 'hosted',
      params: {},
      language: null,
      items: [0, 1, 2].map((i) => ({ name: `clip-${i}.wav`, input: { fileName: `clip-${i}.wav` }, estimatedSeconds: 60 })),
    });
    const waiting = await until('the batch to wait', () => {
      const b = h.service.getBatch(h.accountId, 'speech-to-text', batch.id)!;
      return b.files.every((f) => f.status === 'pending' && f.error_code === 'waiting_for_budget') && b;
    });
    expect(waiting.files[0]!.error_message).toMatch(/\$0\.068 would pass the monthly cap/);
    expect(h.service.budget().waiting).toBe(3);
    h.service.setMonthlyCap(toMicro(0.07));
    const done = await until('the batch to complete', () => {
      const b: Batch = h.service.getBatch(h.accountId, 'speech-to-text', batch.id)!;
      return b.status === 'complete' && b;
    });
    expect(done).toMatchObject({ succeeded: 3, failed: 0 });
    // Ran 30 s each (the runner's figure), charged from that: $0.05 + 3 × $0.003.
    expect(hostedTotal(h.service)).toBe(50_000 + 3 * 3_000);
    expect(h.service.budget()).toMatchObject({ reserved_usd: 0, spent_usd: 0.059 });
  });
});

describe('the price is recorded when work is accepted', () => {
  it('a job and a held batch are charged at the price they were accepted at, not the price when they finish', async () => {
    const script = setUp({}, PRICED);
    script.placement = { kind: 'waiting', code: 'waiting_for_capacity', message: 'no room yet' };
    h.models.set('test-priced', { ...h.models.get('test-priced')!, pricing: PRICED });
    const job = h.service.createJob(h.job({ seconds: 90 }, { modelId: 'test-priced' })).job;
    const { batch } = h.service.createBatch({
      accountId: h.accountId,
      product: 'speech-to-text',
      modelId: 'hosted',
      params: {},
      language: null,
      items: [{ name: 'a.wav', input: { fileName: 'a.wav' }, estimatedSeconds: 30 }],
    });
    const row = h.service.repos.jobs.get(job.id)!;
    expect(JSON.parse(row.price_json!)).toEqual({ pricing: PRICED, hosted: false });
    expect(row.estimated_usd_micro).toBe(50_000); // the length of a recording is not known here: the fee
    expect(h.service.repos.batches.get(batch.id)).toMatchObject({ estimated_usd_micro: 50_000 + 3_000 });
    expect(h.service.repos.batches.items(batch.id)[0]).toMatchObject({ estimated_seconds: 30 });

    // The operator doubles every price before anything has run.
    const doubled = { ...PRICED, request_fee_usd: 0.1, per_minute_usd: 0.012 };
    h.models.set('test-priced', { ...h.models.get('test-priced')!, pricing: doubled });
    h.models.set('hosted', { ...h.models.get('hosted')!, pricing: doubled });
    h.service.start();
    await whenJob(h.service, job.id, (j) => j.status === 'succeeded');
    script.placement = { kind: 'accepted' };
    await until('the batch to complete', () => h.service.getBatch(h.accountId, 'speech-to-text', batch.id)!.status === 'complete');
    const ledger = h.service.ledgerFor(h.accountId);
    expect(ledger.filter((e) => e.job_id === job.id).reduce((s, e) => s + e.amount_usd_micro, 0)).toBe(sumMicro(chargesFor(PRICED, 90)));
    const released = h.service.repos.jobs.ofBatch(batch.id)[0]!;
    expect(released).toMatchObject({ estimated_seconds: 30, estimated_usd_micro: 3_000 });
    expect(ledger.filter((e) => e.batch_id === batch.id).map((e) => [e.kind, e.amount_usd_micro, e.provider]).sort()).toEqual([
      ['request_fee', 50_000, 'remote'],
      ['usage', 3_000, 'remote'],
    ]);
  });
});
