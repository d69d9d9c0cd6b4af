/**
 * GET/PUT /v1/vocabulary over real HTTP (issue 29.4): the account's lists stored and refused field by field; real
 * PocketSphinx on jfk.wav gets the replacements as revision 1 (revision 0 stays the engine's, and an edit takes them
 * back); filler words leave an export asked with remove_fillers=true, never the stored transcript; and the hotwords
 * reach a transducer's params (the tiny NeMo TDT model), which then decodes with them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { TranscriptRevision } from '../../../../src-main/common/transcript-types.js';
import type { Vocabulary } from '../../../../src-main/common/vocabulary.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';
import { logInto } from '../../../helpers/log.js';

let t: TestService;
let api: Client;
/** What the service logged (its engine workers' lines included). */
const logged: string[] = [];
const JFK = new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav')));

beforeAll(async () => {
  t = await startTestService({ holdSeconds: 120, workers: 1, log: logInto(logged) });
  api = new Client(t.url, t.key);
}, scaled(60_000));
afterAll(async () => {
  await t?.stop();
});

const put = (body: unknown, client = api): Promise<Response> =>
  fetch(`${client.url}/v1/vocabulary`, { method: 'PUT', headers: client.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
const transcript = (id: string, query = ''): Promise<TranscriptRevision> => json<TranscriptRevision>(api.get(`/v1/speech-to-text/${id}/transcript${query}`));

async function transcribe(model: string, params: Record<string, unknown> = {}): Promise<Job> {
  let job = await json<Job>(api.postForm('/v1/speech-to-text', [
    { name: 'model', value: model },
    { name: 'params', value: JSON.stringify(params) },
    { name: 'file', file: { name: 'jfk.wav', data: JFK } },
  ]));
  while (job.status === 'queued' || job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await json<Job>(api.get(`/v1/speech-to-text/${job.id}`));
  }
  expect(job.status, JSON.stringify(job)).toBe('succeeded');
  return job;
}

describe('the vocabulary', () => {
  it('is empty until saved, then the account\'s own; a bad one is refused and the saved one kept', async () => {
    expect(await json<Vocabulary>(api.get('/v1/vocabulary'))).toEqual({ hotwords: [], replacements: [] });
    const saved = await json<Vocabulary>(put({ hotwords: ['Voxdesk'], replacements: [{ from: 'fellow americans', to: 'Fellow Americans' }] }));
    expect(saved).toEqual({ hotwords: ['Voxdesk'], replacements: [{ from: 'fellow americans', to: 'Fellow Americans' }] });
    await expectError(put({ hotwords: ['a,b'], replacements: [] }), 400, 'invalid_request');
    await expectError(put({ hotwords: [], replacements: [{ from: 'x', to: 'y', z: 1 }] }), 400, 'unsupported_param');
    await expectError(put([]), 400, 'invalid_json');
    await expectError(fetch(`${api.url}/v1/vocabulary`, { method: 'PUT', headers: api.headers({ 'content-type': 'text/plain' }), body: '{}' }), 415, 'unsupported_media_type');
    await expectError(fetch(`${api.url}/v1/vocabulary`, { method: 'PUT', body: '{}' }), 401, 'unauthorized');
    expect(await json<Vocabulary>(api.get('/v1/vocabulary'))).toEqual(saved);
    // Another account has its own (empty) vocabulary.
    const other = new Client(t.url, await t.service.keys.createKey('someone-else'));
    expect(await json<Vocabulary>(other.get('/v1/vocabulary'))).toEqual({ hotwords: [], replacements: [] });
  });

  it('replacements are revision 1 of a PocketSphinx transcript; revision 0 stays the engine\'s, and an edit takes them back', async () => {
    // What PocketSphinx hears in jfk.wav: "and then our my ah i and not like your brain and you are … buy your country".
    await json(put({ hotwords: [], replacements: [{ from: 'your brain', to: 'Voxdesk' }, { from: 'country', to: 'nation' }] }));
    const job = await transcribe('pocketsphinx-en-us');
    expect(job.transcript_revision).toBe(1);
    const original = await transcript(job.id, '?revision=0');
    const text0 = original.segments.map((s) => s.text).join(' ');
    expect(text0).toMatch(/your brain/);
    expect(text0).toMatch(/country/);
    const latest = await transcript(job.id);
    const text1 = latest.segments.map((s) => s.text).join(' ');
    expect(text1).toMatch(/Voxdesk/);
    expect(text1).not.toMatch(/your brain/);
    expect(text1).not.toMatch(/country/);
    expect(text1).toMatch(/nation/);
    // The job's result is the engine's output; exports and search read the latest revision.
    expect(job.result!.text).toMatch(/country/);
    expect(await (await api.get(`/v1/speech-to-text/${job.id}/export?format=txt`)).text()).toMatch(/Voxdesk/);
    // Unchanged words keep the engine's times.
    const word = (r: TranscriptRevision, w: string) => r.segments.flatMap((s) => s.words).find((x) => x.word === w);
    expect(word(latest, 'then')).toBeDefined();
    expect(word(latest, 'then')).toEqual(word(original, 'then'));
    // Taken back by an edit, like any edit.
    const changed = latest.segments.filter((s, i) => s.text !== original.segments[i]!.text);
    const undone = await json<TranscriptRevision>(fetch(`${api.url}/v1/speech-to-text/${job.id}/transcript`, {
      method: 'PATCH',
      headers: api.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ base_revision: 1, segments: changed.map((s) => ({ index: s.index, text: original.segments[s.index]!.text })) }),
    }));
    expect(undone.segments.map((s) => s.text)).toEqual(original.segments.map((s) => s.text));
    await json(put({ hotwords: [], replacements: [] }));
    expect((await transcribe('pocketsphinx-en-us')).transcript_revision).toBe(0);
  }, scaled(120_000));

  it('filler words leave an export asked with remove_fillers=true, never the stored transcript', async () => {
    // PocketSphinx hears an "ah" in jfk.wav.
    const job = await transcribe('pocketsphinx-en-us');
    expect((await transcript(job.id)).segments.map((s) => s.text).join(' ')).toMatch(/\bah\b/);
    const plain = await (await api.get(`/v1/speech-to-text/${job.id}/export?format=txt`)).text();
    expect(plain).toMatch(/\bah\b/);
    const readable = await (await api.get(`/v1/speech-to-text/${job.id}/export?format=txt&remove_fillers=true`)).text();
    expect(readable).not.toMatch(/\bah\b/);
    expect(readable).toMatch(/our my i\b/);
    for (const format of ['srt', 'vtt', 'json']) {
      expect(await (await api.get(`/v1/speech-to-text/${job.id}/export?format=${format}&remove_fillers=1`)).text()).not.toMatch(/\bah\b/);
    }
    expect((await transcript(job.id)).segments.map((s) => s.text).join(' ')).toMatch(/\bah\b/);
    await expectError(api.get(`/v1/speech-to-text/${job.id}/export?format=txt&remove_fillers=maybe`), 400, 'invalid_request');
  }, scaled(120_000));

  it('hotwords reach a transducer, which decodes with those its tokens can spell; a request\'s own hotwords win', async () => {
    const imported = await fetch(`${t.url}/v1/local/models/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: join(SHARED, 'models/tiny/tiny-nemo-tdt'), id: 'tiny-nemo-tdt' }),
    });
    expect(imported.status).toBe(202);
    await t.service.models.whenImported('tiny-nemo-tdt');
    // "日本語" is beyond the tiny model's English tokens: left out for it, not a failed job.
    await json(put({ hotwords: ['Voxdesk', 'Ada Lovelace', '日本語'], replacements: [] }));
    const input = (id: string) => JSON.parse(t.service.repos.jobs.get(id)!.input_json) as { vocabularyHotwords?: string[] };
    const job = await transcribe('tiny-nemo-tdt');
    expect(input(job.id).vocabularyHotwords).toEqual(['Voxdesk', 'Ada Lovelace', '日本語']);
    // The engine's line, in the service's log (its worker's lines travel there).
    expect(logged.join('\n')).toMatch(new RegExp(`worker \\d: ${job.id}: vocabulary hotwords this model cannot spell, left out: 日本語`));
    // A request's own hotwords, or greedy decoding, leave the vocabulary's out; PocketSphinx takes none.
    expect(input((await transcribe('tiny-nemo-tdt', { hotwords: 'Grace Hopper' })).id).vocabularyHotwords).toBeUndefined();
    expect(input((await transcribe('tiny-nemo-tdt', { decoding_method: 'greedy_search' })).id).vocabularyHotwords).toBeUndefined();
    expect(input((await transcribe('pocketsphinx-en-us')).id).vocabularyHotwords).toBeUndefined();
  }, scaled(120_000));
});
