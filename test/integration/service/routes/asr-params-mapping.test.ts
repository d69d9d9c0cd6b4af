/**
 * Issue 32, point 2: the spec's per-model speech-to-text params are honoured where the on-device family can honour
 * them, declared in the model's params_schema, and refused only where sherpa-onnx truly cannot — with the reason in
 * the message. Before, the local models answered 400 unsupported_param to `temperature: 0.2`, to word granularity on
 * Whisper and to every other param of the spec's table. Each param below is sent over HTTP as a client would, and its
 * effect read back from the transcript where it has one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord, Job, JobResult } from '../../../../src-main/common/api-types.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { installTinyModels, TINY_RECOGNIZERS } from '../../../helpers/tiny-models-installed.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('ffmpeg', 'ffmpeg');
const JFK = join(SHARED, 'audio/jfk.wav');
const work = mkdtempSync(join(tmpdir(), 'voxdesk-asr-params-'));
// jfk.wav, 4 s of silence, jfk.wav again: two stretches of speech a VAD tells apart (pauses under 3 s are bridged).
const TWICE = join(work, 'jfk-pause-jfk.wav');
execFileSync('ffmpeg', ['-loglevel', 'error', '-i', JFK, '-f', 'lavfi', '-t', '4', '-i', 'anullsrc=r=16000:cl=mono', '-i', JFK, '-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1', '-ar', '16000', TWICE]);

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ holdSeconds: 120, workers: 2 });
  await installTinyModels(t);
}, scaled(180_000));
afterAll(async () => {
  await t?.stop();
  rmSync(work, { recursive: true, force: true });
});

const { whisper: WHISPER, 'nemo-ctc': CTC, 'nemo-transducer': TDT, 'streaming-transducer': ZIPFORMER, 'sense-voice': SENSE_VOICE } = TINY_RECOGNIZERS;

async function post(model: string, params: Record<string, unknown>, file = JFK): Promise<{ status: number; body: { error?: { code: string; message: string } } & Job }> {
  const form = new FormData();
  form.append('model', model);
  form.append('params', JSON.stringify(params));
  form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), 'audio.wav');
  const response = await fetch(`${t.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${t.key}` }, body: form });
  return { status: response.status, body: (await response.json()) as never };
}

async function result(model: string, params: Record<string, unknown>, file = JFK): Promise<Required<Pick<JobResult, 'text' | 'language' | 'segments' | 'words'>>> {
  const { status, body } = await post(model, params, file);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.status, JSON.stringify(body)).toBe('succeeded');
  return body.result as never;
}

async function refused(model: string, params: Record<string, unknown>, code: string): Promise<string> {
  const { status, body } = await post(model, params);
  expect({ status, code: body.error?.code }, JSON.stringify(body)).toEqual({ status: 400, code });
  return body.error!.message;
}

describe('Whisper (W-turbo, W-full in the spec)', () => {
  it('takes every param of the spec\'s table at its documented default', async () => {
    const defaults = {
      language: 'auto',
      task: 'transcribe',
      response_format: 'verbose_json',
      timestamp_granularity: 'word',
      temperature: 0,
      vad_filter: true,
      min_silence_duration_ms: 1000,
      condition_on_previous_text: false,
      prompt_reset_on_temperature: 0.5,
      language_detection_threshold: 0.5,
      repetition_penalty: 1,
      no_repeat_ngram_size: 0,
      no_speech_threshold: 0.6,
      log_prob_threshold: -1,
      max_initial_timestamp: 999999,
      length_penalty: 1,
      compression_ratio_threshold: 2.4,
      multilingual: false,
      language_detection_segments: 1,
      speaker_diarization: false,
    };
    const out = await result(WHISPER, defaults);
    expect(out.words.length).toBeGreaterThan(0);
  });

  it('refuses what sherpa-onnx cannot do, saying why: sampling temperatures, prompts, conditioning on previous text; takes a no-speech threshold', async () => {
    expect(await refused(WHISPER, { temperature: 0.2 }, 'invalid_params')).toMatch(/params\.temperature .*got the number 0\.2.*decodes Whisper greedily/);
    expect(await refused(WHISPER, { prompt: 'Voxdesk' }, 'invalid_params')).toMatch(/takes no initial prompt/);
    expect(await refused(WHISPER, { condition_on_previous_text: true }, 'invalid_params')).toMatch(/each segment on its own/);
    expect(await refused(WHISPER, { hotwords: 'Voxdesk' }, 'invalid_params')).toMatch(/only transducer models/);
    expect(await refused(WHISPER, { repetition_penalty: 1.2 }, 'invalid_params')).toMatch(/penalises no repetition/);
    // no_speech_threshold is taken: it sets how sure Silero VAD must be to call a window speech (docs/transcripts.md).
    expect((await result(WHISPER, { language: 'en', vad_filter: false, no_speech_threshold: 0.3 })).segments.length).toBeGreaterThan(0);
  });

  it('word granularity gives words (interpolated, marked), vad_filter and chunk_length shape the segments', async () => {
    const vad = await result(WHISPER, { language: 'en' }, TWICE);
    expect(vad.segments.length).toBe(2); // Silero VAD: the two stretches of speech, the pause left out
    expect(vad.segments[0]!.start).toBeGreaterThan(0);
    const windows = await result(WHISPER, { language: 'en', vad_filter: false, chunk_length: 10 }, TWICE);
    expect(windows.segments.length).toBeGreaterThanOrEqual(3); // fixed windows of at most 10 s
    for (const s of windows.segments) expect(s.end - s.start).toBeLessThanOrEqual(10.001);
    expect(windows.words.every((w) => w.interpolated)).toBe(true);
    expect(await refused(WHISPER, { vad_filter: false, min_silence_duration_ms: 300 }, 'invalid_params')).toMatch(/vad_filter must be true .*when params\.min_silence_duration_ms is given/);
  });

  it('task translate reports English; max_new_tokens cuts each segment; speakers are labelled', async () => {
    expect((await result(WHISPER, { task: 'translate', language: 'de' })).language).toBe('en');
    const full = await result(WHISPER, { language: 'en' });
    const cut = await result(WHISPER, { language: 'en', max_new_tokens: 4 });
    expect(cut.text.length).toBeLessThan(full.text.length);
    expect(full.text.startsWith(cut.text.split(' ')[0]!)).toBe(true);
    const speakers = await result(WHISPER, { speaker_diarization: true, num_speakers: 2 }, join(SHARED, 'audio/diarization/pyannote-2spk.wav'));
    expect(new Set(speakers.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_0', 'SPEAKER_1']));
  }, scaled(120_000));

  it('multilingual and tail_paddings are taken', async () => {
    expect((await result(WHISPER, { multilingual: true, tail_paddings: 100 }, TWICE)).segments.length).toBe(2);
    expect((await result(WHISPER, { language_detection_segments: 2 }, TWICE)).language).toMatch(/^[a-z]{2}$/);
  });
});

describe('transducers (P2, P3, P-rnnt in the spec): decoding method, blank penalty, hotwords', () => {
  it('NeMo TDT: modified beam search and the blank penalty change the decoding as sherpa-onnx does', async () => {
    const greedy = await result(TDT, { vad_filter: false });
    const beam = await result(TDT, { vad_filter: false, decoding_method: 'modified_beam_search', max_active_paths: 4 });
    // ../shared/models/tiny/README.md: greedy "…pzzsi…", modified beam search "…pzzli…".
    expect(greedy.text).toContain('pzzsi');
    expect(beam.text).toContain('pzzli');
    const penalised = await result(TDT, { vad_filter: false, blank_penalty: 100 });
    expect(penalised.words.length).toBeGreaterThan(greedy.words.length);
    expect((await result(TDT, { blank_penalty: 0.75 })).text.length).toBeGreaterThan(0);
  });

  it('hotwords bias a transducer (spelled with its own tokens); they need modified beam search', async () => {
    const plain = await result(TDT, { vad_filter: false, decoding_method: 'modified_beam_search' });
    const biased = await result(TDT, { vad_filter: false, hotwords: 'hello :5, world', hotwords_score: 2 });
    expect(biased.text).not.toBe(plain.text);
    expect(await refused(TDT, { hotwords: 'hello', decoding_method: 'greedy_search' }, 'invalid_params')).toMatch(/decoding_method must be "modified_beam_search" .*when params\.hotwords is given/);
  });

  it('streaming Zipformer: modified beam search, blank penalty and hotwords too', async () => {
    const beam = await result(ZIPFORMER, { decoding_method: 'modified_beam_search' });
    expect(beam.text).toContain('YHPYPHKL'); // README: modified_beam_search
    const penalised = await result(ZIPFORMER, { blank_penalty: 50 });
    expect(penalised.text).not.toBe(beam.text);
    expect((await result(ZIPFORMER, { hotwords: 'hello' })).text.length).toBeGreaterThan(0);
  });
});

describe('other families', () => {
  it('NeMo CTC has no decoding choice (beam search would end sherpa-onnx\'s process): refused, naming what it takes', async () => {
    const message = await refused(CTC, { decoding_method: 'modified_beam_search' }, 'unsupported_param');
    expect(message).toContain('it accepts response_format, timestamp_granularity');
    expect(await refused(CTC, { temperature: 0 }, 'unsupported_param')).toContain('leave "temperature" out');
  });

  it('SenseVoice: language and use_itn', async () => {
    expect((await result(SENSE_VOICE, { language: 'zh' })).text).toMatch(/[\u4e00-\u9fff]/);
    const itn = await result(SENSE_VOICE, { language: 'en', use_itn: true, vad_filter: false });
    const plain = await result(SENSE_VOICE, { language: 'en', use_itn: false, vad_filter: false });
    expect(itn.text).not.toBe(plain.text); // README: ITN turns some tokens into "," and "."
  });
});

describe('the catalogue declares what each model takes', () => {
  it('params_schema lists each family\'s params with the reason where only one value can be honoured', async () => {
    const props = async (id: string): Promise<Record<string, { enum?: unknown[]; description?: string }>> =>
      ((await (await fetch(`${t.url}/v1/models/${id}`)).json()) as CatalogueRecord & { params_schema: { properties: never } }).params_schema.properties;
    const whisper = await props(WHISPER);
    for (const name of ['temperature', 'prompt', 'vad_filter', 'min_silence_duration_ms', 'speaker_diarization', 'condition_on_previous_text', 'max_new_tokens', 'chunk_length']) {
      expect(whisper[name], name).toBeDefined();
    }
    expect(whisper.temperature!.description).toMatch(/^Only 0 here/);
    expect(Object.keys(await props(TDT))).toEqual(expect.arrayContaining(['blank_penalty', 'decoding_method', 'max_active_paths', 'hotwords', 'hotwords_score']));
    expect(Object.keys(await props(CTC))).not.toContain('decoding_method');
  });
});
