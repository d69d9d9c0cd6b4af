/**
 * The answers of language-model actions on both backends (migration 025): a part kept twice is replaced (a run that
 * had not seen its commit), parts come back by stage and part, and a transcription lists only its account's actions
 * whose jobs succeeded, newest first.
 */
import { describe, expect, it } from 'vitest';
import type { AiPartRow } from '../../../src-main/store/transcript-ai-repo.js';
import { BACKENDS, jobId, jobRow, useStore } from './store-fixture.js';

const part = (job: string, stage: 'map' | 'reduce', n: number, text = `answer ${n}`): AiPartRow => ({
  job_id: job, stage, part: n, text, prompt_tokens: 100 + n, completion_tokens: 10 + n, created_at: `2026-05-01T12:00:0${n}.000Z`,
});

describe.each(BACKENDS)('language-model action answers on %s', (backend) => {
  const fx = useStore(backend);

  it('keeps each part once (the last answer wins) and reads them back in order', async () => {
    const repo = fx.store.repos.transcriptAi;
    await repo.putPart(part('job_a', 'reduce', 0));
    await repo.putPart(part('job_a', 'map', 1));
    await repo.putPart(part('job_a', 'map', 0, 'first try'));
    await repo.putPart(part('job_a', 'map', 0));
    await repo.putPart(part('job_b', 'map', 0));
    expect(await repo.parts('job_a')).toEqual([part('job_a', 'map', 0), part('job_a', 'map', 1), part('job_a', 'reduce', 0)]);
    expect(await repo.parts('job_none')).toEqual([]);
  });

  it("lists a transcription's succeeded actions of one account, newest first", async () => {
    const alice = (await fx.store.repos.accounts.createAccount('alice')).id;
    const bob = (await fx.store.repos.accounts.createAccount('bob')).id;
    await fx.store.repos.jobs.insert(jobRow(alice, jobId(1), { status: 'succeeded' }));
    await fx.store.repos.jobs.insert(jobRow(alice, jobId(2), { status: 'succeeded' }));
    await fx.store.repos.jobs.insert(jobRow(alice, jobId(3), { status: 'failed' }));
    await fx.store.repos.jobs.insert(jobRow(bob, jobId(4), { status: 'succeeded' }));
    const repo = fx.store.repos.transcriptAi;
    const row = (job: string, account: string, at: string) => ({ job_id: job, source_job_id: 'job_source', account_id: account, action: 'summary', created_at: at });
    await repo.putResult(row(jobId(1), alice, '2026-05-01T12:00:01.000Z'));
    await repo.putResult(row(jobId(2), alice, '2026-05-01T12:00:02.000Z'));
    await repo.putResult(row(jobId(2), alice, '2026-05-01T12:00:09.000Z'));
    await repo.putResult(row(jobId(3), alice, '2026-05-01T12:00:03.000Z'));
    await repo.putResult(row(jobId(4), bob, '2026-05-01T12:00:04.000Z'));
    expect((await repo.resultsFor(alice, 'job_source')).map((r) => r.job_id)).toEqual([jobId(2), jobId(1)]);
    expect(await repo.resultsFor(alice, 'job_other')).toEqual([]);
    expect((await repo.resultsFor(bob, 'job_source')).map((r) => r.created_at)).toEqual(['2026-05-01T12:00:04.000Z']);
  });
});
