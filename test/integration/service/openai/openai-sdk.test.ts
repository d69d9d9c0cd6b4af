/**
 * The OpenAI-compatible audio API driven by the official `openai` SDK (6.x) against the real service over loopback:
 * every route, response format, speech format, streaming mode and error class, with PocketSphinx and eSpeak NG
 * running in worker processes. Every call must also be an ordinary job (GET /v1/jobs, the ledger).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  toFile,
  UnprocessableEntityError,
} from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { ModelDefinition } from '../../../../src-main/engines/model-definition.js';
import { TEST_MODELS, startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');
requireCommand('ffprobe', 'ffmpeg');
const SPEECH = join(SHARED, 'audio/multilingual/test.wav');
const JFK = join(SHARED, 'audio/jfk.wav');
const dir = mkdtempSync(join(tmpdir(), 'vox-oai-sdk-'));

/** A speech model whose engine always fails: the 5xx path. */
const BROKEN_TTS: ModelDefinition = {
  ...TEST_MODELS[0]!,
  id: 'test-tts-broken',
  capability: 'tts',
  products: ['text-to-speech'],
  pricing: undefined,
  paramsSchema: { type: 'object', additionalProperties: false, properties: { behaviour: { type: 'string', default: 'fail' } } },
};

/**
 * A transcription model on the test engine that commits 8 segments ("segment 0" …) 1.5 s apart, as the
 * speech-to-text engines checkpoint: the stream must deliver each while the job is still recognising the rest.
 */
const SEGMENTED_ASR: ModelDefinition = {
  ...TEST_MODELS[0]!,
  id: 'test-asr-segmented',
  pricing: undefined,
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { behaviour: { type: 'string', default: 'segments' }, count: { type: 'integer', default: 8 }, ms: { type: 'integer', default: 1500 } },
  },
};

let svc: TestService;
let client: OpenAI;

beforeAll(async () => {
  const pricing = join(dir, 'pricing.json');
  writeFileSync(pricing, JSON.stringify({ models: { 'espeak-ng': { request_fee_usd: 0.01, per_minute_usd: 0.6, options: {} } } }));
  svc = await startTestService({
    holdSeconds: 120,
    pricingFile: pricing,
    extraModelSources: [() => ({ name: 'test-models', list: () => [...TEST_MODELS] }), () => ({ name: 'broken', list: () => [BROKEN_TTS, SEGMENTED_ASR] })],
  });
  client = new OpenAI({ baseURL: `${svc.url}/v1`, apiKey: svc.key, maxRetries: 0, timeout: scaled(120_000) });
});
afterAll(async () => {
  await svc?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const speechFile = async (): Promise<File> => toFile(readFileSync(SPEECH), 'test.wav');

async function jobsOf(product: string): Promise<Job[]> {
  const response = await fetch(`${svc.url}/v1/jobs?product=${product}&limit=100`, { headers: { authorization: `Bearer ${svc.key}` } });
  return ((await response.json()) as { data: Job[] }).data;
}

function probe(bytes: Uint8Array, name: string, extra: string[] = []): { codec: string; rate: number; seconds: number } {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const info = JSON.parse(execFileSync('ffprobe', ['-v', 'error', ...extra, '-show_entries', 'stream=codec_name,sample_rate', '-of', 'json', path]).toString()) as {
    streams: { codec_name: string; sample_rate: string }[];
  };
  const pcm = execFileSync('ffmpeg', ['-v', 'error', ...extra, '-i', path, '-f', 's16le', '-ac', '1', '-ar', '8000', '-']);
  return { codec: info.streams[0]!.codec_name, rate: Number(info.streams[0]!.sample_rate), seconds: pcm.length / 16000 };
}

describe('models.list()', () => {
  it('reads the catalogue: ids with OpenAI’s object, created and owned_by fields', async () => {
    const page = await client.models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['espeak-ng', 'pocketsphinx-en-us']));
    for (const model of page.data) expect(model).toMatchObject({ object: 'model', created: expect.any(Number), owned_by: 'voxdesk' });
    const one = await client.models.retrieve('espeak-ng');
    expect(one).toMatchObject({ id: 'espeak-ng', object: 'model', owned_by: 'voxdesk' });
  });
});

describe('audio.transcriptions', () => {
  it('jfk.wav as verbose_json with word and segment timestamps', async () => {
    const result = await client.audio.transcriptions.create({
      file: await toFile(readFileSync(JFK), 'jfk.wav'),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expect(result).toMatchObject({ task: 'transcribe', language: 'english', duration: 11 });
    expect(result.text.length).toBeGreaterThan(20);
    expect(result.words!.length).toBeGreaterThan(5);
    for (const w of result.words!) expect(w.end).toBeGreaterThanOrEqual(w.start);
    expect(result.segments!.length).toBeGreaterThan(0);
    expect(result.segments![0]).toMatchObject({ id: 0, text: expect.stringMatching(/^ \S/), tokens: [], temperature: 0, no_speech_prob: 0 });
    // PocketSphinx scores its words: the segments' mean log confidence is measured, and their texts' compression.
    for (const segment of result.segments!) {
      expect(segment.avg_logprob).toBeLessThan(0);
      expect(segment.compression_ratio).toBeGreaterThan(0);
    }
  }, scaled(180_000));

  it('json (the default), text, srt and vtt', async () => {
    const json = await client.audio.transcriptions.create({ file: await speechFile(), model: 'whisper-1' });
    expect(json.text).toMatch(/\w/);
    expect(json.usage).toEqual({ type: 'duration', seconds: 6 });
    const text = await client.audio.transcriptions.create({ file: await speechFile(), model: 'pocketsphinx-en-us', response_format: 'text' });
    expect(text).toBe(`${json.text}\n`);
    const srt = await client.audio.transcriptions.create({ file: await speechFile(), model: 'whisper-1', response_format: 'srt' });
    expect(srt).toMatch(/^1\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\n\S/);
    const vtt = await client.audio.transcriptions.create({ file: await speechFile(), model: 'whisper-1', response_format: 'vtt' });
    expect(vtt).toMatch(/^WEBVTT\n\n00:00:\d\d\.\d{3} --> 00:00:\d\d\.\d{3}\n\S/);
  }, scaled(240_000));

  it('stream=true: transcript.text.delta events, then transcript.text.done with the whole text', async () => {
    const stream = await client.audio.transcriptions.create({ file: await speechFile(), model: 'whisper-1', stream: true });
    const events: { type: string; delta?: string; text?: string }[] = [];
    for await (const event of stream) events.push(event as (typeof events)[number]);
    const done = events.at(-1)!;
    expect(done.type).toBe('transcript.text.done');
    const deltas = events.slice(0, -1);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((e) => e.type === 'transcript.text.delta')).toBe(true);
    expect(deltas.map((e) => e.delta).join('')).toBe(done.text);
  }, scaled(180_000));

  it('stream=true delivers each segment as the job commits it, while the rest is still being recognised', async () => {
    const { data: stream, response } = await client.audio.transcriptions.create({ file: await speechFile(), model: 'test-asr-segmented', stream: true }).withResponse();
    const jobId = response.headers.get('x-voxdesk-job-id')!;
    const events: { type: string; delta?: string; text?: string }[] = [];
    let whileRunning: { status: string; committed: number } | null = null;
    for await (const event of stream) {
      events.push(event as (typeof events)[number]);
      if (events.length === 1) {
        // The first segment is here; seven more are 1.5 s apart: the job is still at work.
        const job = (await (await fetch(`${svc.url}/v1/speech-to-text/${jobId}`, { headers: { authorization: `Bearer ${svc.key}` } })).json()) as Job;
        const segments = (await (await fetch(`${svc.url}/v1/speech-to-text/${jobId}/segments`, { headers: { authorization: `Bearer ${svc.key}` } })).json()) as {
          data: unknown[];
        };
        whileRunning = { status: job.status, committed: segments.data.length };
      }
    }
    expect(events[0]).toEqual({ type: 'transcript.text.delta', delta: 'segment 0' });
    expect(whileRunning!.status).toBe('running');
    expect(whileRunning!.committed).toBeLessThan(8);
    expect(events.map((e) => e.delta ?? null)).toEqual([...Array.from({ length: 8 }, (_, i) => (i === 0 ? 'segment 0' : ` segment ${i}`)), null]);
    expect(events.at(-1)).toEqual({ type: 'transcript.text.done', text: Array.from({ length: 8 }, (_, i) => `segment ${i}`).join(' ') });
  }, scaled(120_000));

  it('stream=true: a job cancelled mid-stream ends the stream with an APIError after the deltas already sent', async () => {
    const { data: stream, response } = await client.audio.transcriptions.create({ file: await speechFile(), model: 'test-asr-segmented', stream: true }).withResponse();
    const jobId = response.headers.get('x-voxdesk-job-id')!;
    const deltas: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) {
        if (event.type === 'transcript.text.delta') deltas.push(event.delta);
        if (deltas.length === 1) await fetch(`${svc.url}/v1/speech-to-text/${jobId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${svc.key}` } });
      }
      return null;
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).message).toMatch(/cancelled before it finished/);
    expect(deltas[0]).toBe('segment 0');
    expect(deltas.length).toBeLessThan(8);
  }, scaled(120_000));

  it('translations: an English-only recogniser answers in English; a language it does not know is refused clearly', async () => {
    const english = await client.audio.translations.create({ file: await speechFile(), model: 'whisper-1' });
    expect(english.text).toMatch(/\w/);
    const verbose = await client.audio.translations.create({ file: await speechFile(), model: 'whisper-1', response_format: 'verbose_json' });
    expect(verbose).toMatchObject({ task: 'translate', language: 'english' });
    const refused = await client.audio.transcriptions
      .create({ file: await toFile(readFileSync(join(SHARED, 'audio/multilingual/test_de.wav')), 'de.wav'), model: 'whisper-1', language: 'de' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).param).toBe('language');
    expect((refused as BadRequestError).message).toContain('does not recognise language "de"');
  }, scaled(240_000));

  it('every call is a speech-to-text job in the history', async () => {
    const jobs = await jobsOf('speech-to-text');
    const recognised = jobs.filter((j) => j.model_id !== SEGMENTED_ASR.id);
    expect(recognised.length).toBeGreaterThanOrEqual(8);
    // The two streamed test-engine jobs: one finished, one cancelled mid-stream.
    expect(jobs.filter((j) => j.model_id === SEGMENTED_ASR.id).map((j) => j.status).sort()).toEqual(['cancelled', 'succeeded']);
    expect(recognised.every((j) => j.status === 'succeeded' && j.model_id === 'pocketsphinx-en-us')).toBe(true);
    expect(jobs.some((j) => j.name === 'jfk.wav')).toBe(true);
  });
});

describe('audio.speech', () => {
  const EXPECTED: Record<string, { codec: string; rate: number; extra?: string[] }> = {
    mp3: { codec: 'mp3', rate: 24000 },
    opus: { codec: 'opus', rate: 48000 },
    aac: { codec: 'aac', rate: 24000 },
    flac: { codec: 'flac', rate: 24000 },
    wav: { codec: 'pcm_s16le', rate: 24000 },
    pcm: { codec: 'pcm_s16le', rate: 24000, extra: ['-f', 's16le', '-ar', '24000', '-ac', '1'] },
  };

  for (const [format, expected] of Object.entries(EXPECTED)) {
    it(`"Hello" as ${format}`, async () => {
      const response = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Hello', response_format: format as 'mp3' });
      expect(response.headers.get('x-voxdesk-job-id')).toMatch(/^job_/);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const info = probe(bytes, `hello.${format}`, expected.extra);
      expect(info.codec).toBe(expected.codec);
      expect(info.rate).toBe(expected.rate);
      expect(info.seconds).toBeGreaterThan(0.2);
      expect(info.seconds).toBeLessThan(2);
    }, scaled(60_000));
  }

  it('the default format is mp3; distinct OpenAI voices sound different; the model’s own voice ids work', async () => {
    const speak = async (voice: string | { id: string }): Promise<Buffer> =>
      Buffer.from(await (await client.audio.speech.create({ model: 'tts-1', voice: voice as string, input: 'Hello there', response_format: 'pcm' })).arrayBuffer());
    const alloy = await speak('alloy');
    const nova = await speak('nova');
    const german = await speak({ id: 'de' });
    const rp = await speak('en-gb-x-rp+f4');
    expect(alloy.equals(nova)).toBe(false);
    expect(german.equals(alloy)).toBe(false);
    expect(rp.length).toBeGreaterThan(1000);
    const mp3 = await client.audio.speech.create({ model: 'espeak-ng', voice: 'fable', input: 'Hello' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
  }, scaled(60_000));

  it('stream_format audio: the first bytes arrive while the job is still speaking the rest', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `This is sentence number ${i + 1} of a long text that takes a while to speak.`).join(' ');
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: long, response_format: 'pcm' });
    const jobId = response.headers.get('x-voxdesk-job-id')!;
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    const job = (await (await fetch(`${svc.url}/v1/text-to-speech/${jobId}`, { headers: { authorization: `Bearer ${svc.key}` } })).json()) as Job;
    expect(job.status).toBe('running');
    expect(job.progress ?? 0).toBeLessThan(1);
    let total = first.value!.length;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
    }
    const finished = (await (await fetch(`${svc.url}/v1/text-to-speech/${jobId}`, { headers: { authorization: `Bearer ${svc.key}` } })).json()) as Job;
    expect(finished.status).toBe('succeeded');
    // The streamed bytes are the job's artifact, byte for byte.
    const artifact = await fetch(finished.result!.artifacts![0]!.url);
    expect(Buffer.from(await artifact.arrayBuffer()).length).toBe(total);
    // duration_seconds is rounded to the millisecond.
    expect(Math.abs(total / 2 - Number(finished.duration_seconds) * 24000)).toBeLessThanOrEqual(24);
  }, scaled(120_000));

  it('stream_format sse: speech.audio.delta events carry the audio, speech.audio.done ends it', async () => {
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'echo', input: 'Hello. How are you?', response_format: 'wav', stream_format: 'sse' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((block) => JSON.parse(block.replace(/^data: /, '')) as { type: string; audio?: string; usage?: unknown });
    const done = events.at(-1)!;
    expect(done).toEqual({ type: 'speech.audio.done', usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } });
    const deltas = events.slice(0, -1);
    expect(deltas.every((e) => e.type === 'speech.audio.delta' && typeof e.audio === 'string')).toBe(true);
    const wav = Buffer.concat(deltas.map((e) => Buffer.from(e.audio!, 'base64')));
    const info = probe(wav, 'sse.wav');
    expect(info).toMatchObject({ codec: 'pcm_s16le', rate: 24000 });
    expect(info.seconds).toBeGreaterThan(0.5);
  }, scaled(60_000));

  it('every call is a text-to-speech job, charged per the pricing file', async () => {
    const jobs = await jobsOf('text-to-speech');
    const ours = jobs.filter((j) => j.model_id === 'espeak-ng');
    expect(ours.length).toBeGreaterThanOrEqual(12);
    expect(ours.every((j) => j.status === 'succeeded' && j.result?.artifacts?.length === 1)).toBe(true);
    // The pricing file's formula: a request fee plus usage by generated audio minutes, one ledger row each.
    const ledger = svc.service.repos.ledger.forAccount(await svc.service.keys.ensureAccount('local'));
    for (const job of ours) {
      const rows = ledger.filter((row) => row.job_id === job.id);
      expect(rows.map((r) => r.kind).sort()).toEqual(['request_fee', 'usage']);
      expect(rows.find((r) => r.kind === 'request_fee')!.amount_usd_micro).toBe(10_000);
      expect(rows.find((r) => r.kind === 'usage')!.amount_usd_micro).toBe(Math.round((Number(job.duration_seconds) / 60) * 0.6 * 1e6));
    }
  });
});

describe('Idempotency-Key', () => {
  it('the same key and request answers from the same job; another request under it is a ConflictError', async () => {
    const headers = { 'Idempotency-Key': `speech-${Date.now()}` };
    const a = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Once only.', response_format: 'wav' }, { headers });
    const b = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Once only.', response_format: 'wav' }, { headers });
    const id = a.headers.get('x-voxdesk-job-id');
    expect(b.headers.get('x-voxdesk-job-id')).toBe(id);
    expect(Buffer.from(await b.arrayBuffer()).length).toBeGreaterThan(1000);
    await a.arrayBuffer();
    const other = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Something else.' }, { headers }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ConflictError);
    expect((other as ConflictError).code).toBe('idempotency_key_reused');
  }, scaled(60_000));
});

describe('errors raise the SDK’s usual classes, in OpenAI’s shape', () => {
  it('AuthenticationError for a bad key', async () => {
    const bad = new OpenAI({ baseURL: `${svc.url}/v1`, apiKey: 'vdk_not_a_key', maxRetries: 0 });
    const error = await bad.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).error).toEqual({ message: 'invalid or revoked API key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
  });

  it('NotFoundError for an unknown model', async () => {
    const error = await client.audio.transcriptions.create({ file: await speechFile(), model: 'whisper-9000' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, param: 'model', code: 'model_not_found', type: 'invalid_request_error' });
  });

  it('BadRequestError for what the request gets wrong, naming the parameter', async () => {
    const cases: [() => Promise<unknown>, string][] = [
      [() => client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: '' }), 'input'],
      [() => client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: '…!?' }), 'input'],
      [() => client.audio.speech.create({ model: 'tts-1', voice: 'robot', input: 'Hi' }), 'voice'],
      [() => client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Hi', response_format: 'ogg' as 'mp3' }), 'response_format'],
      [() => client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Hi', speed: 3 }), 'speed'],
      [() => client.audio.speech.create({ model: 'whisper-1', voice: 'nova', input: 'Hi' }), 'model'],
      [async () => client.audio.transcriptions.create({ file: await speechFile(), model: 'whisper-1', response_format: 'json', timestamp_granularities: ['word'] }), 'timestamp_granularities'],
      [async () => client.audio.transcriptions.create({ file: await speechFile(), model: 'whisper-1', response_format: 'yaml' as 'json' }), 'response_format'],
    ];
    for (const [call, param] of cases) {
      const error = await call().catch((e: unknown) => e);
      expect(error, param).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).param).toBe(param);
      expect((error as BadRequestError).type).toBe('invalid_request_error');
    }
  });

  it('BadRequestError naming the formats this machine can make when ffmpeg is missing', async () => {
    const saved = process.env.VOXDESK_FFMPEG;
    process.env.VOXDESK_FFMPEG = 'none';
    try {
      const error = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Hi', response_format: 'aac' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ status: 400, param: 'response_format' });
      expect((error as BadRequestError).message).toContain('aac needs ffmpeg, which is not installed on this machine; it can make wav, pcm, mp3, opus, flac');
    } finally {
      if (saved === undefined) delete process.env.VOXDESK_FFMPEG;
      else process.env.VOXDESK_FFMPEG = saved;
    }
  });

  it('UnprocessableEntityError for a model that is not installed', async () => {
    const error = await client.audio.transcriptions.create({ file: await speechFile(), model: 'test-missing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ code: 'model_unavailable', param: 'model' });
  });

  it('InternalServerError when the engine fails, with the job named', async () => {
    const error = await client.audio.speech.create({ model: 'test-tts-broken', voice: 'alloy', input: 'Hello' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, type: 'server_error', code: 'internal_error' });
    expect((error as InternalServerError).message).toMatch(/job job_\w+: the test engine failed as asked/);
  }, scaled(60_000));
});
