/**
 * The library search rows are written after a transcription's result, in batches (jobs/transcripts-search-index.ts,
 * migration 017), with real worker processes and a real SQLite file: a search made the moment a job has succeeded
 * finds it (the search catches the index up first), the scheduler's timer indexes without any search (as soon as no
 * run is active, and at least every searchIndexDelayMs while runs keep going), an edit of a job still waiting for its
 * rows is what gets indexed, a long transcript is written a slice per transaction (an edit between slices is kept),
 * and deleting a waiting job leaves nothing behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTranscripts } from '../../../../src-main/jobs/transcripts/transcripts.js';
import { INDEX_ROWS_PER_TX, indexPending } from '../../../../src-main/jobs/transcripts/transcripts-search-index.js';
import { saveRetention } from '../../../../src-main/jobs/retention/retention-policy.js';
import { createHarness, until, type Harness } from '../harness.js';
import { scaled } from '../../../helpers/time-scale.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A transcription through the test engine (three segments "segment 0…2"), finished. */
async function transcribe(harness: Harness, name: string): Promise<string> {
  const { job } = await harness.service.createJob(harness.job({ behaviour: 'segments', count: 3, ms: 1 }, { name }));
  await harness.service.waitForTerminal(job.id, scaled(30_000));
  expect(harness.repos.jobs.get(job.id)!.status).toBe('succeeded');
  return job.id;
}

function indexIsConsistent(harness: Harness): void {
  // Throws when the FTS index and its rows disagree.
  harness.db.exec("INSERT INTO transcript_search (transcript_search) VALUES ('integrity-check')");
}

describe('search rows written after the result', () => {
  it('a search made as soon as a transcription has succeeded finds it: the search writes the pending rows first', async () => {
    // The scheduler's timer (which also indexes) does not tick during this test.
    h = createHarness({ workers: 1, warmEngines: [], schedulerIntervalMs: 600_000 });
    await h.service.start();
    const transcripts = createTranscripts(h.service.store, h.service.store.clock);
    const ids: string[] = [];
    for (const name of ['Quarterly narwhal review', 'Weekly walrus sync']) {
      const id = await transcribe(h, name);
      ids.push(id);
      // Committed with the result: the revision, and the job listed as waiting for its rows; no rows yet.
      expect(h.repos.revisions.latestNumber(id)).toBe(0);
      expect(h.repos.search.isPending(id)).toBe(true);
      expect(h.repos.search.rowsOf(id)).toEqual([]);
    }
    const found = await transcripts.search(h.accountId, 'segment', 10, undefined);
    expect(new Set(found.data.map((hit) => hit.job_id))).toEqual(new Set(ids));
    expect((await transcripts.search(h.accountId, 'walrus', 10, undefined)).data.map((hit) => [hit.job_id, hit.segment_index])).toEqual([[ids[1], null]]);
    for (const id of ids) {
      expect(h.repos.search.isPending(id)).toBe(false);
      expect(h.repos.search.rowsOf(id).map((r) => [r.segment_idx, r.body])).toEqual([
        [null, id === ids[0] ? 'Quarterly narwhal review' : 'Weekly walrus sync'],
        [0, 'segment 0'],
        [1, 'segment 1'],
        [2, 'segment 2'],
      ]);
    }
    indexIsConsistent(h);
  });

  it('the job engine writes them on its timer, without any search', async () => {
    h = createHarness({ workers: 1, warmEngines: [], schedulerIntervalMs: 50 });
    await h.service.start();
    const id = await transcribe(h, 'Timer indexed');
    await until('the rows to be written', () => !h!.repos.search.isPending(id));
    expect(h.repos.search.rowsOf(id).map((r) => r.segment_idx)).toEqual([null, 0, 1, 2]);
    indexIsConsistent(h);
  });

  it('while runs are under way the timer leaves the rows for later, and writes them once no run is active', async () => {
    h = createHarness({ workers: 2, warmEngines: [], schedulerIntervalMs: 50, searchIndexDelayMs: 600_000 });
    await h.service.start();
    const long = (await h.service.createJob(h.job({ behaviour: 'sleep', ms: 120_000 }))).job.id;
    await until('the long job to run', () => h!.repos.jobs.get(long)!.status === 'running');
    const id = await transcribe(h, 'Written when idle');
    // Many timer ticks go by with a run under way: the rows wait (a search would still find the job).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(h.repos.jobs.get(long)!.status).toBe('running');
    expect(h.repos.search.isPending(id)).toBe(true);
    await h.service.cancelJob(h.accountId, 'speech-to-text', long);
    await h.service.waitForTerminal(long, scaled(30_000));
    await until('the rows to be written', () => !h!.repos.search.isPending(id));
    expect(h.repos.search.rowsOf(id).map((r) => r.segment_idx)).toEqual([null, 0, 1, 2]);
    indexIsConsistent(h);
  });

  it('while runs keep going the rows are written at least every searchIndexDelayMs', async () => {
    h = createHarness({ workers: 2, warmEngines: [], schedulerIntervalMs: 50, searchIndexDelayMs: 200 });
    await h.service.start();
    const long = (await h.service.createJob(h.job({ behaviour: 'sleep', ms: 120_000 }))).job.id;
    await until('the long job to run', () => h!.repos.jobs.get(long)!.status === 'running');
    const id = await transcribe(h, 'Written while busy');
    await until('the rows to be written', () => !h!.repos.search.isPending(id));
    expect(h.repos.jobs.get(long)!.status).toBe('running');
    expect(h.repos.search.rowsOf(id).map((r) => r.segment_idx)).toEqual([null, 0, 1, 2]);
    await h.service.cancelJob(h.accountId, 'speech-to-text', long);
    await h.service.waitForTerminal(long, scaled(30_000));
  });

  it('more pending jobs than one batch are all indexed before a search answers', async () => {
    h = createHarness({ workers: 2, warmEngines: [], schedulerIntervalMs: 600_000 });
    await h.service.start();
    const ids = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const { job } = await h!.service.createJob(h!.job({ behaviour: 'succeed' }, { name: `batchmate ${i}` }));
        await h!.service.waitForTerminal(job.id, scaled(60_000));
        return job.id;
      }),
    );
    const transcripts = createTranscripts(h.service.store, h.service.store.clock);
    const hits: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await transcripts.search(h.accountId, 'batchmate', 50, cursor);
      hits.push(...page.data.map((hit) => hit.job_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(new Set(hits)).toEqual(new Set(ids));
    expect(h.repos.search.anyPending()).toBe(false);
    indexIsConsistent(h);
  });

  it('an edit of a job still waiting for its rows is what the index finds', async () => {
    h = createHarness({ workers: 1, warmEngines: [], schedulerIntervalMs: 600_000 });
    await h.service.start();
    const transcripts = createTranscripts(h.service.store, h.service.store.clock);
    const id = await transcribe(h, 'To be edited');
    expect(h.repos.search.isPending(id)).toBe(true);
    await transcripts.edit(h.accountId, id, { base_revision: 0, segments: [{ index: 1, text: 'an okapi appeared' }] });
    expect((await transcripts.search(h.accountId, 'okapi', 10, undefined)).data.map((hit) => hit.segment_index)).toEqual([1]);
    expect(h.repos.search.rowsOf(id).map((r) => r.body)).toEqual(['To be edited', 'segment 0', 'an okapi appeared', 'segment 2']);
    // Once indexed, an edit replaces the rows of the segments it changed, as before.
    await transcripts.edit(h.accountId, id, { base_revision: 1, segments: [{ index: 1, text: 'a tapir instead' }] });
    expect((await transcripts.search(h.accountId, 'okapi', 10, undefined)).data).toEqual([]);
    expect((await transcripts.search(h.accountId, 'tapir', 10, undefined)).data.map((hit) => hit.segment_index)).toEqual([1]);
    indexIsConsistent(h);
  });

  it('a long transcript is written a slice per transaction, and an edit between slices is what the index finds', async () => {
    h = createHarness({ workers: 1, warmEngines: [], schedulerIntervalMs: 600_000 });
    await h.service.start();
    const transcripts = createTranscripts(h.service.store, h.service.store.clock);
    const count = INDEX_ROWS_PER_TX * 2 + 150;
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count, ms: 0 }, { name: 'Ten-hour hearing' }));
    await h.service.waitForTerminal(job.id, scaled(120_000));
    expect(h.repos.jobs.get(job.id)!.status).toBe('succeeded');
    // One transaction writes the name row and the first slice only: the job still waits for the rest.
    expect(await indexPending(h.service.store)).toBe(true);
    expect(h.repos.search.rowsOf(job.id)).toHaveLength(INDEX_ROWS_PER_TX);
    expect(h.repos.search.isPending(job.id)).toBe(true);
    // Between slices: an edit of a segment already written and of one not written yet.
    const last = count - 1;
    await transcripts.edit(h.accountId, job.id, {
      base_revision: 0,
      segments: [{ index: 7, text: 'an okapi appeared' }, { index: last, text: 'the tapir left' }],
    });
    expect(h.repos.search.rowsOf(job.id).find((r) => r.segment_idx === 7)!.body).toBe('an okapi appeared');
    expect(await indexPending(h.service.store)).toBe(true);
    expect(h.repos.search.rowsOf(job.id)).toHaveLength(INDEX_ROWS_PER_TX * 2);
    // A search catches up with the rest, a slice at a time.
    expect((await transcripts.search(h.accountId, 'tapir', 10, undefined)).data.map((hit) => hit.segment_index)).toEqual([last]);
    expect((await transcripts.search(h.accountId, 'okapi', 10, undefined)).data.map((hit) => hit.segment_index)).toEqual([7]);
    expect(h.repos.search.isPending(job.id)).toBe(false);
    const written = h.repos.search.rowsOf(job.id).map((r) => r.segment_idx);
    expect(written).toHaveLength(count + 1);
    expect(new Set(written).size).toBe(count + 1);
    indexIsConsistent(h);
  });

  it('deleting a job that waits for its rows (history retention) takes it off the list', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    h = createHarness({ workers: 1, warmEngines: [], schedulerIntervalMs: 600_000, clock: () => now });
    await h.service.start();
    const id = await transcribe(h, 'Old recording');
    expect(h.repos.search.isPending(id)).toBe(true);
    now = new Date('2026-03-01T00:00:00.000Z');
    await saveRetention(h.service.store.repos.settings, { recordings_hours: 24, job_history_days: 1 });
    // The run lets go of the job in the microtasks after its success (the sweep leaves a job still being run).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.repos.search.isPending(id)).toBe(true);
    await h.service.runMaintenance();
    expect(h.repos.jobs.get(id)).toBeUndefined();
    expect(h.repos.search.isPending(id)).toBe(false);
    expect(h.repos.search.rowsOf(id)).toEqual([]);
    indexIsConsistent(h);
  });
});
