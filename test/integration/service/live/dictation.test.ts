/**
 * Live dictation over a real WebSocket on loopback against the whole service: checks before the upgrade, the message
 * order, every bad input of the protocol, bounded buffering, many sessions at once, a recognizer crash, a revoked
 * key, and the session recorded as a speech-to-text job (transcript, recording, export, charge). Real recognition:
 * PocketSphinx through Silero VAD on jfk.wav (word-level check), the tiny streaming Zipformer through
 * OnlineRecognizer and tiny NeMo CTC through VAD (../shared/models/tiny).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, SegmentList } from '../../../../src-main/common/api-types.js';
import { pocketsphinxModelSource } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import { ledgerFor } from '../../../../src-main/store/ledger-repo.js';
import { LiveClient, refusedUpgrade } from '../../../helpers/live-harness.js';
import { startTestService, testModelSource, type TestService } from '../../../helpers/service.js';
import { requireCommand, requireFile } from '../../../helpers/system.js';
import {
  installSileroVad,
  JFK_TEXT,
  JFK_WAV,
  pcmOf,
  sendPcm,
  silence,
  tinyLiveModelSource,
  TINY,
  TINY_STREAMING_JFK_TEXT,
  wordsOf,
} from '../../../helpers/dictation-fixtures.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
const auth = (): Record<string, string> => ({ authorization: `Bearer ${t.key}` });
const wsUrl = (query: string): string => `${t.url.replace('http', 'ws')}/v1/speech-to-text/realtime?${query}`;
const jfk = pcmOf(JFK_WAV);
const MAX_BUFFERED_SECONDS = 30;

beforeAll(async () => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
  const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-dictation-'));
  // Priced so that the charge of a dictation can be checked against the spec's formula.
  writeFileSync(
    join(dataDir, 'pricing.json'),
    JSON.stringify({ models: { 'pocketsphinx-en-us': { request_fee_usd: 0.01, per_minute_usd: 0.006, options: {} } } }),
  );
  t = await startTestService({
    dataDir,
    pricingFile: join(dataDir, 'pricing.json'),
    extraModelSources: [testModelSource, tinyLiveModelSource, pocketsphinxModelSource],
    // Tests send faster than real time on a shared, loaded machine: a bound above any one test's audio keeps their
    // results independent of the load; the overrun test sends more than it at once.
    live: { dictationMaxBufferedSeconds: MAX_BUFFERED_SECONDS, dictationMaxSessionsPerAccount: 8 },
  });
  await installSileroVad(t.url, t.key);
}, scaled(120_000));
afterAll(async () => t?.stop());

async function getJob(id: string): Promise<Job> {
  const response = await fetch(`${t.url}/v1/speech-to-text/${id}`, { headers: auth() });
  expect(response.status).toBe(200);
  return (await response.json()) as Job;
}

function closed(client: LiveClient): Promise<number> {
  return new Promise((resolve) => client.ws.once('close', (code) => resolve(code)));
}

describe('dictation: checks before the upgrade', () => {
  it('refuses a missing or wrong key (401), a foreign Origin (403), a missing, unknown or non-live model', async () => {
    expect(await refusedUpgrade(wsUrl('model=pocketsphinx-en-us'))).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    expect(await refusedUpgrade(wsUrl('model=pocketsphinx-en-us&api_key=wrong-key'))).toMatchObject({ status: 401 });
    expect(await refusedUpgrade(wsUrl('model=pocketsphinx-en-us'), { ...auth(), origin: 'https://evil.example' })).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden_origin' } },
    });
    expect(await refusedUpgrade(wsUrl(''), auth())).toMatchObject({ status: 400, body: { error: { code: 'model_required' } } });
    expect(await refusedUpgrade(wsUrl('model=model=nope'), auth())).toMatchObject({ status: 404 });
    expect(await refusedUpgrade(wsUrl('model=pocketsphinx-en-us&model=tiny-streaming'), auth())).toMatchObject({ status: 400 });
    // A text-to-speech model, and an offline model without VAD: refused before any audio, with the reason.
    expect(await refusedUpgrade(wsUrl('model=espeak-ng'), auth())).toMatchObject({ status: 422, body: { error: { code: 'model_unavailable' } } });
    const noVad = await refusedUpgrade(wsUrl('model=tiny-whisper-novad'), auth());
    expect(noVad).toMatchObject({ status: 422, body: { error: { code: 'model_unavailable' } } });
    expect(JSON.stringify(noVad.body)).toContain('Silero VAD');
  });

  it('the catalogue marks models usable live: streaming, offline with VAD, PocketSphinx with VAD', async () => {
    const models = ((await (await fetch(`${t.url}/v1/models?include_unavailable=true`)).json()) as { data: { id: string; live: boolean }[] }).data;
    const live = (id: string): boolean | undefined => models.find((m) => m.id === id)?.live;
    expect(live('tiny-streaming')).toBe(true);
    expect(live('tiny-ctc-live')).toBe(true);
    expect(live('pocketsphinx-en-us')).toBe(true);
    expect(live('tiny-whisper-novad')).toBe(false);
  });
});

describe('dictation: PocketSphinx through Silero VAD', () => {
  it('jfk.wav in real time: session.created → partials/finals → session.done; the job holds the words, the recording, an SRT export and its charge', { timeout: scaled(180_000) }, async () => {
    const c = await LiveClient.open(wsUrl('model=pocketsphinx-en-us'), auth());
    const created = await c.waitFor('session.created');
    expect(created.session).toMatchObject({ model: 'pocketsphinx-en-us', sample_rate: 16000, language: null, mode: 'vad' });
    c.send({ type: 'session.update', session: { sample_rate: 16000, language: 'en' } });
    expect((await c.waitFor('session.updated')).session).toMatchObject({ sample_rate: 16000, language: 'en' });
    await sendPcm((frame) => c.ws.send(frame), Buffer.concat([jfk.pcm, silence(1)]), 16000, { frameSeconds: 0.1, speed: 2 });
    c.send({ type: 'input_audio.end' });
    const ended = closed(c);
    const done = await c.waitFor('session.done', scaled(120_000));
    expect(await ended).toBe(1000);

    const messages = c.json();
    const types = messages.map((m) => m.type);
    expect(types[0]).toBe('session.created');
    expect(types.at(-1)).toBe('session.done');
    expect(messages.filter((m) => m.type === 'error')).toEqual([]);
    const finals = messages.filter((m) => m.type === 'transcript.final');
    expect(finals.length).toBeGreaterThanOrEqual(2);
    // Segment ids count up; every partial precedes the final of its segment; times increase.
    finals.forEach((f, i) => {
      expect(f.segment_id).toBe(i);
      expect(f.end as number).toBeGreaterThan(f.start as number);
      if (i > 0) expect(f.start as number).toBeGreaterThanOrEqual(finals[i - 1]!.end as number);
      expect((f.words as { word: string }[]).map((w) => w.word).join(' ')).toBe(f.text);
    });
    for (const partial of messages.filter((m) => m.type === 'transcript.partial')) {
      const finalAt = messages.findIndex((m) => m.type === 'transcript.final' && m.segment_id === partial.segment_id);
      expect(finalAt).toBeGreaterThan(messages.indexOf(partial));
    }
    // Word-level check against the reference: most of its words are recognised.
    const said = new Set(wordsOf(finals.map((f) => f.text).join(' ')));
    const reference = wordsOf(JFK_TEXT);
    const found = reference.filter((w) => said.has(w)).length / reference.length;
    expect(found).toBeGreaterThanOrEqual(0.6);

    expect(done.duration_seconds).toBeCloseTo(12, 2);
    const job = await getJob(done.job_id as string);
    expect(job).toMatchObject({ status: 'succeeded', product: 'speech-to-text', model_id: 'pocketsphinx-en-us', duration_seconds: '12.000', language: 'en' });
    expect(job.result!.text).toBe(finals.map((f) => f.text).join(' '));
    // The result reads the finals in sentences (sentence-segments.ts): the same text, each sentence within its final.
    expect(job.result!.segments!.map((s) => s.text).join(' ')).toBe(finals.map((f) => f.text).join(' '));
    expect(job.result!.segments!.length).toBeGreaterThanOrEqual(finals.length);
    for (const sentence of job.result!.segments!) expect(finals.some((f) => Number(f.start) - 1e-3 <= sentence.start && sentence.end <= Number(f.end) + 1e-3)).toBe(true);
    expect(job.result!.words!.length).toBeGreaterThan(5);
    // The finals are the job's segment rows: the segments route pages through them like any transcription's.
    const segments = (await (await fetch(`${t.url}/v1/speech-to-text/${job.id}/segments`, { headers: auth() })).json()) as SegmentList;
    expect(segments.complete).toBe(true);
    expect(segments.data.map((s) => [s.index, s.start, s.end, s.text])).toEqual(finals.map((f, i) => [i, f.start, f.end, f.text]));
    expect(segments.data.flatMap((s) => s.words ?? []).map((w) => w.word)).toEqual(job.result!.words!.map((w) => w.word));
    const after = (await (await fetch(`${t.url}/v1/speech-to-text/${job.id}/segments?after=0`, { headers: auth() })).json()) as { data: unknown[] };
    expect(after.data).toHaveLength(finals.length - 1);
    // The recording: the audio received, as a WAV artifact.
    const artifact = job.result!.artifacts![0]!;
    expect(artifact.content_type).toBe('audio/wav');
    const wav = Buffer.from(await (await fetch(`${t.url}${new URL(artifact.url, t.url).pathname}`)).arrayBuffer());
    expect(wav.length).toBe(44 + jfk.pcm.length + silence(1).length);
    expect(wav.subarray(44, 44 + 1000).equals(jfk.pcm.subarray(0, 1000))).toBe(true);
    // Exported like any transcription.
    const srt = await (await fetch(`${t.url}/v1/speech-to-text/${job.id}/export?format=srt`, { headers: auth() })).text();
    expect(srt).toMatch(/^1\n00:00:0\d,\d{3} --> /);
    // Listed in Jobs, and charged like a 12 s file: request fee + 12/60 × per-minute price.
    const list = (await (await fetch(`${t.url}/v1/jobs?product=speech-to-text`, { headers: auth() })).json()) as { data: Job[] };
    expect(list.data.some((j) => j.id === job.id)).toBe(true);
    const account = (await t.service.keys.find(t.key))!.accountId;
    const charges = ledgerFor(t.service.db, account).filter((row) => row.job_id === job.id);
    expect(charges.map((r) => [r.kind, r.amount_usd_micro])).toEqual([
      ['request_fee', 10_000],
      ['usage', 1_200],
    ]);
  });
});

describe('dictation: streaming and offline sherpa-onnx models', () => {
  it('the tiny streaming Zipformer: partials at every chunk, one final with the model\'s exact text', { timeout: scaled(120_000) }, async () => {
    const c = await LiveClient.open(wsUrl('model=tiny-streaming'), auth());
    expect((await c.waitFor('session.created')).session).toMatchObject({ mode: 'streaming' });
    await sendPcm((frame) => c.ws.send(frame), jfk.pcm, 16000, { frameSeconds: 0.1, speed: 4 });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(60_000));
    const messages = c.json();
    const finals = messages.filter((m) => m.type === 'transcript.final');
    expect(finals.map((f) => f.text).join(' ')).toBe(TINY_STREAMING_JFK_TEXT);
    const partials = messages.filter((m) => m.type === 'transcript.partial');
    // 11 s of speech-like audio in 320 ms chunks: a partial for most chunks.
    expect(partials.length).toBeGreaterThan(15);
    expect(String(partials.at(-1)!.text)).toBe(TINY_STREAMING_JFK_TEXT.slice(0, String(partials.at(-1)!.text).length));
    const words = finals.flatMap((f) => f.words as { start: number; end: number }[]);
    expect(words.length).toBeGreaterThan(3);
    expect(words[0]!.start).toBeGreaterThanOrEqual(0.3);
    expect(words.at(-1)!.end).toBeLessThanOrEqual(11.01);
    const job = await getJob(done.job_id as string);
    expect(job.result!.text).toBe(TINY_STREAMING_JFK_TEXT);
  });

  it('a streaming model installed through the model manager (layout detected from its files) is live and dictates', { timeout: scaled(120_000) }, async () => {
    const headers = { ...auth(), 'content-type': 'application/json' };
    const imported = await fetch(`${t.url}/v1/local/models/import`, { method: 'POST', headers, body: JSON.stringify({ path: join(TINY, 'tiny-streaming-zipformer') }) });
    expect(imported.status).toBe(202);
    const { id } = (await imported.json()) as { id: string };
    await expect.poll(async () => ((await (await fetch(`${t.url}/v1/local/models/${id}`, { headers })).json()) as { state: string }).state, { timeout: scaled(60_000) }).toBe('installed');
    const row = (await (await fetch(`${t.url}/v1/models/${id}`)).json()) as { live: boolean; status: string };
    expect(row).toMatchObject({ live: true, status: 'available' });
    const c = await LiveClient.open(wsUrl(`model=${id}`), auth());
    expect((await c.waitFor('session.created')).session).toMatchObject({ model: id, mode: 'streaming' });
    await sendPcm((frame) => c.ws.send(frame), jfk.pcm, 16000, { frameSeconds: 0.1, speed: 4 });
    c.send({ type: 'input_audio.end' });
    await c.waitFor('session.done', scaled(60_000));
    expect(c.json().filter((m) => m.type === 'transcript.final').map((f) => f.text).join(' ')).toBe(TINY_STREAMING_JFK_TEXT);
  });

  it('the same audio at 48 kHz (a microphone\'s rate) is resampled and recognised', { timeout: scaled(120_000) }, async () => {
    const c = await LiveClient.open(wsUrl('model=tiny-streaming'), auth());
    c.send({ type: 'session.update', session: { sample_rate: 48000 } });
    await c.waitFor('session.updated');
    const up = new Int16Array(jfk.pcm.length / 2 * 3);
    const src = new Int16Array(jfk.pcm.buffer, jfk.pcm.byteOffset, jfk.pcm.length / 2);
    for (let i = 0; i < up.length; i++) up[i] = src[Math.floor(i / 3)]!;
    await sendPcm((frame) => c.ws.send(frame), Buffer.from(up.buffer), 48000, { frameSeconds: 0.1, speed: 4 });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(60_000));
    expect(done.duration_seconds).toBeCloseTo(11, 2);
    const text = c.json().filter((m) => m.type === 'transcript.final').map((f) => f.text).join(' ');
    expect(text.split(' ').length).toBeGreaterThan(3);
  });

  it('many sessions at once on one warm model (tiny NeMo CTC through VAD): each gets its own finals and job', { timeout: scaled(180_000) }, async () => {
    const clients = await Promise.all(Array.from({ length: 6 }, () => LiveClient.open(wsUrl('model=tiny-ctc-live'), auth())));
    await Promise.all(
      clients.map(async (c, i) => {
        await c.waitFor('session.created');
        // Different lengths: each session's duration is its own.
        await sendPcm((frame) => c.ws.send(frame), Buffer.concat([jfk.pcm.subarray(0, (5 + i) * 32000), silence(1)]), 16000, { frameSeconds: 0.2, speed: 4 });
        c.send({ type: 'input_audio.end' });
      }),
    );
    const dones = await Promise.all(clients.map((c) => c.waitFor('session.done', scaled(120_000))));
    expect(new Set(dones.map((d) => d.job_id)).size).toBe(6);
    dones.forEach((d, i) => expect(d.duration_seconds).toBeCloseTo(6 + i, 2));
    for (const c of clients) expect(c.json().filter((m) => m.type === 'transcript.final').length).toBeGreaterThan(0);
    expect(t.service.live.recognizers().filter((r) => r.key.startsWith('tiny-ctc-live')).length).toBe(1);
  });
});

describe('dictation: bad input', () => {
  it('every bad message gets an error and the session goes on; audio before session.update uses the defaults', { timeout: scaled(120_000) }, async () => {
    const c = await LiveClient.open(wsUrl('model=pocketsphinx-en-us'), auth());
    await c.waitFor('session.created');
    const cases: [unknown, string][] = [
      ['{not json', 'invalid_json'],
      ['[1]', 'invalid_json'],
      [{ type: 'speak', text: 'hi' }, 'unknown_message_type'],
      [{ type: 'session.update' }, 'invalid_params'],
      [{ type: 'session.update', session: { sample_rate: 7999 } }, 'invalid_params'],
      [{ type: 'session.update', session: { sample_rate: 48001 } }, 'invalid_params'],
      [{ type: 'session.update', session: { sample_rate: 22050.5 } }, 'invalid_params'],
      [{ type: 'session.update', session: { language: 'fr' } }, 'invalid_params'],
      [{ type: 'session.update', session: { volume: 3 } }, 'unsupported_param'],
      [{ type: 'session.update', session: {}, extra: 1 }, 'unsupported_param'],
      [{ type: 'input_audio.end', now: true }, 'unsupported_param'],
    ];
    for (const [message, code] of cases) {
      c.send(message);
      expect((await c.waitFor('error')).error).toMatchObject({ code });
    }
    c.ws.send(Buffer.alloc(3), { binary: true });
    expect((await c.waitFor('error')).error).toMatchObject({ code: 'invalid_audio_frame' });
    c.ws.send(Buffer.alloc(64 * 1024 + 2), { binary: true });
    expect((await c.waitFor('error')).error).toMatchObject({ code: 'frame_too_large' });
    // Audio without session.update: 16 kHz. Settings cannot change once audio flows.
    c.ws.send(silence(0.5), { binary: true });
    c.send({ type: 'session.update', session: { sample_rate: 8000 } });
    expect(((await c.waitFor('error')).error as { message: string }).message).toContain('before the first audio frame');
    c.send({ type: 'input_audio.end' });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(60_000));
    expect(done.duration_seconds).toBe(0.5);
    // Silence only: a job with an empty transcript.
    expect((await getJob(done.job_id as string)).result!.text).toBe('');
  });

  it('a session with no audio records no job; a frame over 1 MiB closes the socket (1009)', async () => {
    const c = await LiveClient.open(wsUrl('model=tiny-streaming'), auth());
    await c.waitFor('session.created');
    c.send({ type: 'input_audio.end' });
    expect(await c.waitFor('session.done')).toMatchObject({ job_id: null, duration_seconds: 0 });
    const big = await LiveClient.open(wsUrl('model=tiny-streaming'), auth());
    await big.waitFor('session.created');
    const code = closed(big);
    big.ws.send(Buffer.alloc(1024 * 1024 + 2), { binary: true });
    expect(await code).toBe(1009);
  });

  it('a client far faster than real time meets audio_overrun (bounded buffering) and nothing accepted is lost', { timeout: scaled(120_000) }, async () => {
    const c = await LiveClient.open(wsUrl('model=pocketsphinx-en-us'), auth());
    await c.waitFor('session.created');
    let sent = 0;
    let peak = 0;
    const frame = 0.5 * 32000;
    const long = Buffer.concat([jfk.pcm, jfk.pcm, jfk.pcm, jfk.pcm]);
    for (let at = 0; at + frame <= long.length; at += frame) {
      const piece = long.subarray(at, at + frame);
      c.ws.send(piece);
      sent += piece.length;
      peak = Math.max(peak, ...t.service.live.dictationSessions().map((s) => s.waitingBytes));
    }
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(120_000));
    const overruns = c.json().filter((m) => m.type === 'error' && (m.error as { code: string }).code === 'audio_overrun');
    expect(overruns.length).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(MAX_BUFFERED_SECONDS * 32000);
    // Accepted frames are exactly the recording: what was refused is not in it, what was accepted is.
    const accepted = sent - overruns.length * frame;
    expect(done.duration_seconds).toBeCloseTo(accepted / 32000, 3);
  });
});

describe('dictation: failures', () => {
  it('a recognizer crash is reported and recognition goes on in a new process', { timeout: scaled(120_000) }, async () => {
    const c = await LiveClient.open(wsUrl('model=tiny-ctc-live'), auth());
    await c.waitFor('session.created');
    await sendPcm((frame) => c.ws.send(frame), Buffer.concat([jfk.pcm.subarray(0, 4 * 32000), silence(1)]), 16000, { frameSeconds: 0.2, speed: 4 });
    await c.waitFor('transcript.final', scaled(60_000));
    const before = t.service.live.recognizers().find((r) => r.key.startsWith('tiny-ctc-live'))!;
    process.kill(before.pid!, 'SIGKILL');
    expect((await c.waitFor('error', scaled(30_000))).error).toMatchObject({ code: 'engine_crashed' });
    await sendPcm((frame) => c.ws.send(frame), Buffer.concat([jfk.pcm.subarray(4 * 32000), silence(1)]), 16000, { frameSeconds: 0.2, speed: 4 });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(60_000));
    const finals = c.json().filter((m) => m.type === 'transcript.final');
    // Finals after the crash continue the numbering and the timeline.
    expect(finals.at(-1)!.start as number).toBeGreaterThan(4);
    expect(new Set(finals.map((f) => f.segment_id)).size).toBe(finals.length);
    const after = t.service.live.recognizers().find((r) => r.key.startsWith('tiny-ctc-live'));
    expect(after?.pid).not.toBe(before.pid);
    expect((await getJob(done.job_id as string)).status).toBe('succeeded');
  });

  it('a revoked key ends its session with unauthorized (1008); what was dictated is kept as a job', { timeout: scaled(60_000) }, async () => {
    const key = await t.service.keys.createKey('local', 'dictation to revoke');
    const c = await LiveClient.open(wsUrl('model=tiny-streaming'), { authorization: `Bearer ${key}` });
    await c.waitFor('session.created');
    await sendPcm((frame) => c.ws.send(frame), jfk.pcm.subarray(0, 3 * 32000), 16000);
    await expect.poll(() => t.service.live.dictationSessions().some((s) => s.receivedBytes === 3 * 32000)).toBe(true);
    const keys = (await (await fetch(`${t.url}/v1/keys`, { headers: auth() })).json()) as { data: { id: string; name: string }[] };
    const id = keys.data.find((k) => k.name === 'dictation to revoke')!.id;
    const code = closed(c);
    expect((await fetch(`${t.url}/v1/keys/${id}`, { method: 'DELETE', headers: auth() })).status).toBe(200);
    expect((await c.waitFor('error')).error).toMatchObject({ code: 'unauthorized' });
    const done = await c.waitFor('session.done', scaled(30_000));
    expect(await code).toBe(1008);
    expect(done.duration_seconds).toBe(3);
    expect((await getJob(done.job_id as string)).status).toBe('succeeded');
    expect(await refusedUpgrade(wsUrl('model=tiny-streaming'), { authorization: `Bearer ${key}` })).toMatchObject({ status: 401 });
  });

  it('the socket closing without input_audio.end still records the job', { timeout: scaled(60_000) }, async () => {
    const c = await LiveClient.open(wsUrl('model=tiny-streaming'), auth());
    const created = await c.waitFor('session.created');
    await sendPcm((frame) => c.ws.send(frame), jfk.pcm.subarray(0, 2 * 32000), 16000);
    c.close();
    const sessionId = (created.session as { id: string }).id;
    for (let i = 0; i < 300; i++) {
      const list = (await (await fetch(`${t.url}/v1/jobs?product=speech-to-text`, { headers: auth() })).json()) as { data: Job[] };
      const job = list.data.find((j) => j.duration_seconds === '2.000' && j.model_id === 'tiny-streaming');
      if (job) {
        expect(job.status).toBe('succeeded');
        // Kept in the account's uploads, where it counts in what the account may keep.
        const account = (await t.service.keys.find(t.key))!.accountId;
        expect(readFileSync(join(t.dataDir, 'uploads', account, 'dictations', `${job.id}.wav`)).length).toBe(44 + 2 * 32000);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no job for the closed session ${sessionId}`);
  });
});

describe('dictation: service shutdown', () => {
  it('an open session ends as if its input ended: the client gets session.done (1001) and the job is there after a restart', { timeout: scaled(120_000) }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-dictation-stop-'));
    const first = await startTestService({ dataDir, extraModelSources: [tinyLiveModelSource] });
    const c = await LiveClient.open(`${first.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=tiny-streaming`, { authorization: `Bearer ${first.key}` });
    await c.waitFor('session.created');
    await sendPcm((frame) => c.ws.send(frame), jfk.pcm.subarray(0, 4 * 32000), 16000);
    await expect.poll(() => first.service.live.dictationSessions()[0]?.receivedBytes).toBe(4 * 32000);
    const code = closed(c);
    await first.service.close(2000);
    const done = await c.waitFor('session.done');
    expect(await code).toBe(1001);
    expect(done.duration_seconds).toBe(4);
    const second = await startTestService({ dataDir, extraModelSources: [tinyLiveModelSource] });
    try {
      const job = (await (await fetch(`${second.url}/v1/speech-to-text/${done.job_id as string}`, { headers: { authorization: `Bearer ${second.key}` } })).json()) as Job;
      expect(job).toMatchObject({ status: 'succeeded', duration_seconds: '4.000' });
    } finally {
      await second.stop();
    }
  });
});
