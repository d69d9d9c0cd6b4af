/**
 * Issue 32, point 1: "With response_format verbose_json [the result] also has language, duration, segments, words."
 * A client written from that sentence reads the four fields without a guard. Before: with granularity segment there
 * was no `words`, with none no `segments` either, Whisper never returned words, and tiny Whisper on a second of
 * silence returned no language — `result.words.map(…)` threw. Every on-device family runs here (the tiny models
 * imported as a person would, PocketSphinx from Debian) through the native route and the OpenAI SDK.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, TranscriptSegment, TranscriptWord } from '../../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { installTinyModels, TINY_RECOGNIZERS } from '../../../helpers/tiny-models-installed.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('ffmpeg', 'ffmpeg');
const work = mkdtempSync(join(tmpdir(), 'voxdesk-verbose-'));
// The first 4 s of jfk.wav ("And so my fellow Americans"): speech for every family, quick even for PocketSphinx.
const JFK = join(work, 'jfk-4s.wav');
execFileSync('ffmpeg', ['-loglevel', 'error', '-i', join(SHARED, 'audio/jfk.wav'), '-t', '4', JFK]);
const SILENCE = join(work, 'silence.wav');
execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '1', SILENCE]);

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ holdSeconds: 120, workers: 2 });
  await installTinyModels(t);
}, scaled(180_000));
afterAll(async () => {
  await t?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** What the spec says a verbose_json result has: the fields a client reads without checking. */
interface VerboseResult {
  text: string;
  language: string;
  duration: number;
  segments: TranscriptSegment[];
  words: TranscriptWord[];
}

async function transcribe(model: string, file: string, params: Record<string, unknown>): Promise<Job & { result: VerboseResult }> {
  const form = new FormData();
  form.append('model', model);
  form.append('params', JSON.stringify(params));
  form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), 'audio.wav');
  const response = await fetch(`${t.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${t.key}` }, body: form });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const job = JSON.parse(text) as Job & { result: VerboseResult };
  expect(job.status, text).toBe('succeeded');
  return job;
}

const RECOGNIZERS = [...Object.values(TINY_RECOGNIZERS), 'pocketsphinx-en-us'];

describe('the native route: every family, every granularity', () => {
  for (const model of RECOGNIZERS) {
    it(`${model}: language, duration, segments and words, always`, async () => {
      for (const granularity of ['word', 'segment', 'none']) {
        const { result } = await transcribe(model, JFK, { response_format: 'verbose_json', timestamp_granularity: granularity });
        // Read as a client written from the spec would: no guards.
        expect(typeof result.language, granularity).toBe('string');
        expect(result.language.length).toBeGreaterThan(1);
        expect(result.duration).toBeCloseTo(4, 3);
        const segmentTexts = result.segments.map((s) => s.text);
        const words = result.words.map((w) => w.word);
        if (granularity === 'none') expect([segmentTexts, words]).toEqual([[], []]);
        if (granularity === 'segment') expect(words).toEqual([]);
        if (granularity === 'word' && result.text !== '') {
          expect(words.length, model).toBeGreaterThan(0);
          expect(segmentTexts.length).toBeGreaterThan(0);
          for (const w of result.words) expect(w.end).toBeGreaterThanOrEqual(w.start);
        }
      }
    }, scaled(120_000));
  }

  it('word times come from token times where the family has them, and are marked where they are interpolated', async () => {
    const ctc = await transcribe(TINY_RECOGNIZERS['nemo-ctc'], JFK, {});
    expect(ctc.result.words.length).toBeGreaterThan(0);
    expect(ctc.result.words.some((w) => w.interpolated)).toBe(false);
    for (const model of [TINY_RECOGNIZERS.whisper, TINY_RECOGNIZERS.moonshine]) {
      const { result } = await transcribe(model, JFK, {});
      expect(result.words.length, model).toBeGreaterThan(0);
      expect(result.words.every((w) => w.interpolated === true), model).toBe(true);
      // The words together cover their segments, in order.
      expect(result.words.map((w) => w.word).join(' ')).toBe(result.segments.map((s) => s.text).join(' '));
    }
  }, scaled(120_000));

  it('words carry the confidence of engines that score them, 0..1, through the result, the transcript and the JSON export (issue 29.6)', async () => {
    const scored = [TINY_RECOGNIZERS['nemo-transducer'], TINY_RECOGNIZERS['streaming-transducer'], 'pocketsphinx-en-us'];
    for (const model of scored) {
      const job = await transcribe(model, JFK, {});
      expect(job.result.words.length, model).toBeGreaterThan(0);
      for (const w of job.result.words) {
        expect(w.confidence, `${model} ${w.word}`).toBeGreaterThanOrEqual(0);
        expect(w.confidence, `${model} ${w.word}`).toBeLessThanOrEqual(1);
      }
      const headers = { authorization: `Bearer ${t.key}` };
      const revision = (await (await fetch(`${t.url}/v1/speech-to-text/${job.id}/transcript`, { headers })).json()) as { segments: { words: TranscriptWord[] }[] };
      expect(revision.segments.flatMap((s) => s.words).map((w) => w.confidence), model).toEqual(job.result.words.map((w) => w.confidence));
      const exported = (await (await fetch(`${t.url}/v1/speech-to-text/${job.id}/export?format=json`, { headers })).json()) as { words: TranscriptWord[] };
      expect(exported.words.map((w) => w.confidence), model).toEqual(job.result.words.map((w) => w.confidence));
    }
    // Families whose results carry no token scores give words without one (never a made-up number).
    for (const model of [TINY_RECOGNIZERS['nemo-ctc'], TINY_RECOGNIZERS.whisper, TINY_RECOGNIZERS.moonshine, TINY_RECOGNIZERS['sense-voice']]) {
      const { result } = await transcribe(model, JFK, {});
      expect(result.words.every((w) => w.confidence === undefined), model).toBe(true);
    }
  }, scaled(240_000));

  it('text over silence is committed with its no_speech flag: in the result, the transcript and the segments it came from (issue 29.1)', async () => {
    const hiss = join(work, 'hiss.wav');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'anoisesrc=color=white:amplitude=0.001:seed=7:r=16000', '-t', '3', '-ac', '1', hiss]);
    const job = await transcribe(TINY_RECOGNIZERS['nemo-ctc'], hiss, { vad_filter: false });
    expect(job.result.text).not.toBe('');
    expect(job.result.segments.every((s) => s.flags?.includes('no_speech'))).toBe(true);
    const headers = { authorization: `Bearer ${t.key}` };
    const revision = (await (await fetch(`${t.url}/v1/speech-to-text/${job.id}/transcript`, { headers })).json()) as { segments: { flags?: string[] }[] };
    expect(revision.segments.map((s) => s.flags)).toEqual(job.result.segments.map(() => ['no_speech']));
    // Speech in the same fixed windows is not flagged.
    const spoken = await transcribe(TINY_RECOGNIZERS['nemo-ctc'], JFK, { vad_filter: false });
    expect(spoken.result.segments.some((s) => s.flags?.includes('no_speech'))).toBe(false);
  }, scaled(120_000));

  it('tiny Whisper on a second of silence names the language it detects', async () => {
    const { result } = await transcribe(TINY_RECOGNIZERS.whisper, SILENCE, { response_format: 'verbose_json' });
    expect(result).toMatchObject({ text: '', segments: [], words: [] });
    expect(['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'it']).toContain(result.language);
  }, scaled(60_000));

  it('a requested language is the one reported', async () => {
    const { result } = await transcribe(TINY_RECOGNIZERS['sense-voice'], JFK, { language: 'ja' });
    expect(result.language).toBe('ja');
  }, scaled(60_000));
});

describe('the OpenAI-compatible route, with the official SDK', () => {
  it('verbose_json always has segments and words, filled as the granularities ask', async () => {
    const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0, timeout: scaled(120_000) });
    for (const model of RECOGNIZERS) {
      const both = await client.audio.transcriptions.create({
        file: await toFile(readFileSync(JFK), 'jfk.wav'),
        model,
        response_format: 'verbose_json',
        timestamp_granularities: ['word', 'segment'],
      });
      expect(typeof both.language, model).toBe('string');
      expect(both.segments!.map((s) => s.text).length, model).toBeGreaterThan(0);
      expect(both.words!.map((w) => w.word).length, model).toBeGreaterThan(0);
      if (model === 'pocketsphinx-en-us') expect(both.words!.every((w) => typeof (w as { confidence?: unknown }).confidence === 'number'), model).toBe(true);
      const segmentsOnly = await client.audio.transcriptions.create({ file: await toFile(readFileSync(JFK), 'jfk.wav'), model, response_format: 'verbose_json' });
      expect(segmentsOnly.words!.map((w) => w.word), model).toEqual([]);
      expect(segmentsOnly.segments!.length, model).toBeGreaterThan(0);
    }
  }, scaled(180_000));
});
