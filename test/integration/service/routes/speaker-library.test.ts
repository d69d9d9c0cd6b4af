/**
 * Speakers people know over HTTP (issue 29.3, docs/speakers.md), with the tiny models installed as a person installs
 * them: a speaker named in one transcript (PATCH …/transcript) is named in the next recording of that voice —
 * through the native route and the OpenAI-compatible one — and not in a recording of the other voice; "not Anna"
 * (not_speakers) stops it; /v1/speakers lists, renames, merges and deletes, per account; bad inputs are 400s.
 * speaker_match_threshold 0.993: the tiny random-weight embedding puts every voice above 0.98 (see
 * test/integration/engines/asr/diarization-speakers.test.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { TranscriptRevision } from '../../../../src-main/common/transcript-types.js';
import type { SpeakerProfile } from '../../../../src-main/common/speaker-profile.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { ROOT, startTestService, type TestService } from '../../../helpers/service.js';
import { oneVoiceRecording, TWO_SPEAKERS } from '../../../helpers/speaker-recordings.js';
import { installTinyModels, TINY_RECOGNIZERS } from '../../../helpers/tiny-models-installed.js';
import { scaled } from '../../../helpers/time-scale.js';

const MODEL = TINY_RECOGNIZERS['nemo-ctc'];
const MATCH = { speaker_diarization: true, speaker_match_threshold: 0.993 };
const temp = makeTempDir('voxdesk-speaker-library-');
let t: TestService;
let api: Client;
let other: Client;
let justAnna: string;
let justOther: string;

beforeAll(async () => {
  t = await startTestService({ holdSeconds: 120, workers: 1 });
  await installTinyModels(t);
  api = new Client(t.url, t.key);
  other = new Client(t.url, await t.service.keys.createKey('someone-else'));
  justAnna = oneVoiceRecording(temp.dir, 'speaker90');
  justOther = oneVoiceRecording(temp.dir, 'speaker91');
}, scaled(240_000));
afterAll(async () => {
  await t?.stop();
  temp.cleanup();
});

function transcribe(file: string, params: Record<string, unknown>, client = api): Promise<Response> {
  return client.postForm('/v1/speech-to-text', [
    { name: 'model', value: MODEL },
    { name: 'params', value: JSON.stringify(params) },
    { name: 'file', file: { name: 'talk.wav', data: new Uint8Array(readFileSync(file)) } },
  ]);
}

async function succeeded(file: string, params: Record<string, unknown>, client = api): Promise<Job> {
  const job = await json<Job>(transcribe(file, params, client));
  expect(job.status, JSON.stringify(job)).toBe('succeeded');
  return job;
}

const transcript = (id: string, client = api): Promise<TranscriptRevision> => json<TranscriptRevision>(client.get(`/v1/speech-to-text/${id}/transcript`));

function patch(id: string, body: Record<string, unknown>, client = api): Promise<Response> {
  return fetch(`${t.url}/v1/speech-to-text/${id}/transcript`, { method: 'PATCH', headers: client.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
}

function send(method: string, path: string, body?: unknown, client = api): Promise<Response> {
  return fetch(t.url + path, { method, headers: client.headers({ 'content-type': 'application/json' }), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

const speakers = async (client = api): Promise<SpeakerProfile[]> => (await json<{ data: SpeakerProfile[] }>(client.get('/v1/speakers'))).data;

describe('the speaker library', () => {
  it('a speaker named in one transcript is named in the next recording of that voice, not in the other voice\'s', async () => {
    const first = await succeeded(TWO_SPEAKERS, { speaker_diarization: true, num_speakers: 2 });
    const before = await transcript(first.id);
    expect(before.speakers).toEqual({ SPEAKER_0: 'SPEAKER_0', SPEAKER_1: 'SPEAKER_1' });
    // "Name the speaker": one speaker of the recording, the other keeps its key.
    const named = await json<TranscriptRevision>(patch(first.id, { base_revision: before.revision, speakers: { SPEAKER_0: 'Anna' } }));
    expect(named.speakers).toEqual({ SPEAKER_0: 'Anna', SPEAKER_1: 'SPEAKER_1' });
    const [anna] = await speakers();
    expect(anna).toMatchObject({ object: 'speaker', name: 'Anna', samples: 1, not_samples: 0 });
    expect(await speakers(other)).toEqual([]);

    const next = await succeeded(justAnna, MATCH);
    const key = next.result!.segments![0]!.speaker!;
    expect(next.result!.speaker_names).toEqual({ [key]: 'Anna' });
    expect((await transcript(next.id)).speakers).toEqual({ [key]: 'Anna' });

    const notHer = await succeeded(justOther, MATCH);
    expect(notHer.result!.speaker_names).toBeUndefined();
    expect(Object.values((await transcript(notHer.id)).speakers)).not.toContain('Anna');
    // Another account's recording of her voice is not named from this account's library.
    expect((await succeeded(justAnna, MATCH, other)).result!.speaker_names).toBeUndefined();

    // A person says this speaker is not Anna: the name comes off in this recording, and that voice is not named
    // Anna again.
    const wrong = await transcript(next.id);
    const corrected = await json<TranscriptRevision>(patch(next.id, { base_revision: wrong.revision, not_speakers: [key] }));
    expect(corrected.speakers).toEqual({ [key]: key });
    expect((await speakers())[0]).toMatchObject({ name: 'Anna', not_samples: 1 });
    expect((await succeeded(justAnna, MATCH)).result!.speaker_names).toBeUndefined();
  }, scaled(120_000));

  it('the OpenAI-compatible route passes the speaker counts on and names known speakers in diarized_json', async () => {
    // An account of its own, whose library holds one voice: at the default threshold the tiny model's voices all match it.
    const dora = new Client(t.url, await t.service.keys.createKey('dora-account'));
    const job = await succeeded(TWO_SPEAKERS, { speaker_diarization: true, num_speakers: 2 }, dora);
    await json(patch(job.id, { base_revision: (await transcript(job.id, dora)).revision, speakers: { SPEAKER_0: 'Dora' } }, dora));
    const ask = (fields: Record<string, string>): Promise<Response> =>
      dora.postForm('/v1/audio/transcriptions', [
        { name: 'model', value: MODEL },
        ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        { name: 'file', file: { name: 'talk.wav', data: new Uint8Array(readFileSync(justAnna)) } },
      ]);
    const body = await json<{ segments: { speaker: string }[] }>(ask({ response_format: 'diarized_json', min_speakers: '1', max_speakers: '2' }));
    expect(body.segments.map((s) => s.speaker)).toEqual(['Dora']);
    // Passed on as the native params, checked as they are.
    expect(await expectError(ask({ response_format: 'diarized_json', min_speakers: '3', max_speakers: '2' }), 400, 'invalid_params')).toMatch(/min_speakers \(3\) is more than max_speakers \(2\)/);
    expect(await expectError(ask({ min_speakers: '2' }), 400, 'invalid_request')).toMatch(/min_speakers goes with response_format diarized_json/);
    expect(await expectError(ask({ response_format: 'diarized_json', num_speakers: 'two' }), 400, 'invalid_request')).toMatch(/num_speakers must be a whole number/);
  }, scaled(60_000));

  it('voxdesk transcribe --diarize names known speakers; a bad range is refused with the service\'s message', async () => {
    const key = await t.service.keys.createKey('cli-account');
    const client = new Client(t.url, key);
    const job = await succeeded(TWO_SPEAKERS, { speaker_diarization: true, num_speakers: 2 }, client);
    await json(patch(job.id, { base_revision: (await transcript(job.id, client)).revision, speakers: { SPEAKER_0: 'Erik' } }, client));
    const voxdesk = (args: string[]): Promise<{ stdout: string; stderr: string; code: number }> =>
      promisify(execFile)(process.execPath, [join(ROOT, 'bin/voxdesk.js'), 'transcribe', justAnna, '--model', MODEL, '--url', t.url, ...args], {
        cwd: ROOT,
        env: { ...process.env, VOXDESK_API_KEY: key },
        timeout: scaled(120_000),
      }).then(
        ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
        (error: { stdout: string; stderr: string; code: number }) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }),
      );
    const named = await voxdesk(['--min-speakers', '1', '--max-speakers', '2']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/\] Erik\n/);
    const refused = await voxdesk(['--min-speakers', '3', '--max-speakers', '2']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/min_speakers \(3\) is more than max_speakers \(2\)/);
  }, scaled(120_000));

  it('bad speaker counts are 400 invalid_params before any work', async () => {
    const bad = async (params: Record<string, unknown>): Promise<string> => expectError(transcribe(TWO_SPEAKERS, params), 400, 'invalid_params');
    expect(await bad({ speaker_diarization: true, min_speakers: 3, max_speakers: 2 })).toMatch(/min_speakers \(3\) is more than max_speakers \(2\)/);
    expect(await bad({ speaker_diarization: true, num_speakers: 2, min_speakers: 1 })).toMatch(/not both/);
    expect(await bad({ speaker_diarization: true, min_speakers: 0 })).toMatch(/min_speakers/);
    expect(await bad({ speaker_diarization: true, max_speakers: 21 })).toMatch(/max_speakers/);
    expect(await bad({ min_speakers: 2 })).toMatch(/speaker_diarization/);
  });

  it('/v1/speakers renames, merges and deletes; another account\'s ids are 404; bad bodies are 400', async () => {
    const job = await succeeded(TWO_SPEAKERS, { speaker_diarization: true, num_speakers: 2 });
    const base = await transcript(job.id);
    await json(patch(job.id, { base_revision: base.revision, speakers: { SPEAKER_0: 'Bea', SPEAKER_1: 'Carl' } }));
    const byName = new Map((await speakers()).map((p) => [p.name, p]));
    const bea = byName.get('Bea')!;
    const carl = byName.get('Carl')!;
    const stranger = new Client(t.url, await t.service.keys.createKey('stranger'));
    await expectError(send('PATCH', `/v1/speakers/${bea.id}`, { name: 'Mine' }, stranger), 404, 'not_found');
    await expectError(send('DELETE', `/v1/speakers/${bea.id}`, undefined, stranger), 404, 'not_found');
    await expectError(send('POST', `/v1/speakers/${bea.id}/merge`, { into: carl.id }, stranger), 404, 'not_found');
    await expectError(send('PATCH', `/v1/speakers/${bea.id}`, { name: '' }), 400, 'invalid_request');
    await expectError(send('PATCH', `/v1/speakers/${bea.id}`, { name: 'SPEAKER_3' }), 400, 'invalid_request');
    await expectError(send('PATCH', `/v1/speakers/${bea.id}`, { name: 'Carl' }), 409, 'conflict');
    await expectError(send('PATCH', `/v1/speakers/${bea.id}`, { name: 'B', colour: 'red' }), 400, 'unsupported_param');
    await expectError(send('POST', `/v1/speakers/${bea.id}/merge`, { into: bea.id }), 400, 'invalid_request');
    expect(await json<SpeakerProfile>(send('PATCH', `/v1/speakers/${bea.id}`, { name: 'Beatrice' }))).toMatchObject({ id: bea.id, name: 'Beatrice' });
    const merged = await json<SpeakerProfile>(send('POST', `/v1/speakers/${carl.id}/merge`, { into: bea.id }));
    expect(merged).toMatchObject({ id: bea.id, name: 'Beatrice', samples: 2 });
    expect(await json(send('DELETE', `/v1/speakers/${bea.id}`))).toEqual({ id: bea.id, object: 'speaker', deleted: true });
    expect((await speakers()).map((p) => p.name)).not.toContain('Beatrice');
    await expectError(send('DELETE', `/v1/speakers/${bea.id}`), 404, 'not_found');
    // A "not" on a speaker with no name is refused, naming the key.
    const latest = await transcript(job.id);
    expect(await expectError(patch(job.id, { base_revision: latest.revision, not_speakers: ['SPEAKER_9'] }), 400, 'invalid_request')).toMatch(/SPEAKER_9/);
  }, scaled(60_000));
});
