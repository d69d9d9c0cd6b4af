import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import { asrFamilyDefinition, type AsrSupportModels } from '../../../../src-main/engines/asr/asr-families.js';
import sherpaAsrFactory from '../../../../src-main/engines/asr/sherpa-asr-engine.js';
import type { Engine } from '../../../../src-main/engines/engine-types.js';
import { requireFile, SHARED } from '../../../helpers/system.js';
import { ffmpeg, makeFixture, makeTempDir } from '../../../helpers/audio-fixtures.js';
import { recordingContext, sttTask } from '../../../helpers/engine-context.js';
import { logInto } from '../../../helpers/log.js';
import { scaled } from '../../../helpers/time-scale.js';

const TINY = requireFile(join(SHARED, 'models/tiny/README.md'), '../shared/models/tiny').replace('/README.md', '');
const JFK = join(SHARED, 'audio/jfk.wav');
const VAD = join(SHARED, 'models/silero_vad_v5.onnx');
const DIARIZATION: AsrSupportModels = {
  speakerEmbedding: join(TINY, 'tiny-speaker-embedding.onnx'),
  pyannoteSegmentation: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'),
};
const JFK_CTC = 'cm cacuuevppmcshj y ghye tld gtdcyuubsucdzbmpof ucmcwxwwdjw oet';
const JFK_WHISPER = 'co lhlr fc smfh lourqdrwvbdu surll';
const WHISPER_LANGUAGES = 'en zh de es ru ko fr ja pt it'.split(' ');

const temp = makeTempDir('voxdesk-sherpa-asr-');
afterAll(() => temp.cleanup());
const engine: Engine = await sherpaAsrFactory();

function nemoCtc(support: AsrSupportModels = {}) {
  return asrFamilyDefinition('nemo-ctc', {
    id: 'tiny-nemo-ctc',
    dir: join(TINY, 'tiny-nemo-ctc'),
    languages: ['en'],
    files: { model: 'model.onnx', tokens: 'tokens.txt' },
    support,
  }).engineConfig;
}
function whisper(support: AsrSupportModels = {}) {
  return asrFamilyDefinition('whisper', {
    id: 'tiny-whisper',
    dir: join(TINY, 'tiny-whisper'),
    languages: WHISPER_LANGUAGES,
    files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', tokens: 'tokens.txt' },
    support,
  }).engineConfig;
}

async function failureCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(JobError);
    return (error as JobError).code;
  }
}

describe('sherpa-onnx NeMo CTC (tiny random-weight model)', () => {
  it('gives the README\'s exact text for jfk.wav, word times from token times, progress and duration', async () => {
    const ctx = recordingContext();
    const out = await engine.run(sttTask(JFK, 'sherpa-asr', nemoCtc()), ctx);
    expect(out.result.text).toBe(JFK_CTC);
    expect(out.durationSeconds).toBe(11);
    expect(out.result.duration).toBe(11);
    expect(out.result.language).toBe('en');
    expect(out.result.segments).toEqual([{ id: 0, start: 0, end: 11, text: JFK_CTC }]);
    const words = out.result.words!;
    expect(words.map((w) => w.word).join(' ')).toBe(JFK_CTC);
    expect(words[0]!.start).toBeCloseTo(0.36, 5);
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.end - 1e-9);
    expect(ctx.events[0]).toEqual({ kind: 'measured', value: 11 });
    const progress = ctx.events.filter((e) => e.kind === 'progress').map((e) => e.value);
    expect(progress[progress.length - 1]).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('response_format json gives the text only; granularity none drops segments and words', async () => {
    const json = await engine.run(sttTask(JFK, 'sherpa-asr', nemoCtc(), { response_format: 'json' }), recordingContext());
    expect(json.result).toEqual({ text: JFK_CTC });
    const none = await engine.run(sttTask(JFK, 'sherpa-asr', nemoCtc(), { timestamp_granularity: 'none' }), recordingContext());
    // verbose_json always has all four fields: none leaves segments and words empty (issue 32, point 1).
    expect(none.result).toEqual({ text: JFK_CTC, duration: 11, language: 'en', segments: [], words: [] });
  });

  it('decodes other containers the same way (8 kHz mp3 in a temp dir)', async () => {
    const mp3 = join(temp.dir, 'jfk-8k.mp3');
    ffmpeg(['-i', JFK, '-ar', '8000', '-c:a', 'libmp3lame', '-b:a', '32k', mp3]);
    const out = await engine.run(sttTask(mp3, 'sherpa-asr', nemoCtc()), recordingContext());
    expect(out.result.words!.length).toBeGreaterThan(3);
    const webm = makeFixture(temp.dir, 'webm');
    const fromWebm = await engine.run(sttTask(webm, 'sherpa-asr', nemoCtc()), recordingContext());
    expect(fromWebm.result.text!.length).toBeGreaterThan(10);
  });

  it('with Silero VAD: segments inside the speech, words inside their segments', async () => {
    const out = await engine.run(sttTask(join(SHARED, 'audio/noisy/silero-test.wav'), 'sherpa-asr', nemoCtc({ sileroVad: VAD })), recordingContext());
    const segments = out.result.segments!;
    expect(segments.length).toBeGreaterThanOrEqual(2);
    for (const s of segments) expect(s.end - s.start).toBeLessThanOrEqual(25.001);
    for (const w of out.result.words!) {
      expect(segments.some((s) => w.start >= s.start - 1e-6 && w.end <= s.end + 1e-6)).toBe(true);
    }
  });

  it('zero-length audio is an empty transcript, not a crash', async () => {
    const zero = join(temp.dir, 'zero.wav');
    ffmpeg(['-i', JFK, '-t', '0', zero]);
    const ctx = recordingContext();
    const out = await engine.run(sttTask(zero, 'sherpa-asr', nemoCtc()), ctx);
    expect(out.result).toEqual({ text: '', duration: 0, language: 'en', segments: [], words: [] });
    expect(out.durationSeconds).toBe(0);
    const silence = join(temp.dir, 'silence.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '1', silence]);
    expect((await engine.run(sttTask(silence, 'sherpa-asr', nemoCtc()), recordingContext())).result.text).toBe('');
  });

  it('a corrupt file fails with audio_decode_failed', async () => {
    const { writeFileSync } = await import('node:fs');
    const bad = join(temp.dir, 'bad.m4a');
    writeFileSync(bad, Buffer.from('not audio at all, just some bytes pretending'.repeat(20)));
    expect(await failureCode(engine.run(sttTask(bad, 'sherpa-asr', nemoCtc()), recordingContext()))).toBe('audio_decode_failed');
  });

  it('cancelling between segments stops with the cancelled code', async () => {
    const ctx = recordingContext((fraction, controller) => fraction > 0 && controller.abort());
    const long = join(SHARED, 'audio/noisy/silero-test.wav');
    expect(await failureCode(engine.run(sttTask(long, 'sherpa-asr', nemoCtc({ sileroVad: VAD })), ctx))).toBe('cancelled');
  });
});

describe('sherpa-onnx Whisper (tiny random-weight model)', () => {
  it('gives the README\'s exact text for jfk.wav in English; no token times, so words are interpolated and marked', async () => {
    const out = await engine.run(sttTask(JFK, 'sherpa-asr', whisper(), { language: 'en' }), recordingContext());
    expect(out.result).toMatchObject({
      text: JFK_WHISPER,
      duration: 11,
      language: 'en',
      segments: [{ id: 0, start: 0, end: 11, text: JFK_WHISPER }],
    });
    const words = out.result.words!;
    expect(words.map((w) => w.word)).toEqual(JFK_WHISPER.split(/\s+/).filter(Boolean));
    expect(words.every((w) => w.interpolated === true && w.end >= w.start)).toBe(true);
    expect([words[0]!.start, words.at(-1)!.end]).toEqual([0, 11]);
  });

  it('max_new_tokens cuts each segment after that many tokens (greedy decoding: the same first tokens)', async () => {
    const out = await engine.run(sttTask(JFK, 'sherpa-asr', whisper(), { language: 'en', max_new_tokens: 5 }), recordingContext());
    expect(JFK_WHISPER.startsWith(out.result.text!)).toBe(true);
    expect(out.result.text!.length).toBeLessThan(JFK_WHISPER.length);
  });

  it('reports the detected language even when nothing was spoken', async () => {
    const silence = join(temp.dir, 'silence-2s.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '2', silence]);
    const out = await engine.run(sttTask(silence, 'sherpa-asr', whisper()), recordingContext());
    expect(out.result).toMatchObject({ text: '', segments: [], words: [] });
    expect(WHISPER_LANGUAGES).toContain(out.result.language);
  });

  it('language auto reports the detected language', async () => {
    const out = await engine.run(sttTask(JFK, 'sherpa-asr', whisper()), recordingContext());
    expect(out.result.language).toBe('en');
  });

  it('translate is accepted by a multilingual model and reports English', async () => {
    const out = await engine.run(sttTask(JFK, 'sherpa-asr', whisper(), { task: 'translate', language: 'de' }), recordingContext());
    expect(out.result.language).toBe('en');
    expect(typeof out.result.text).toBe('string');
  });

  it('an unknown language is invalid_params and never reaches sherpa-onnx (which would exit the process)', async () => {
    expect(await failureCode(engine.run(sttTask(JFK, 'sherpa-asr', whisper(), { language: 'xx' }), recordingContext()))).toBe('invalid_params');
    expect(await failureCode(engine.run(sttTask(JFK, 'sherpa-asr', whisper(), { task: 'summarize' }), recordingContext()))).toBe('invalid_params');
    // Still alive: the same process recognises again.
    expect((await engine.run(sttTask(JFK, 'sherpa-asr', whisper(), { language: 'en' }), recordingContext())).result.text).toBe(JFK_WHISPER);
  });
});

describe('speaker diarization (pyannote segmentation + tiny speaker embedding)', () => {
  it('labels segments and words with two speakers on pyannote-2spk.wav', async () => {
    const file = join(SHARED, 'audio/diarization/pyannote-2spk.wav');
    const config = nemoCtc({ ...DIARIZATION, sileroVad: VAD });
    const out = await engine.run(sttTask(file, 'sherpa-asr', config, { speaker_diarization: true, num_speakers: 2 }), recordingContext());
    const segments = out.result.segments!;
    const words = out.result.words!;
    expect(new Set(segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_0', 'SPEAKER_1']));
    expect(words.every((w) => w.speaker === 'SPEAKER_0' || w.speaker === 'SPEAKER_1')).toBe(true);
    // The README's turns: speaker 0 alone talks 6.73–10.59, speaker 1 most of 21.77–28.18 (the tiny model's
    // random "words" are long, so only loose checks hold).
    expect(words.find((w) => w.start > 7 && w.end < 10.5)?.speaker).toBe('SPEAKER_0');
    expect(words.some((w) => w.speaker === 'SPEAKER_1' && w.start > 14)).toBe(true);
    segments.forEach((s, i) => expect(s.id).toBe(i));
  });

  it('speaker_diarization without the models installed is invalid_params', async () => {
    expect(await failureCode(engine.run(sttTask(JFK, 'sherpa-asr', nemoCtc(), { speaker_diarization: true }), recordingContext()))).toBe(
      'invalid_params',
    );
  });
});

describe('sherpa-onnx streaming transducer (tiny streaming Zipformer2)', () => {
  const dir = join(TINY, 'tiny-streaming-zipformer');
  const streaming = () =>
    asrFamilyDefinition('streaming-transducer', {
      id: 'tiny-streaming',
      dir,
      languages: ['en'],
      files: {
        encoder: 'encoder-epoch-99-avg-1-chunk-16-left-128.onnx',
        decoder: 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx',
        joiner: 'joiner-epoch-99-avg-1-chunk-16-left-128.onnx',
        tokens: 'tokens.txt',
      },
      // A VAD model is installed, but a streaming model finds utterance ends itself.
      support: { sileroVad: VAD },
    });
  const JFK_STREAMING = 'TOZHHH ARPSRO THEYOY YHPYSCOLSFEP ANDF THEAHMU THESASPYHY';

  it('is a live model; jfk.wav gives the README\'s text (with the flushing tail), word times from token times', async () => {
    const def = streaming();
    expect(def.live).toBe(true);
    const ctx = recordingContext();
    const out = await engine.run(sttTask(JFK, 'sherpa-asr', def.engineConfig), ctx);
    expect(out.result.text).toBe(JFK_STREAMING);
    expect(out.result.segments).toEqual([{ id: 0, start: 0, end: 11, text: JFK_STREAMING }]);
    expect(out.result.words!.map((w) => w.word).join(' ')).toBe(JFK_STREAMING);
    expect(out.result.words![0]!.start).toBeCloseTo(0.36, 5);
    const progress = ctx.events.filter((e) => e.kind === 'progress').map((e) => e.value);
    expect(progress[progress.length - 1]).toBe(1);
  });

  it('ends an utterance at a pause (endpoint rules) and times the next from the start of the recording', async () => {
    const twice = join(temp.dir, 'jfk-pause-jfk.wav');
    ffmpeg(['-i', JFK, '-f', 'lavfi', '-t', '3', '-i', 'anullsrc=r=16000:cl=mono', '-i', JFK, '-filter_complex', '[0][1][2]concat=n=3:v=0:a=1', '-ar', '16000', '-ac', '1', twice]);
    const out = await engine.run(sttTask(twice, 'sherpa-asr', streaming().engineConfig), recordingContext());
    const segments = out.result.segments!;
    expect(segments).toHaveLength(2);
    expect(segments[0]).toMatchObject({ start: 0, text: JFK_STREAMING });
    expect(segments[0]!.end).toBeGreaterThan(11);
    expect(segments[0]!.end).toBeLessThan(14);
    expect(segments[1]!.start).toBeGreaterThan(11);
    expect(segments[1]!.end).toBe(25);
    for (const w of out.result.words!) {
      expect(segments.some((s) => w.start >= s.start - 1e-6 && w.end <= s.end + 1e-6)).toBe(true);
    }
    expect(out.result.words!.find((w) => w.start > 14)).toBeDefined();
  });

  it('cancelling stops with the cancelled code', async () => {
    const ctx = recordingContext((fraction, controller) => fraction > 0 && controller.abort());
    expect(await failureCode(engine.run(sttTask(join(SHARED, 'audio/noisy/silero-test.wav'), 'sherpa-asr', streaming().engineConfig), ctx))).toBe('cancelled');
  });

  it('a doubtful utterance is decoded again in two halves in fresh streams, the same way every time (issue 29.1)', async () => {
    // A compression threshold nothing passes holds jfk.wav's one utterance doubtful.
    const run = async (): Promise<{ lines: string[]; out: Awaited<ReturnType<Engine['run']>> }> => {
      const lines: string[] = [];
      const out = await engine.run(sttTask(JFK, 'sherpa-asr', streaming().engineConfig, { compression_ratio_threshold: 0.01 }), { ...recordingContext(), log: logInto(lines) });
      return { lines, out };
    };
    const first = await run();
    const retried = first.lines.filter((line) => /decoded again in two halves/.test(line));
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatch(/^segment 0\.\d\d–1\d\.\d\d s flagged compression_ratio; decoded again in two halves: .*; kept the (first|second) decode$/);
    // Whichever was kept, the words stay within the recording and in order, and a second run chooses the same.
    const words = first.out.result.words!;
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.start);
    expect((await run()).out.result).toEqual(first.out.result);
  });
});

describe('text over silence (no_speech, issue 29.1)', () => {
  it('a fixed window whose text the voice-activity detector hears nobody under is kept and marked no_speech; speech is not', async () => {
    // Three seconds of faint noise: the random-weight model writes letters over it, Silero VAD hears no speech.
    const hiss = join(temp.dir, 'hiss.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'anoisesrc=color=white:amplitude=0.001:seed=7:r=16000', '-t', '3', '-ac', '1', hiss]);
    const config = nemoCtc({ sileroVad: VAD });
    const overSilence = await engine.run(sttTask(hiss, 'sherpa-asr', config, { vad_filter: false }), recordingContext());
    expect(overSilence.result.text).not.toBe('');
    expect(overSilence.result.segments!.map((s) => s.flags)).toEqual([['no_speech']]);
    // jfk.wav in the same fixed windows: speech, no flag.
    const spoken = await engine.run(sttTask(JFK, 'sherpa-asr', config, { vad_filter: false }), recordingContext());
    expect(spoken.result.text).not.toBe('');
    expect(spoken.result.segments!.every((s) => !s.flags?.includes('no_speech'))).toBe(true);
    // With vad_filter (the default when Silero is installed) the noise is never recognised at all.
    expect((await engine.run(sttTask(hiss, 'sherpa-asr', config), recordingContext())).result.segments).toEqual([]);
  }, scaled(120_000));
});
