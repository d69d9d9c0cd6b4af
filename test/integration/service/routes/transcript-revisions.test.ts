/**
 * GET/PATCH /v1/speech-to-text/{id}/transcript over real HTTP on a real SQLite file: revision 0 from a finished
 * job, edits with word times, speakers (rename, add, merge, per segment), compare-and-set under concurrent edits,
 * ownership, and every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { TranscriptRevision } from '../../../../src-main/common/transcript-types.js';
import { INLINE_EDIT_MAX_CHARS } from '../../../../src-main/jobs/transcripts/transcript-edit-work.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { audio, Client, expectError, json } from '../../../helpers/http-client.js';
import { diarizedResult, insertJob } from '../../../helpers/transcript-jobs.js';

let t: TestService;
let api: Client;
let accountId: string;
beforeAll(async () => {
  t = await startTestService({ workers: 1 });
  api = new Client(t.url, t.key);
  accountId = (await t.service.keys.find(t.key))!.accountId;
});
afterAll(async () => {
  await t?.stop();
});

function patch(path: string, body: unknown, client = api): Promise<Response> {
  return fetch(client.url + path, { method: 'PATCH', headers: client.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
}

const MEETING = diarizedResult([
  { start: 0, end: 3, text: 'Good morning everyone, let us start.', speaker: 'SPEAKER_0' },
  { start: 3, end: 6, text: 'The budget for next year is ready.', speaker: 'SPEAKER_1' },
  { start: 6, end: 9, text: 'Thank you, that sounds good.', speaker: 'SPEAKER_0' },
  { start: 9, end: 12, text: 'I have one question about travel.', speaker: 'SPEAKER_2' },
]);

function meeting(name = 'meeting.wav'): string {
  return insertJob(t.service.repos, { accountId, name, result: MEETING });
}

const path = (id: string, query = ''): string => `/v1/speech-to-text/${id}/transcript${query}`;

describe('revision 0', () => {
  it('is recorded when a transcription succeeds, from its committed segments', async () => {
    const form = [
      { name: 'model', value: 'test-asr' },
      { name: 'params', value: JSON.stringify({ behaviour: 'segments', count: 3, ms: 10 }) },
      { name: 'file', file: { name: 'talk.wav', data: audio(500) } },
    ];
    let job = await json<Job>(api.postForm('/v1/speech-to-text', form));
    while (job.status !== 'succeeded') {
      expect(['queued', 'running']).toContain(job.status);
      expect(job.transcript_revision).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
      job = await json<Job>(api.get(`/v1/speech-to-text/${job.id}`));
    }
    expect(t.service.repos.revisions.latestNumber(job.id)).toBe(0); // recorded at success, not at first read
    expect(job.transcript_revision).toBe(0);
    const transcript = await json<TranscriptRevision>(api.get(path(job.id)));
    expect(transcript).toMatchObject({ job_id: job.id, revision: 0, latest_revision: 0, speakers: {} });
    expect(transcript.segments.map((s) => [s.index, s.start, s.end, s.text, s.speaker])).toEqual([
      [0, 0, 9, 'segment 0', null],
      [1, 10, 19, 'segment 1', null],
      [2, 20, 29, 'segment 2', null],
    ]);
    // The test engine gives no word times: they are spread over the segment by length.
    expect(transcript.segments[0]!.words).toEqual([
      { word: 'segment', start: 0, end: 7.875 },
      { word: '0', start: 7.875, end: 9 },
    ]);
  });

  it('is recorded on first read for a job that succeeded before revisions existed, with its speakers and words', async () => {
    const id = meeting();
    expect(t.service.repos.revisions.latestNumber(id)).toBeNull();
    expect((await json<Job>(api.get(`/v1/speech-to-text/${id}`))).transcript_revision).toBe(0); // the engine's, not stored yet
    const transcript = await json<TranscriptRevision>(api.get(path(id)));
    expect(transcript.revision).toBe(0);
    expect(transcript.speakers).toEqual({ SPEAKER_0: 'SPEAKER_0', SPEAKER_1: 'SPEAKER_1', SPEAKER_2: 'SPEAKER_2' });
    expect(transcript.segments.map((s) => s.speaker)).toEqual(['SPEAKER_0', 'SPEAKER_1', 'SPEAKER_0', 'SPEAKER_2']);
    expect(transcript.segments[1]!.words.map((w) => w.word)).toEqual(['The', 'budget', 'for', 'next', 'year', 'is', 'ready.']);
    expect(transcript.segments[1]!.words[1]).toEqual({ word: 'budget', start: 3.429, end: 3.857 });
  });

  it('is given by the maintenance sweep to older jobs nobody opened, so search finds them', async () => {
    const id = meeting('old.wav');
    await (t.service.jobs as unknown as { runMaintenance(): Promise<void> }).runMaintenance();
    expect(t.service.repos.revisions.latestNumber(id)).toBe(0);
    expect(t.service.repos.search.rowsOf(id).map((r) => r.segment_idx)).toEqual([null, 0, 1, 2, 3]);
  });
});

describe('editing', () => {
  it('makes the next revision; unchanged words keep their times, changed words share the time of those they replace', async () => {
    const id = meeting();
    const before = await json<TranscriptRevision>(api.get(path(id)));
    const edited = await json<TranscriptRevision>(
      patch(path(id), { base_revision: 0, segments: [{ index: 1, text: 'The travel budget for next year is finally ready.' }] }),
    );
    expect(edited).toMatchObject({ revision: 1, latest_revision: 1 });
    const old = before.segments[1]!.words;
    const words = edited.segments[1]!.words;
    expect(edited.segments[1]!.text).toBe('The travel budget for next year is finally ready.');
    expect(words.map((w) => w.word)).toEqual(['The', 'travel', 'budget', 'for', 'next', 'year', 'is', 'finally', 'ready.']);
    // Kept words: the same times as before.
    for (const word of ['The', 'budget', 'for', 'next', 'year', 'is', 'ready.']) {
      expect(words.find((w) => w.word === word)).toEqual(old.find((w) => w.word === word));
    }
    // Inserted words fill the gap between their neighbours (here zero wide: the words touch).
    const travel = words[1]!;
    expect(travel.start).toBe(old[0]!.end);
    expect(travel.end).toBe(old[1]!.start);
    // Other segments are untouched; revision 0 is kept.
    expect(edited.segments[0]).toEqual(before.segments[0]);
    expect(await json<TranscriptRevision>(api.get(path(id, '?revision=0')))).toEqual({ ...before, latest_revision: 1 });
    expect((await json<TranscriptRevision>(api.get(path(id)))).revision).toBe(1);
    // The job tells its readers (the Jobs list) that its result's text is no longer the latest.
    expect((await json<Job>(api.get(`/v1/speech-to-text/${id}`))).transcript_revision).toBe(1);
    const listed = await json<{ data: Job[] }>(api.get('/v1/jobs?product=speech-to-text&limit=100'));
    expect(listed.data.find((j) => j.id === id)?.transcript_revision).toBe(1);
  });

  it('a replaced word takes the replaced word’s times', async () => {
    const id = meeting();
    const before = await json<TranscriptRevision>(api.get(path(id)));
    const edited = await json<TranscriptRevision>(patch(path(id), { base_revision: 0, segments: [{ index: 3, text: 'I have two questions about travel.' }] }));
    const old = before.segments[3]!.words;
    const words = edited.segments[3]!.words;
    expect(words[2]!.start).toBe(old[2]!.start); // "two" + "questions" over "one question"
    expect(words[3]!.end).toBe(old[3]!.end);
    expect(words[2]!.end).toBeGreaterThan(words[2]!.start);
    expect(words[4]).toEqual(old[4]);
  });

  it('a stale base_revision is 409 conflict and changes nothing', async () => {
    const id = meeting();
    await json(patch(path(id), { base_revision: 0, segments: [{ index: 0, text: 'Hello.' }] }));
    const message = await expectError(patch(path(id), { base_revision: 0, segments: [{ index: 0, text: 'Hi.' }] }), 409, 'conflict');
    expect(message).toMatch(/latest revision is 1/);
    expect(await expectError(patch(path(id), { base_revision: 7, segments: [{ index: 0, text: 'Hi.' }] }), 409, 'conflict')).toMatch(/7/);
    expect((await json<TranscriptRevision>(api.get(path(id)))).segments[0]!.text).toBe('Hello.');
  });

  it('concurrent edits from the same base: exactly one wins, the others are 409', async () => {
    const id = meeting();
    await json(api.get(path(id)));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => patch(path(id), { base_revision: 0, segments: [{ index: 0, text: `Edit number ${i}.` }] })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const winner = (await answers.find((r) => r.status === 200)!.json()) as TranscriptRevision;
    const latest = await json<TranscriptRevision>(api.get(path(id)));
    expect(latest.revision).toBe(1);
    expect(latest.segments[0]!.text).toBe(winner.segments[0]!.text);
    for (const r of answers.filter((a) => a.status === 409)) expect(((await r.json()) as { error: { code: string } }).error.code).toBe('conflict');
  });

  it('an empty text removes the segment’s words; the segment stays', async () => {
    const id = meeting();
    const edited = await json<TranscriptRevision>(patch(path(id), { base_revision: 0, segments: [{ index: 2, text: '   ' }] }));
    expect(edited.segments[2]).toMatchObject({ index: 2, text: '', words: [] });
  });

  it('a long transcript is edited the same way, apart from the service thread: the edit, its word times, its refusals', async () => {
    // Two hours of speech: its segments are far beyond INLINE_EDIT_MAX_CHARS, so the edit thread does this work.
    const segments = Array.from({ length: 1200 }, (_, i) => ({ start: i * 6, end: i * 6 + 5.5, text: `sentence number ${i} of a long recorded meeting about budgets`, speaker: `SPEAKER_${i % 2}` }));
    const id = insertJob(t.service.repos, { accountId, name: 'two-hours.wav', result: diarizedResult(segments) });
    const original = await json<TranscriptRevision>(api.get(path(id)));
    expect(JSON.stringify(original.segments).length).toBeGreaterThan(INLINE_EDIT_MAX_CHARS);
    const edited = await json<TranscriptRevision>(patch(path(id), { base_revision: 0, speakers: { SPEAKER_1: 'Ana' }, segments: [{ index: 700, text: 'sentence number 700 of a short recorded meeting about budgets' }] }));
    expect(edited).toMatchObject({ job_id: id, revision: 1, latest_revision: 1, speakers: { SPEAKER_0: 'SPEAKER_0', SPEAKER_1: 'Ana' } });
    expect(edited.segments[700]!.words.map((w) => w.word)).toContain('short');
    expect(edited.segments[700]!.words.find((w) => w.word === 'short')).toEqual({ ...original.segments[700]!.words.find((w) => w.word === 'long')!, word: 'short' });
    expect(await json<TranscriptRevision>(api.get(path(id)))).toEqual(edited);
    expect(await expectError(patch(path(id), { base_revision: 1, segments: [{ index: 5000, text: 'x' }] }), 400, 'invalid_request')).toMatch(/5000/);
    expect((await json<TranscriptRevision>(api.get(path(id)))).revision).toBe(1);
  });
});

describe('speakers', () => {
  it('renames a speaker everywhere, adds one, sets one segment’s speaker, and merges two', async () => {
    const id = meeting();
    let r = await json<TranscriptRevision>(patch(path(id), { base_revision: 0, speakers: { SPEAKER_0: 'Alice', SPEAKER_1: '  Bob  ' } }));
    expect(r.speakers).toEqual({ SPEAKER_0: 'Alice', SPEAKER_1: 'Bob', SPEAKER_2: 'SPEAKER_2' });
    expect(r.segments.map((s) => s.speaker)).toEqual(['SPEAKER_0', 'SPEAKER_1', 'SPEAKER_0', 'SPEAKER_2']);
    r = await json<TranscriptRevision>(patch(path(id), { base_revision: 1, speakers: { Carol: 'Carol' }, segments: [{ index: 3, speaker: 'Carol' }] }));
    expect(r.segments[3]!.speaker).toBe('Carol');
    r = await json<TranscriptRevision>(patch(path(id), { base_revision: 2, merge_speakers: [{ from: 'SPEAKER_2', into: 'SPEAKER_1' }, { from: 'Carol', into: 'SPEAKER_0' }] }));
    expect(r.speakers).toEqual({ SPEAKER_0: 'Alice', SPEAKER_1: 'Bob' });
    expect(r.segments.map((s) => s.speaker)).toEqual(['SPEAKER_0', 'SPEAKER_1', 'SPEAKER_0', 'SPEAKER_0']);
    r = await json<TranscriptRevision>(patch(path(id), { base_revision: 3, segments: [{ index: 0, speaker: null }] }));
    expect(r.segments[0]!.speaker).toBeNull();
    const txt = await (await api.get(`/v1/speech-to-text/${id}/export?format=txt`)).text();
    expect(txt).toContain('[00:03] Bob\nThe budget for next year is ready.');
    expect(txt).toContain('[00:06] Alice\nThank you, that sounds good. I have one question about travel.');
    expect(txt).not.toContain('SPEAKER_');
  });

  it('refuses a speaker that is not in the map, removing one still in use, and merging what is not there', async () => {
    const id = meeting();
    await expectError(patch(path(id), { base_revision: 0, segments: [{ index: 0, speaker: 'SPEAKER_9' }] }), 400, 'invalid_request');
    await expectError(patch(path(id), { base_revision: 0, speakers: { SPEAKER_0: null } }), 400, 'invalid_request');
    await expectError(patch(path(id), { base_revision: 0, speakers: { SPEAKER_7: null } }), 400, 'invalid_request');
    await expectError(patch(path(id), { base_revision: 0, merge_speakers: [{ from: 'SPEAKER_8', into: 'SPEAKER_0' }] }), 400, 'invalid_request');
    await expectError(patch(path(id), { base_revision: 0, merge_speakers: [{ from: 'SPEAKER_0', into: 'SPEAKER_8' }] }), 400, 'invalid_request');
    await expectError(patch(path(id), { base_revision: 0, merge_speakers: [{ from: 'SPEAKER_0', into: 'SPEAKER_0' }] }), 400, 'invalid_request');
    // Removing a speaker merged away in the same edit is fine.
    const r = await json<TranscriptRevision>(patch(path(id), { base_revision: 0, speakers: { SPEAKER_2: null }, merge_speakers: [{ from: 'SPEAKER_2', into: 'SPEAKER_1' }] }));
    expect(Object.keys(r.speakers)).toEqual(['SPEAKER_0', 'SPEAKER_1']);
    expect(t.service.repos.revisions.latestNumber(id)).toBe(1);
  });
});

describe('refusals', () => {
  it('400 for unknown indexes and bad bodies, unsupported_param for unknown fields, nothing stored', async () => {
    const id = meeting();
    const bad: unknown[] = [
      { base_revision: 0, segments: [{ index: 4, text: 'x' }] },
      { base_revision: 0, segments: [{ index: -1, text: 'x' }] },
      { base_revision: 0, segments: [{ index: 1.5, text: 'x' }] },
      { base_revision: 0, segments: [{ index: 0 }] },
      { base_revision: 0, segments: [{ index: 0, text: 5 }] },
      { base_revision: 0, segments: [{ index: 0, text: 'a' }, { index: 0, text: 'b' }] },
      { base_revision: 0, segments: [{ index: 0, text: 'x'.repeat(10_001) }] },
      { base_revision: 0, segments: [{ index: 0, text: 'bell \u0007' }] },
      { base_revision: 0, segments: {} },
      { base_revision: 0, segments: [] },
      { base_revision: 0 },
      { segments: [{ index: 0, text: 'x' }] },
      { base_revision: '0', segments: [{ index: 0, text: 'x' }] },
      { base_revision: 0, speakers: { SPEAKER_0: '' } },
      { base_revision: 0, speakers: { SPEAKER_0: 'x'.repeat(201) } },
      { base_revision: 0, speakers: { 'bad key!': 'x' } },
      { base_revision: 0, speakers: [] },
      { base_revision: 0, merge_speakers: [{ from: 'SPEAKER_0' }] },
      { base_revision: 0, merge_speakers: 'SPEAKER_0' },
    ];
    for (const body of bad) await expectError(patch(path(id), body), 400, 'invalid_request');
    await expectError(patch(path(id), { base_revision: 0, segments: [{ index: 0, text: 'x' }], title: 'x' }), 400, 'unsupported_param');
    await expectError(patch(path(id), { base_revision: 0, segments: [{ index: 0, text: 'x', start: 1 }] }), 400, 'unsupported_param');
    await expectError(patch(path(id), { base_revision: 0, merge_speakers: [{ from: 'SPEAKER_0', into: 'SPEAKER_1', also: 1 }] }), 400, 'unsupported_param');
    const raw = (body: string, type = 'application/json'): Promise<Response> =>
      fetch(t.url + path(id), { method: 'PATCH', headers: api.headers({ 'content-type': type }), body });
    await expectError(raw('{"base_revision": 0,'), 400, 'invalid_json');
    await expectError(raw('[1]'), 400, 'invalid_json');
    await expectError(raw('{}', 'text/plain'), 415, 'unsupported_media_type');
    expect(t.service.repos.revisions.latestNumber(id)).toBe(0);
  });

  it('unknown revision 404; bad revision 400; other accounts, other products and unknown ids 404; unfinished 409', async () => {
    const id = meeting();
    await expectError(api.get(path(id, '?revision=1')), 404, 'not_found');
    await expectError(api.get(path(id, '?revision=-1')), 400, 'invalid_request');
    await expectError(api.get(path(id, '?revision=one')), 400, 'invalid_request');
    await expectError(api.get(path(id, '?revision=0&revision=1')), 400, 'invalid_request');
    const other = new Client(t.url, (await t.service.keys.createKey('someone-else')));
    await expectError(other.get(path(id)), 404, 'not_found');
    await expectError(patch(path(id), { base_revision: 0, segments: [{ index: 0, text: 'x' }] }, other), 404, 'not_found');
    await expectError(other.get(`/v1/speech-to-text/${id}/export?format=docx`), 404, 'not_found');
    await expectError(api.get(path('job_nope')), 404, 'not_found');
    const tts = insertJob(t.service.repos, { accountId, result: { text: 'x' }, product: 'text-to-speech' });
    await expectError(api.get(path(tts)), 404, 'not_found');
    const running = insertJob(t.service.repos, { accountId, result: null, status: 'running' });
    await expectError(api.get(path(running)), 409, 'conflict');
    await expectError(patch(path(running), { base_revision: 0, segments: [{ index: 0, text: 'x' }] }), 409, 'conflict');
    const failed = insertJob(t.service.repos, { accountId, result: null, status: 'failed' });
    await expectError(api.get(path(failed)), 409, 'conflict');
    await expectError(fetch(t.url + path(id)), 401, 'unauthorized');
  });
});
