/**
 * Doubtful segments in the workbench's transcript (issue 29.1): the guardrails' flags of a looping engine's segments
 * are kept in revision 0 (so the editor can mark them and F8 can go to them), stay through the vocabulary's
 * replacements, and an edit of the segment — a person read it — clears them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { TranscriptRevision } from '../../../../src-main/common/transcript-types.js';
import { audio, Client, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService({ holdSeconds: 30 });
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
});

const LOOP = 'thank you thank you thank you thank you thank you thank you';

async function loopingJob(): Promise<Job> {
  const job = await json<Job>(api.postForm('/v1/speech-to-text', [
    { name: 'model', value: 'test-asr' },
    { name: 'params', value: JSON.stringify({ behaviour: 'segments', count: 2, ms: 5, text: LOOP }) },
    { name: 'file', file: { name: 'loop.wav', data: audio(500) } },
  ]));
  expect(job.status).toBe('succeeded');
  return job;
}

const transcript = (id: string): Promise<TranscriptRevision> => json<TranscriptRevision>(api.get(`/v1/speech-to-text/${id}/transcript`));
const patch = (id: string, body: unknown): Promise<TranscriptRevision> =>
  json<TranscriptRevision>(fetch(`${api.url}/v1/speech-to-text/${id}/transcript`, { method: 'PATCH', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) }));

describe('doubtful segments in the transcript', () => {
  it('carry the guardrails\' flags in revision 0, and an edit of a segment clears its flags only', async () => {
    const job = await loopingJob();
    expect(job.result!.segments!.map((s) => s.flags)).toEqual([['repetition', 'compression_ratio'], ['repetition', 'compression_ratio']]);
    const original = await transcript(job.id);
    expect(original.segments.map((s) => s.flags)).toEqual([['repetition', 'compression_ratio'], ['repetition', 'compression_ratio']]);
    const edited = await patch(job.id, { base_revision: 0, segments: [{ index: 0, text: 'thank you' }] });
    expect(edited.segments[0]!.flags).toBeUndefined();
    expect(edited.segments[1]!.flags).toEqual(['repetition', 'compression_ratio']);
    // A speaker change is no reading of the text: the flags stay.
    const named = await patch(job.id, { base_revision: 1, speakers: { SPEAKER_0: 'Anna' }, segments: [{ index: 1, speaker: 'SPEAKER_0' }] });
    expect(named.segments[1]!.flags).toEqual(['repetition', 'compression_ratio']);
  });

  it('stay marked through the vocabulary\'s replacements', async () => {
    await json(fetch(`${api.url}/v1/vocabulary`, { method: 'PUT', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify({ hotwords: [], replacements: [{ from: 'thank you', to: 'thanks' }] }) }));
    const job = await loopingJob();
    const latest = await transcript(job.id);
    expect(latest.revision).toBe(1);
    expect(latest.segments[0]!.text).toBe('thanks thanks thanks thanks thanks thanks');
    expect(latest.segments.map((s) => s.flags)).toEqual([['repetition', 'compression_ratio'], ['repetition', 'compression_ratio']]);
  });
});
