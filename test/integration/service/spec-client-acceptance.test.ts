/**
 * Issue 32, acceptance: a script written from the spec alone (../shared/spec/audio-service-api.md) — every route, and
 * every documented parameter of each model family present on this machine (the tiny random-weight models imported
 * as a person would, PocketSphinx, eSpeak NG, RNNoise) — runs through without a 5xx, a network error or a missing
 * field. The script knows only what the spec says: the routes, the Job and Batch fields, the params table with its
 * documented values, and that each model's params_schema in the catalogue has the types. A 4xx is an allowed
 * answer (a model may refuse what it cannot do), but it must carry error.code and error.message.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../helpers/service.js';
import { requireCommand, SHARED } from '../../helpers/system.js';
import { installTinyModels } from '../../helpers/tiny-models-installed.js';
import { scaled } from '../../helpers/time-scale.js';

requireCommand('ffmpeg', 'ffmpeg');
const work = mkdtempSync(join(tmpdir(), 'voxdesk-spec-client-'));
const CLIP = join(work, 'clip.wav');
execFileSync('ffmpeg', ['-loglevel', 'error', '-i', join(SHARED, 'audio/jfk.wav'), '-t', '3', CLIP]);
const AUDIO = readFileSync(CLIP);

let t: TestService;
beforeAll(async () => {
  // Only what ships and what a person installs: no test engines in this catalogue.
  t = await startTestService({ holdSeconds: 120, workers: 2, extraModelSources: [] });
  await installTinyModels(t);
}, scaled(180_000));
afterAll(async () => {
  await t?.stop();
  rmSync(work, { recursive: true, force: true });
});

// ---- The spec, as a client reads it ----------------------------------------------------------------------------

const PRODUCTS = ['speech-to-text', 'text-to-speech', 'voice-cloning', 'voice-design', 'voice-conversion', 'voice-continuation', 'stem-separation', 'voice-isolator', 'audio-enhancement'];
const BATCH_PRODUCTS = PRODUCTS.filter((p) => p !== 'voice-continuation');
const CAPABILITIES = ['asr', 'tts', 'voice_cloning', 'voice_design', 'voice_conversion', 'voice_continuation', 'stem_separation', 'noise_reduction', 'speech_restoration'];
const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired'];

/** "params for speech to text": every parameter with the values the table documents (or a plain one where it says "omitted"). */
const STT_PARAMS: Record<string, unknown[]> = {
  speaker_diarization: [false, true],
  language: ['auto'],
  language_code: ['auto'],
  task: ['transcribe', 'translate'],
  response_format: ['verbose_json', 'json'],
  timestamp_granularity: ['word', 'segment', 'none'],
  prompt: ['Voxdesk'],
  temperature: [0, 0.2, 0.4, 0.6, 0.8, 1.0],
  hotwords: ['Voxdesk'],
  vad_filter: [false, true],
  min_silence_duration_ms: [1000],
  condition_on_previous_text: [true],
  prompt_reset_on_temperature: [0.5],
  language_detection_threshold: [0.5],
  prefix: ['Voxdesk'],
  repetition_penalty: [1],
  no_repeat_ngram_size: [0],
  hallucination_silence_threshold: [2],
  no_speech_threshold: [0.6],
  log_prob_threshold: [-1],
  max_initial_timestamp: [999999],
  length_penalty: [1],
  compression_ratio_threshold: [2.4],
  multilingual: [false],
  max_new_tokens: [100],
  chunk_length: [30],
  language_detection_segments: [1],
  blank_penalty: [0.75, 0],
};
/** "Params seen for one model family": language (en-IN by default), speaker, output_format, output_sample_rate, output_channels. */
const TTS_PARAMS: Record<string, unknown[]> = {
  language: ['en-IN'],
  output_sample_rate: ['source'],
  output_channels: ['source'],
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a spec-only client reads untyped JSON

const auth = (): Record<string, string> => ({ authorization: `Bearer ${t.key}` });

/** One HTTP exchange: never a network error, never a 5xx; a 4xx carries error.code and error.message. */
async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: Json }> {
  const response = await fetch(t.url + path, init); // a network error fails the test here
  const text = await response.text();
  expect(response.status, `${init.method ?? 'GET'} ${path}: ${text.slice(0, 300)}`).toBeLessThan(500);
  const body = (text ? JSON.parse(text) : {}) as Json;
  if (response.status >= 400) {
    expect(typeof body.error.code, text).toBe('string');
    expect(body.error.message.length, text).toBeGreaterThan(0);
  }
  return { status: response.status, body };
}

/** The Job fields of the spec's Resources table, read without guards. */
function checkJob(job: Json, product: string, model: string, verbose: boolean): void {
  expect(typeof job.id).toBe('string');
  expect(STATUSES).toContain(job.status);
  expect(job.model_id).toBe(model);
  expect(job.name === null || typeof job.name === 'string').toBe(true);
  expect(job.duration_seconds === null || /^\d+(\.\d+)?$/.test(job.duration_seconds)).toBe(true);
  expect(typeof job.created_at).toBe('string');
  expect('error_code' in job && 'error_message' in job && 'finished_at' in job).toBe(true);
  if (job.status === 'failed') expect([typeof job.error_code, typeof job.error_message]).toEqual(['string', 'string']);
  if (job.status !== 'succeeded') return;
  expect(typeof job.finished_at).toBe('string');
  if (product === 'speech-to-text') {
    expect(typeof job.result.text).toBe('string');
    if (verbose) {
      expect(typeof job.result.language).toBe('string');
      expect(typeof job.result.duration).toBe('number');
      job.result.segments.map((s: Json) => [s.start, s.end, s.text]);
      job.result.words.map((w: Json) => [w.word, w.start, w.end]);
    }
  } else {
    expect(typeof job.result.artifacts[0].url).toBe('string');
  }
}

function form(model: string, params: Json | null, files = 1): FormData {
  const body = new FormData();
  body.append('model', model);
  if (params) body.append('params', JSON.stringify(params));
  for (let i = 0; i < files; i++) body.append('file', new Blob([AUDIO], { type: 'audio/wav' }), `clip-${i}.wav`);
  return body;
}

async function catalogue(query = ''): Promise<Json[]> {
  const { status, body } = await call(`/v1/models${query}`);
  expect(status).toBe(200);
  return body.data as Json[];
}

/** A value of a param's declared type, as a client reads it from params_schema: its default, else its first allowed value. */
function schemaValue(rule: Json): unknown {
  if ('default' in rule) return rule.default;
  if (Array.isArray(rule.enum)) return rule.enum[0];
  if ('const' in rule) return rule.const;
  if (rule.type === 'integer' || rule.type === 'number') return rule.minimum ?? 1;
  if (rule.type === 'boolean') return false;
  if (rule.type === 'string') return '';
  return null;
}

async function pollBatch(product: string, id: string): Promise<Json> {
  for (;;) {
    const { status, body } = await call(`/v1/${product}/batch/${id}`, { headers: auth() });
    expect(status).toBe(200);
    if (body.status === 'complete') return body;
    expect(body.status).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---- The script ----------------------------------------------------------------------------------------------

describe('a client written from the spec alone', () => {
  it('the public catalogue: every capability filter, every record, every quote', async () => {
    const all = await catalogue('?include_unavailable=true');
    for (const capability of CAPABILITIES) await catalogue(`?capability=${capability}`);
    for (const m of all) {
      const one = await call(`/v1/models/${m.id}`);
      expect(one.status).toBe(200);
      expect(one.body.params_schema.type).toBe('object');
      expect(Array.isArray(one.body.languages)).toBe(true);
      if (one.body.status === 'available' && one.body.capability === 'asr') expect(one.body.languages.length, m.id).toBeGreaterThan(0);
      expect((await call(`/v1/models/${m.id}/quote?seconds=90`)).status).toBe(200);
    }
  }, scaled(120_000));

  it('speech to text: every documented param of every installed recognizer, one request each', async () => {
    const models = (await catalogue('?capability=asr')).filter((m) => m.status === 'available');
    expect(models.length).toBeGreaterThanOrEqual(7);
    let accepted = 0;
    for (const m of models) {
      const properties = m.params_schema.properties as Json;
      const values: [string, unknown][] = [
        ...Object.entries(STT_PARAMS).flatMap(([name, list]) => list.map((v): [string, unknown] => [name, v])),
        ...Object.entries(properties).map(([name, rule]): [string, unknown] => [name, schemaValue(rule)]),
      ];
      for (const [name, value] of values) {
        const params = name === 'num_speakers' ? { speaker_diarization: true, num_speakers: value } : { [name]: value };
        const { status, body } = await call('/v1/speech-to-text', { method: 'POST', headers: auth(), body: form(m.id, params) });
        if (status !== 200) continue;
        accepted++;
        const verbose = (params as Json).response_format !== 'json';
        checkJob(body, 'speech-to-text', m.id, verbose);
        expect(body.status, `${m.id} ${name}=${JSON.stringify(value)}: ${JSON.stringify(body)}`).toBe('succeeded');
        const again = await call(`/v1/speech-to-text/${body.id}`, { headers: auth() });
        checkJob(again.body, 'speech-to-text', m.id, verbose);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  }, scaled(600_000));

  it('speech to text in a batch: the Batch fields, each item read alone', async () => {
    const { status, body } = await call('/v1/speech-to-text/batch', { method: 'POST', headers: auth(), body: form('tiny-nemo-ctc', { timestamp_granularity: 'word' }, 3) });
    expect(status).toBe(200);
    const batch = await pollBatch('speech-to-text', body.id);
    expect(batch).toMatchObject({ model_id: 'tiny-nemo-ctc', file_count: 3, succeeded: 3, failed: 0, remaining: 0 });
    for (const file of batch.files) {
      expect([typeof file.job_id, typeof file.name, file.status, typeof file.result.text]).toEqual(['string', 'string', 'succeeded', 'string']);
      expect('error_code' in file && 'error_message' in file).toBe(true);
      checkJob((await call(`/v1/speech-to-text/${file.job_id}`, { headers: auth() })).body, 'speech-to-text', 'tiny-nemo-ctc', true);
    }
  }, scaled(120_000));

  it('text to speech: each voice with the documented params, its audio downloaded; a batch', async () => {
    const voices = (await catalogue('?capability=tts')).filter((m) => m.status === 'available');
    expect(voices.map((v) => v.id)).toEqual(expect.arrayContaining(['espeak-ng', 'tiny-kokoro', 'tiny-vits']));
    for (const v of voices) {
      const properties = v.params_schema.properties as Json;
      const values: [string, unknown][] = [
        ...Object.entries(TTS_PARAMS).flatMap(([name, list]) => list.map((x): [string, unknown] => [name, x])),
        ...Object.entries(properties).map(([name, rule]): [string, unknown] => [name, schemaValue(rule)]),
        ...((properties.output_format?.enum ?? []) as string[]).map((f): [string, unknown] => ['output_format', f]),
      ];
      for (const [name, value] of values) {
        const request = { model: v.id, text: 'Hello from the spec.', params: { [name]: value }, name: `${v.id} ${name}` };
        const { status, body } = await call('/v1/text-to-speech', { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify(request) });
        if (status !== 200) continue;
        checkJob(body, 'text-to-speech', v.id, false);
        expect(body.status, JSON.stringify(body)).toBe('succeeded');
        const audio = await fetch(body.result.artifacts[0].url);
        expect(audio.status).toBe(200);
        expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
    }
    const { body } = await call('/v1/text-to-speech/batch', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'espeak-ng', params: {}, items: [{ text: 'One.', name: 'first' }, { text: 'Two.' }] }),
    });
    const batch = await pollBatch('text-to-speech', body.id);
    expect(batch).toMatchObject({ file_count: 2, succeeded: 2, remaining: 0 });
    for (const file of batch.files) expect(typeof file.result.artifacts[0].url).toBe('string');
  }, scaled(600_000));

  it('every product route: single and batch POSTs in the audio shape, GET of an unknown job and of another product\'s job', async () => {
    const { body: stt } = await call('/v1/speech-to-text', { method: 'POST', headers: auth(), body: form('tiny-nemo-ctc', null) });
    for (const product of PRODUCTS) {
      expect((await call(`/v1/${product}/job_unknown0000000000000000`, { headers: auth() })).status).toBe(404);
      if (product !== 'speech-to-text') expect((await call(`/v1/${product}/${stt.id}`, { headers: auth() })).status).toBe(404);
      // The spec leaves these shapes unshown: a client tries a model of the product's capability with a file.
      const models = await catalogue(`?include_unavailable=true`);
      const model = models.find((m) => m.products?.includes(product))?.id ?? 'none';
      const single = await call(`/v1/${product}`, { method: 'POST', headers: auth(), body: form(model, null) });
      if (single.status === 200) checkJob(single.body, product, model, false);
      if (BATCH_PRODUCTS.includes(product)) await call(`/v1/${product}/batch`, { method: 'POST', headers: auth(), body: form(model, null, 2) });
    }
  }, scaled(300_000));

  it('live text to speech: session.created, session.update, speak, PCM16 frames, response.done', async () => {
    const live = (await catalogue('?capability=tts')).filter((m) => m.status === 'available' && m.live);
    expect(live.length).toBeGreaterThanOrEqual(1);
    for (const m of live) {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?model=${m.id}&api_key=${t.key}`);
      ws.binaryType = 'arraybuffer';
      const seen: string[] = [];
      let bytes = 0;
      await new Promise<void>((resolve, reject) => {
        ws.on('message', (data, binary) => {
          if (binary) {
            bytes += (data as ArrayBuffer).byteLength;
            return;
          }
          const message = JSON.parse(String(data)) as Json;
          seen.push(message.type);
          if (message.type === 'session.created') {
            ws.send(JSON.stringify({ type: 'session.update', session: { speed: 1 } }));
            ws.send(JSON.stringify({ type: 'speak', text: 'Hello from the spec.' }));
          }
          if (message.type === 'error') reject(new Error(`${m.id}: ${String(data)}`));
          if (message.type === 'response.done') resolve();
        });
        ws.on('error', reject);
      });
      ws.close();
      expect(seen[0], m.id).toBe('session.created');
      expect(bytes % 2, m.id).toBe(0);
      expect(bytes, m.id).toBeGreaterThan(0);
    }
  }, scaled(120_000));

  it('the OpenAI-compatible routes with the official SDK: each recognizer\'s verbose_json, and speech', async () => {
    const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0, timeout: scaled(120_000) });
    for (const m of (await catalogue('?capability=asr')).filter((x) => x.status === 'available')) {
      const out = await client.audio.transcriptions.create({ file: await toFile(AUDIO, 'clip.wav'), model: m.id, response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'] });
      expect(typeof out.language, m.id).toBe('string');
      out.words!.map((w) => w.word);
      out.segments!.map((s) => s.text);
    }
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello.', response_format: 'wav' });
    expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(44);
  }, scaled(300_000));
});
