/**
 * Resuming a transcription after a committed segment (the engine side of checkpoints): a run given `resumeAfter`
 * recognises exactly the segments an uninterrupted run recognises after that point — same indexes, times, text and
 * words — and the transcript built from the committed rows equals the uninterrupted result read in sentences,
 * speakers included.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asrFamilyDefinition, type AsrSupportModels } from '../../../../src-main/engines/asr/asr-families.js';
import sherpaAsrFactory from '../../../../src-main/engines/asr/sherpa-asr-engine.js';
import type { Engine, EngineOutput, RecognizedSegment, ResumePoint } from '../../../../src-main/engines/engine-types.js';
import { splitIntoSentences } from '../../../../src-main/jobs/transcripts/sentence-segments.js';
import { segmentRow, transcriptFromRows } from '../../../../src-main/jobs/transcripts/transcript-segments.js';
import { requireFile, SHARED } from '../../../helpers/system.js';
import { ffmpeg, makeTempDir } from '../../../helpers/audio-fixtures.js';
import { recordingContext, sttTask } from '../../../helpers/engine-context.js';
import { makeLongRecording } from '../../../helpers/long-recording.js';
import { scaled } from '../../../helpers/time-scale.js';

const TINY = requireFile(join(SHARED, 'models/tiny/README.md'), '../shared/models/tiny').replace('/README.md', '');
const VAD = join(SHARED, 'models/silero_vad_v5.onnx');
const DIARIZATION: AsrSupportModels = {
  speakerEmbedding: join(TINY, 'tiny-speaker-embedding.onnx'),
  pyannoteSegmentation: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'),
};

function nemoCtc(support: AsrSupportModels) {
  return asrFamilyDefinition('nemo-ctc', {
    id: 'tiny-nemo-ctc',
    dir: join(TINY, 'tiny-nemo-ctc'),
    languages: ['en'],
    files: { model: 'model.onnx', tokens: 'tokens.txt' },
    support,
  }).engineConfig;
}

const temp = makeTempDir('voxdesk-resume-');
let recording = '';
let engine: Engine;
beforeAll(async () => {
  recording = makeLongRecording(temp.dir);
  engine = await sherpaAsrFactory();
}, scaled(120_000));
afterAll(() => temp.cleanup());

async function transcribe(file: string, config: Record<string, unknown>, params: Record<string, unknown>, resumeAfter: ResumePoint | null) {
  const segments: RecognizedSegment[] = [];
  const ctx = { ...recordingContext(), segment: (segment: RecognizedSegment) => void segments.push(segment) };
  const output: EngineOutput = await engine.run({ ...sttTask(file, 'sherpa-asr', config, params), resumeAfter }, ctx);
  return { segments, output };
}

/** Interrupts after segment k, resumes, and checks the resumed run and the transcript built from all the rows. */
async function expectResumable(file: string, config: Record<string, unknown>, params: Record<string, unknown>, points: (n: number) => number[]) {
  const whole = await transcribe(file, config, params, null);
  expect(whole.output.transcript?.segmentCount).toBe(whole.segments.length);
  whole.segments.forEach((s, i) => expect(s.index).toBe(i));
  const wholeRows = whole.segments.map((s) => segmentRow('job', s, 'now'));
  // Built from the rows, the uninterrupted run's result is the engine's own result, read in sentences (the job's
  // result is cut into sentences above the engines: jobs/transcripts/sentence-segments.ts).
  const sentences = splitIntoSentences(whole.output.result);
  expect(transcriptFromRows(wholeRows, whole.output.transcript!)).toEqual(sentences);
  for (const k of points(whole.segments.length)) {
    const last = whole.segments[k]!;
    const resumed = await transcribe(file, config, params, { index: last.index, seconds: last.resumeAt ?? last.end });
    expect(resumed.segments).toEqual(whole.segments.slice(k + 1));
    const rows = [...wholeRows.slice(0, k + 1), ...resumed.segments.map((s) => segmentRow('job', s, 'later'))];
    expect(transcriptFromRows(rows, resumed.output.transcript!)).toEqual(sentences);
  }
  return whole;
}

describe('a transcription resumed after a committed segment', () => {
  it('with Silero VAD: the same later segments and the same transcript as an uninterrupted run', async () => {
    const whole = await expectResumable(recording, nemoCtc({ sileroVad: VAD }), {}, (n) => [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n - 2, n - 1]);
    expect(whole.segments.length).toBeGreaterThanOrEqual(15);
    expect(whole.output.result.text!.length).toBeGreaterThan(500);
  }, scaled(300_000));

  it('with fixed windows (no VAD model installed)', async () => {
    await expectResumable(recording, nemoCtc({}), {}, (n) => [0, Math.floor(n / 2), n - 2]);
  }, scaled(300_000));

  it('with speaker diarization: run once at the end over the whole recording, speakers the same', async () => {
    const file = join(SHARED, 'audio/diarization/pyannote-2spk.wav');
    const whole = await expectResumable(file, nemoCtc({ ...DIARIZATION, sileroVad: VAD }), { speaker_diarization: true, num_speakers: 2 }, (n) => [Math.floor(n / 2)]);
    expect(new Set(whole.output.result.segments!.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_0', 'SPEAKER_1']));
  }, scaled(300_000));

  it('after the last segment: nothing is recognised again and the transcript is whole', async () => {
    const file = join(SHARED, 'audio/jfk.wav');
    const config = nemoCtc({ sileroVad: VAD });
    const whole = await transcribe(file, config, {}, null);
    const last = whole.segments[whole.segments.length - 1]!;
    const resumed = await transcribe(file, config, {}, { index: last.index, seconds: last.end });
    expect(resumed.segments).toEqual([]);
    expect(resumed.output.transcript?.segmentCount).toBe(whole.segments.length);
  }, scaled(120_000));

  it('with a streaming transducer: each utterance is a checkpoint and a resumed run continues after it', async () => {
    const twice = join(temp.dir, 'jfk-pause-jfk.wav');
    ffmpeg(['-i', join(SHARED, 'audio/jfk.wav'), '-f', 'lavfi', '-t', '3', '-i', 'anullsrc=r=16000:cl=mono', '-i', join(SHARED, 'audio/jfk.wav'), '-filter_complex', '[0][1][2]concat=n=3:v=0:a=1', '-ar', '16000', '-ac', '1', twice]);
    const config = asrFamilyDefinition('streaming-transducer', {
      id: 'tiny-streaming',
      dir: join(TINY, 'tiny-streaming-zipformer'),
      languages: ['en'],
      files: {
        encoder: 'encoder-epoch-99-avg-1-chunk-16-left-128.onnx',
        decoder: 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx',
        joiner: 'joiner-epoch-99-avg-1-chunk-16-left-128.onnx',
        tokens: 'tokens.txt',
      },
    }).engineConfig;
    const whole = await transcribe(twice, config, {}, null);
    expect(whole.segments.map((s) => s.index)).toEqual([0, 1]);
    const first = whole.segments[0]!;
    const resumed = await transcribe(twice, config, {}, { index: 0, seconds: first.resumeAt ?? first.end });
    // A fresh stream has not the encoder state the uninterrupted one carried over: with this random-weight model
    // even its endpoints differ, so only the shape is checked. Indexes continue, times are the recording's.
    const after = resumed.segments;
    expect(after.map((s) => s.index)).toEqual(after.map((_, i) => i + 1));
    expect(after[0]!.start).toBeGreaterThanOrEqual(first.end);
    expect(after[after.length - 1]!.end).toBe(25);
    expect(resumed.output.transcript?.segmentCount).toBe(1 + after.length);
    const rows = [first, ...after].map((s) => segmentRow('job', s, 'now'));
    // Every row's text is in the transcript, in order (cut into sentences, never merged across rows' utterances).
    const built = transcriptFromRows(rows, resumed.output.transcript!);
    expect(built.segments!.length).toBeGreaterThanOrEqual(1 + after.length);
    expect(built.segments!.map((s) => s.text).join(' ').split(/\s+/)).toEqual([first, ...after].map((s) => s.text).join(' ').split(/\s+/).filter(Boolean));
  }, scaled(120_000));
});
