/**
 * Voice design and saved voices through the HTTP API on the tiny Kokoro v0.19 (../shared/models/tiny/tiny-kokoro:
 * eleven English voices in Kokoro's naming scheme, whose random style vectors set the pitch of the tone each token
 * becomes), imported the way a person imports a model folder. Design → preview job and saved voice → speaking it
 * through text-to-speech, a batch and the OpenAI-compatible speech route; bad input refused before any job exists;
 * another account's voices unseen; a cloned voice made from the account's own upload, its recording deleted with it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, CatalogueRecord, Job, ListResponse, SavedVoice } from '../../../../src-main/common/api-types.js';
import { pcm16WavHeader } from '../../../../src-main/engines/audio/wav-header.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { LiveClient, refusedUpgrade } from '../../../helpers/live-harness.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { TINY } from '../../../helpers/tiny-archives.js';
import { waitFor, waitForJob } from '../../../helpers/two-instances.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
let other: Client;
const DESIGN = 'tiny-kokoro-voice-design';
let narrator: { id: string; name: string };

async function finished(job: Job, product = 'voice-design'): Promise<Job> {
  const done = job.status === 'succeeded' || job.status === 'failed' ? job : await waitForJob(t.url, t.key, product, job.id);
  expect({ status: done.status, error: done.error_code, message: done.error_message }).toEqual({ status: 'succeeded', error: null, message: null });
  return done;
}

async function design(body: Record<string, unknown>): Promise<Job> {
  return finished(await json<Job>(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello world', ...body })));
}

/** The WAV artifact's samples (16-bit mono) of a finished job. */
async function samples(job: Job): Promise<Int16Array> {
  const wav = Buffer.from(await (await fetch(job.result!.artifacts![0]!.url)).arrayBuffer());
  const data = wav.indexOf('data', 12);
  return new Int16Array(wav.buffer.slice(wav.byteOffset + data + 8, wav.byteOffset + data + 8 + wav.readUInt32LE(data + 4)));
}

async function batchDone(product: string, id: string): Promise<Batch> {
  return waitFor(`batch ${id}`, async () => {
    const batch = await json<Batch>(api.get(`/v1/${product}/batch/${id}`));
    return batch.remaining === 0 ? batch : undefined;
  });
}

async function jobCount(client: Client): Promise<number> {
  return (await json<{ data: unknown[] }>(client.get('/v1/jobs?limit=100'))).data.length;
}

/** Voice design is priced per minute of output like every audio product (here by the pricing file). */
let pricing: string;
const DESIGN_PRICE = { currency: 'USD', request_fee_usd: 0.01, per_minute_usd: 0.6, options: {} };

beforeAll(async () => {
  pricing = mkdtempSync(join(tmpdir(), 'voxdesk-design-pricing-'));
  writeFileSync(join(pricing, 'pricing.json'), JSON.stringify({ models: { [DESIGN]: DESIGN_PRICE } }));
  t = await startTestService({ pricingFile: join(pricing, 'pricing.json') });
  api = new Client(t.url, t.key);
  other = new Client(t.url, await t.service.keys.createKey('someone-else'));
}, scaled(60_000));

afterAll(async () => {
  await t?.stop();
  if (pricing) rmSync(pricing, { recursive: true, force: true });
});

describe('voice design', () => {
  it('without a multi-speaker Kokoro installed answers 422 model_unavailable naming what to install', async () => {
    const message = await expectError(api.postJson('/v1/voice-design', { model: 'local-voice-design', text: 'hello', description: 'a woman' }), 422, 'model_unavailable');
    expect(message).toContain('multi-speaker Kokoro');
    const all = await json<ListResponse<CatalogueRecord>>(api.get('/v1/models?include_unavailable=true'));
    expect(all.data.map((m) => m.id)).toContain('local-voice-design');
  });

  it('appears as a catalogue row once a Kokoro is imported, replacing the unavailable row', async () => {
    const response = await fetch(`${t.url}/v1/local/models/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: join(TINY, 'tiny-kokoro'), id: 'tiny-kokoro' }),
    });
    expect(response.status).toBe(202);
    await t.service.models.whenImported('tiny-kokoro');
    const all = await json<ListResponse<CatalogueRecord>>(api.get('/v1/models?include_unavailable=true'));
    const ids = all.data.map((m) => m.id);
    expect(ids).toContain(DESIGN);
    expect(ids).not.toContain('local-voice-design');
    const row = all.data.find((m) => m.id === DESIGN)!;
    expect(row).toMatchObject({ status: 'available', capability: 'voice_design', products: ['voice-design'] });
    expect(row.description).toContain('cannot');
    expect(Object.keys(row.params_schema.properties as object)).toEqual(expect.arrayContaining(['gender', 'age', 'accent', 'pitch', 'pace', 'seed']));
  });

  it('designs a voice from a description, speaks the preview, reports unknown words and saves it', async () => {
    const job = await design({ description: 'A calm, low British woman', save_as: 'Narrator' });
    const voice = job.result!.designed_voice!;
    expect(voice.voices.length).toBeGreaterThanOrEqual(1);
    for (const v of voice.voices) expect(v.name).toMatch(/^bf_/);
    expect(voice.voices.reduce((sum, v) => sum + v.weight, 0)).toBeCloseTo(1, 3);
    expect(voice).toMatchObject({ attributes: { gender: 'female', accent: 'british', pitch: 'low' }, pitch_semitones: -2, speed: 1, unknown_words: ['calm'] });
    expect(voice.saved_voice).toMatchObject({ name: 'Narrator' });
    expect(job.result!.synthetic).toBe(true);
    expect((await samples(job)).some((s) => s !== 0)).toBe(true);
    narrator = voice.saved_voice!;
    // Charged per minute of the preview spoken, plus the request fee.
    const accountId = t.service.repos.accounts.findKey(t.key)!.account.id;
    const rows = t.service.repos.ledger.forAccount(accountId).filter((r) => r.job_id === job.id);
    const minutes = Number(job.duration_seconds) / 60;
    expect(Number(job.duration_seconds)).toBeGreaterThan(0);
    expect(rows.reduce((s, r) => s + r.amount_usd_micro, 0)).toBe(Math.round(1e6 * DESIGN_PRICE.request_fee_usd) + Math.round(1e6 * DESIGN_PRICE.per_minute_usd * minutes));
    const list = await json<{ data: SavedVoice[] }>(api.get('/v1/voices'));
    expect(list.data).toEqual([expect.objectContaining({ id: narrator.id, name: 'Narrator', kind: 'designed', synthetic: true, model: 'tiny-kokoro' })]);
    expect(list.data[0]!.design!.voices).toEqual(voice.voices);
  });

  it('gives the same voice for the same description, another for another seed; attributes alone work too', async () => {
    const a = (await design({ description: 'a man' })).result!.designed_voice!;
    const b = (await design({ description: 'a man' })).result!.designed_voice!;
    expect(b.voices).toEqual(a.voices);
    const seeds = await Promise.all([1, 2, 3].map(async (seed) => (await design({ description: 'a man', params: { seed } })).result!.designed_voice!.voices));
    expect(seeds.some((v) => JSON.stringify(v) !== JSON.stringify(a.voices))).toBe(true);
    const fast = (await design({ params: { gender: 'male', pace: 'fast', pitch: 3 } })).result!.designed_voice!;
    expect(fast).toMatchObject({ speed: 1.15, pitch_semitones: 3, unknown_words: [] });
    for (const v of fast.voices) expect(v.name).toMatch(/^[ab]m_/);
    const old = (await design({ description: 'an old man' })).result!.designed_voice!;
    expect(old.notes.join(' ')).toContain('not labelled by age');
  });

  it('refuses what cannot be designed with a clear 400 and creates no job', async () => {
    const before = await jobCount(api);
    const accountId = t.service.repos.accounts.findKey(t.key)!.account.id;
    const charged = t.service.repos.ledger.forAccount(accountId).length;
    expect(await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello' }), 400, 'invalid_request')).toContain('describe the voice');
    expect(await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello', description: 'purple elephant' }), 400, 'invalid_request')).toContain('"purple"');
    expect(await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello', description: 'a deep high voice' }), 400, 'invalid_params')).toContain('pitch: low and high');
    expect(await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello', description: 'a woman', params: { gender: 'male' } }), 400, 'invalid_params')).toContain('gender');
    expect(await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello', description: 'a Spanish man' }), 400, 'invalid_params')).toContain('no spanish voice');
    await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'x'.repeat(5001), description: 'a woman' }), 400, 'text_too_long');
    await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello', description: 'a woman', params: { pace: 9 } }), 400, 'invalid_params');
    await expectError(api.postJson('/v1/voice-design', { model: DESIGN, text: 'hello', description: 'a woman', save_as: '  ' }), 400, 'invalid_request');
    expect(await jobCount(api)).toBe(before);
    expect(t.service.repos.ledger.forAccount(accountId)).toHaveLength(charged);
    expect((await json<{ data: SavedVoice[] }>(api.get('/v1/voices'))).data).toHaveLength(1);
  });

  it('designs a batch, one voice per item', async () => {
    const batch = await json<Batch>(
      api.postJson('/v1/voice-design/batch', { model: DESIGN, params: { pace: 'slow' }, items: [{ text: 'hello', description: 'a woman' }, { text: 'world', description: 'a British man' }] }),
    );
    const done = await batchDone('voice-design', batch.id);
    expect(done.files.map((f) => f.status)).toEqual(['succeeded', 'succeeded']);
    expect(done.files[1]!.result!.designed_voice!.voices.every((v) => v.name.startsWith('bm_'))).toBe(true);
    expect(done.files[0]!.result!.designed_voice!.speed).toBe(0.85);
  });
});

describe('saved voices', () => {
  it('speak through text-to-speech, its batches and the OpenAI-compatible speech route', async () => {
    const tts = await finished(await json<Job>(api.postJson('/v1/text-to-speech', { model: 'tiny-kokoro', text: 'hello world', params: { voice: narrator.id } })), 'text-to-speech');
    expect(tts.result!.designed_voice!.saved_voice).toEqual(narrator);
    const plain = await finished(await json<Job>(api.postJson('/v1/text-to-speech', { model: 'tiny-kokoro', text: 'hello world', params: { speaker: 7 } })), 'text-to-speech');
    expect(Array.from(await samples(tts))).not.toEqual(Array.from(await samples(plain)));
    const batch = await json<Batch>(api.postJson('/v1/text-to-speech/batch', { model: 'tiny-kokoro', params: { voice: narrator.id }, items: [{ text: 'hello' }] }));
    const item = (await batchDone('text-to-speech', batch.id)).files[0]!;
    expect(item.result!.designed_voice!.saved_voice).toEqual(narrator);
    const speech = await api.postJson('/v1/audio/speech', { model: 'tiny-kokoro', input: 'hello world', voice: narrator.id, response_format: 'wav' });
    expect(speech.status, await speech.clone().text()).toBe(200);
    expect(Buffer.from(await speech.arrayBuffer()).subarray(0, 4).toString()).toBe('RIFF');
  });

  it('speak live: the realtime socket takes a saved voice as its voice; two designed voices share one voice process', { timeout: scaled(60_000) }, async () => {
    const url = (query: string): string => `${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?${query}`;
    const second = (await design({ description: 'a man', save_as: 'Second' })).result!.designed_voice!.saved_voice!;
    const processes = t.service.live.neuralVoices();
    const audioOf = async (voice: string): Promise<Buffer> => {
      const live = await LiveClient.open(url(`model=tiny-kokoro&voice=${voice}`), { authorization: `Bearer ${t.key}` });
      expect((await live.waitFor('session.created')).session).toMatchObject({ sample_rate: 24000 });
      live.send({ type: 'speak', text: 'hello world' });
      const done = (await live.waitFor('response.done')) as { samples: number };
      expect(done.samples).toBeGreaterThan(0);
      live.close();
      return Buffer.concat(live.received.flatMap((r) => (r.kind === 'audio' ? [r.data] : [])));
    };
    const narrated = await audioOf(narrator.id);
    const other = await audioOf(second.id);
    // One process (one Kokoro load) holds both designed voices, each speaking its own blend.
    expect(t.service.live.neuralVoices()).toBe(processes + 1);
    expect(Buffer.compare(narrated, other)).not.toBe(0);
    expect(Buffer.compare(await audioOf(narrator.id), narrated)).toBe(0);
    expect(await refusedUpgrade(url(`model=tiny-kokoro&voice=${narrator.id}`), { authorization: `Bearer ${await t.service.keys.createKey('live-stranger')}` })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_params' } },
    });
  });

  it('belong to their account: another account gets 404 on /v1/voices and 400 naming one in a request', async () => {
    await expectError(other.get(`/v1/voices/${narrator.id}`), 404, 'not_found');
    expect((await json<{ data: SavedVoice[] }>(other.get('/v1/voices'))).data).toEqual([]);
    await expectError(other.postJson('/v1/text-to-speech', { model: 'tiny-kokoro', text: 'hello', params: { voice: narrator.id } }), 400, 'invalid_params');
    await expectError(fetch(`${t.url}/v1/voices/${narrator.id}`, { method: 'DELETE', headers: other.headers() }), 404, 'not_found');
  });

  it('are renamed and deleted', async () => {
    const patch = (id: string, body: unknown): Promise<Response> =>
      fetch(`${t.url}/v1/voices/${id}`, { method: 'PATCH', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
    expect(await json<SavedVoice>(patch(narrator.id, { name: 'Storyteller' }))).toMatchObject({ id: narrator.id, name: 'Storyteller' });
    await expectError(patch(narrator.id, { name: '' }), 400, 'invalid_request');
    await expectError(patch(narrator.id, { colour: 'red' }), 400, 'unsupported_param');
    await expectError(patch('voice_nope', { name: 'x' }), 404, 'not_found');
    expect(await json(fetch(`${t.url}/v1/voices/${narrator.id}`, { method: 'DELETE', headers: api.headers() }))).toEqual({ id: narrator.id, object: 'voice', deleted: true });
    await expectError(api.get(`/v1/voices/${narrator.id}`), 404, 'not_found');
    await expectError(api.postJson('/v1/text-to-speech', { model: 'tiny-kokoro', text: 'hello', params: { voice: narrator.id } }), 400, 'invalid_params');
  });

  it('a cloned voice is made from the recording uploaded in the same request and deleted with it', async () => {
    const recording = readFileSync(join(SHARED, 'audio', 'jfk.wav'));
    const cloned = await json<SavedVoice>(
      api.postForm('/v1/voices', [{ name: 'name', value: 'Me' }, { name: 'reference_text', value: 'And so, my fellow Americans' }, { name: 'audio', file: { name: 'me.wav', data: new Uint8Array(recording) } }]),
    );
    expect(cloned).toMatchObject({ kind: 'cloned', name: 'Me', synthetic: true, model: null, design: null, reference: { bytes: recording.length, text: 'And so, my fellow Americans' } });
    const kept = (readdirSync(join(t.dataDir, 'uploads'), { recursive: true }) as string[]).filter((p) => p.endsWith('me.wav'));
    expect(kept).toHaveLength(1);
    const path = join(t.dataDir, 'uploads', kept[0]!);
    expect(readFileSync(path).equals(recording)).toBe(true);
    await expectError(api.postForm('/v1/voices', [{ name: 'name', value: 'Nothing' }]), 400, 'file_required');
    await expectError(api.postForm('/v1/voices', [{ name: 'name', value: 'Text' }, { name: 'audio', file: { name: 'a.wav', data: new Uint8Array(Buffer.from('not audio at all, just words')) } }]), 415, 'unsupported_media_type');
    await expectError(api.postForm('/v1/voices', [{ name: 'audio', file: { name: 'me.wav', data: new Uint8Array(recording) } }]), 400, 'invalid_request');
    // Longer than every route that speaks in a voice takes (30 s): refused here, not wherever it would be used.
    const long = Buffer.concat([pcm16WavHeader(16_000, 1, 31 * 16_000 * 2), Buffer.alloc(31 * 16_000 * 2)]);
    const tooLong = await api.postForm('/v1/voices', [{ name: 'name', value: 'Long' }, { name: 'audio', file: { name: 'long.wav', data: new Uint8Array(long) } }]);
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: { message: string } }).error.message).toMatch(/31\.0 s long; a reference recording must be 1–30 s/);
    await expectError(api.postJson('/v1/text-to-speech', { model: 'tiny-kokoro', text: 'hello', params: { voice: cloned.id } }), 400, 'invalid_params');
    await json(fetch(`${t.url}/v1/voices/${cloned.id}`, { method: 'DELETE', headers: api.headers() }));
    expect(existsSync(path)).toBe(false);
  });
});

