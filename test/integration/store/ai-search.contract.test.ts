/**
 * AI answers in the library search on both backends (migration 027): an action's rows are found with the transcript
 * they were made from and say which action wrote them; they are found only while the action's job is succeeded; a
 * run again replaces them (never twice), a long answer's later rows are added batch by batch; they are not the
 * transcript's own rows (hasJob, rowsOf); deleting the action's job or the transcript (the history sweep) leaves no
 * hit.
 */
import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../../src-main/store/fts-query.js';
import type { AiSearchRowInput } from '../../../src-main/store/transcript-search-repo.js';
import { BACKENDS, jobId, jobRow, useStore } from './store-fixture.js';

const match = (text: string): string => toFtsQuery(text).match!;
const SOURCE = jobId(1);
const AT = '2026-05-01T12:00:00.000Z';

describe.each(BACKENDS)('AI answers in the library search on %s', (backend) => {
  const fx = useStore(backend);

  async function setUp(): Promise<{ alice: string; bob: string; row: (ai: string, action: string, body: string, account?: string) => AiSearchRowInput }> {
    const alice = (await fx.store.repos.accounts.createAccount('alice')).id;
    const bob = (await fx.store.repos.accounts.createAccount('bob')).id;
    const { jobs } = fx.store.repos;
    await jobs.insert(jobRow(alice, SOURCE, { status: 'succeeded' }));
    await jobs.insert(jobRow(alice, jobId(2), { status: 'succeeded', product: 'transcript-ai' }));
    await jobs.insert(jobRow(alice, jobId(3), { status: 'running', product: 'transcript-ai' }));
    await jobs.insert(jobRow(alice, jobId(4), { status: 'failed', product: 'transcript-ai' }));
    await jobs.insert(jobRow(bob, jobId(5), { status: 'succeeded' }));
    await jobs.insert(jobRow(bob, jobId(6), { status: 'succeeded', product: 'transcript-ai' }));
    const row = (ai: string, action: string, body: string, account = alice): AiSearchRowInput => ({
      job_id: account === alice ? SOURCE : jobId(5), account_id: account, job_created_at: AT, job_name: 'Board meeting', ai_job_id: ai, ai_action: action, body,
    });
    return { alice, bob, row };
  }

  it("finds a succeeded action's answer with its transcript and action, and nobody else's", async () => {
    const { alice, bob, row } = await setUp();
    const { search } = fx.store.repos;
    await search.insert([{ job_id: SOURCE, account_id: alice, job_created_at: AT, job_name: 'Board meeting', segment_idx: 0, start_seconds: 0, end_seconds: 2, body: 'we talked about the harbour' }]);
    await search.replaceAiResult(jobId(2), [row(jobId(2), 'summary', 'The board approved the lighthouse budget.'), row(jobId(2), 'summary', 'Next meeting in June.')]);
    await search.replaceAiResult(jobId(3), [row(jobId(3), 'chapters', 'The lighthouse, still being written')]);
    await search.replaceAiResult(jobId(4), [row(jobId(4), 'translate', 'Le phare lighthouse failed')]);
    await search.replaceAiResult(jobId(6), [row(jobId(6), 'summary', 'lighthouse of bob', bob)]);
    const max = await search.maxRowId();
    for (const hits of [await search.search(alice, match('lighthouse'), max, 0, 10), await search.searchNewest(alice, match('lighthouse'), max, 0, 10)]) {
      expect(hits.map((h) => [h.job_id, h.ai_job_id, h.ai_action, h.segment_idx, h.start_seconds, h.body])).toEqual([
        [SOURCE, jobId(2), 'summary', null, null, 'The board approved the lighthouse budget.'],
      ]);
    }
    const [segmentHit] = await search.search(alice, match('harbour'), max, 0, 10);
    expect(segmentHit).toMatchObject({ job_id: SOURCE, ai_job_id: null, ai_action: null, segment_idx: 0 });
    expect((await search.search(bob, match('lighthouse'), max, 0, 10)).map((h) => h.ai_job_id)).toEqual([jobId(6)]);
    // The answers are not the transcript's own rows: the indexer still writes those.
    expect(await search.hasJob(jobId(5))).toBe(false);
    expect((await search.rowsOf(SOURCE)).map((r) => r.body)).toEqual(['we talked about the harbour']);
  });

  it('a run again replaces the answer’s rows; deleting the action’s job or the transcript leaves no hit', async () => {
    const { alice, row } = await setUp();
    const { search } = fx.store.repos;
    await search.replaceAiResult(jobId(2), [row(jobId(2), 'summary', 'first draft about otters')]);
    await search.replaceAiResult(jobId(2), [row(jobId(2), 'summary', 'otters and beavers')]);
    await search.insertAiRows([row(jobId(2), 'summary', 'beavers again')]);
    expect((await search.aiRowsOf(jobId(2))).map((r) => [r.ai_job_id, r.ai_action, r.body])).toEqual([
      [jobId(2), 'summary', 'otters and beavers'], [jobId(2), 'summary', 'beavers again'],
    ]);
    let max = await search.maxRowId();
    expect((await search.search(alice, match('otters'), max, 0, 10)).map((h) => h.body)).toEqual(['otters and beavers']);
    expect(await search.search(alice, match('draft'), max, 0, 10)).toEqual([]);

    await fx.store.tx(({ repos }) => repos.history.deleteJob(jobId(2)));
    expect(await search.aiRowsOf(jobId(2))).toEqual([]);
    expect(await search.search(alice, match('beavers'), await search.maxRowId(), 0, 10)).toEqual([]);

    // The transcript deleted, its other action's answer goes with it (that action's job is still listed).
    await fx.store.repos.jobs.insert(jobRow(alice, jobId(7), { status: 'succeeded', product: 'transcript-ai' }));
    await search.replaceAiResult(jobId(7), [row(jobId(7), 'action_items', 'call the otters')]);
    max = await search.maxRowId();
    expect(await search.search(alice, match('otters'), max, 0, 10)).toHaveLength(1);
    await fx.store.tx(({ repos }) => repos.history.deleteJob(SOURCE));
    expect(await search.search(alice, match('otters'), max, 0, 10)).toEqual([]);
    expect(await search.aiRowsOf(jobId(7))).toEqual([]);
  });
});
