/**
 * Doubtful segments (engines/asr/segment-guardrails.ts) reach the job's result with their flags, through the one
 * assembly both the engine and the job engine use, and nothing is dropped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, terminal, type Harness } from '../harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('doubtful segments', () => {
  it('a looping segment is kept and marked in the result', async () => {
    h = createHarness();
    await h.service.start();
    const loop = 'thank you thank you thank you thank you thank you';
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count: 2, ms: 10, text: loop }));
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done.status).toBe('succeeded');
    expect(done.result?.segments?.map((s) => ({ text: s.text, flags: s.flags }))).toEqual([
      { text: loop, flags: ['repetition'] },
      { text: loop, flags: ['repetition'] },
    ]);
  });

  it('ordinary segments carry no flags', async () => {
    h = createHarness();
    await h.service.start();
    const { job } = await h.service.createJob(h.job({ behaviour: 'segments', count: 2, ms: 10 }));
    const done = await terminal(h.service, h.accountId, job.id);
    expect(done.result?.segments?.every((s) => s.flags === undefined)).toBe(true);
  });
});
