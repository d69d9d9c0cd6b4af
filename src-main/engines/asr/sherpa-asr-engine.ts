/**
 * Speech to text with sherpa-onnx offline recognizers (Whisper, NeMo CTC, NeMo transducer, Moonshine, SenseVoice).
 * The recording is decoded in blocks, cut by VAD (or fixed windows) into segments recognised one by one: progress,
 * cancellation and memory stay under control on long files. Each segment is sent to the job engine as it is
 * recognised (a checkpoint); a run given `resumeAfter` continues after the last committed segment with the same
 * segments an uninterrupted run would make (see segments.ts). Runs inside a worker process.
 */
import type { Engine, EngineContext, EngineFactory, EngineOutput, EngineTask, RecognizedSegment } from '../engine-types.js';
import { JobError } from '../../common/errors.js';
import { ASR_SAMPLE_RATE, decodeBlocks } from '../audio/decode.js';
import { probeDuration } from '../audio/probe.js';
import { concatSamples, segmentSpeech } from '../audio/segments.js';
import { skipSamples } from '../audio/skip-samples.js';
import { LANGUAGE_AWARE_FAMILIES, STREAMING_FAMILIES, WORD_TIMED_FAMILIES, type SherpaAsrEngineConfig } from './asr-families.js';
import { readAsrParams, type AsrParamRules } from './asr-params.js';
import { diarize, type SpeakerTurn } from './diarization.js';
import { noteRecognised, noteResume, segmentDelay } from './recognition-probe.js';
import { clearRecognizers, getOnlineRecognizer, getRecognizer, parseEngineConfig } from './sherpa-recognizers.js';
import { streamingUtterances } from './streaming-recognition.js';
import { wordsFromTokens } from './token-words.js';
import { assembleTranscript } from './transcript-assembly.js';
import type { TranscriptOptions } from './transcript.js';
import type { SherpaOfflineRecognizer, SherpaOfflineResult } from './sherpa-native.js';
import { inputFile } from '../audio/input-file.js';

/** VAD segments closer than this are merged when diarizing (default merging bridges 3 s). */
export const DIARIZATION_MERGE_GAP_SECONDS = 0.5;

export function paramRules(config: SherpaAsrEngineConfig): AsrParamRules {
  return {
    languages: LANGUAGE_AWARE_FAMILIES.includes(config.family) ? config.languages : [],
    wordTimings: WORD_TIMED_FAMILIES.includes(config.family),
    translate: config.family === 'whisper' && config.languages.length > 1,
    diarization: config.diarization !== null,
  };
}

/** Language code from a result's `lang` ("<|en|>", "en", "<|EN|>"), or null. */
export function languageOf(lang: string | undefined): string | null {
  const code = (lang ?? '').replace(/[<|>]/g, '').trim().toLowerCase();
  return code === '' ? null : code;
}

async function run(task: EngineTask, ctx: EngineContext): Promise<EngineOutput> {
  const file = await inputFile(task.input, () => new JobError('invalid_params', 'speech to text needs an audio file'));
  const config = parseEngineConfig(task.engineConfig);
  const params = readAsrParams(task.params, paramRules(config));
  const duration = await probeDuration(file, { signal: ctx.signal });
  ctx.measured(duration);
  const fixedLanguage = params.language !== 'auto' ? params.language : config.languages.length === 1 ? config.languages[0]! : null;
  const options: TranscriptOptions = {
    duration,
    language: params.task === 'translate' ? 'en' : fixedLanguage,
    responseFormat: params.responseFormat,
    granularity: params.granularity,
  };
  const resume = task.resumeAfter ?? null;
  let index = resume ? resume.index + 1 : 0;
  if (duration === 0) {
    return { result: assembleTranscript([], options, null), artifacts: [], durationSeconds: 0, transcript: { options, speakerTurns: null, segmentCount: index } };
  }

  const diarizing = params.speakerDiarization && config.diarization !== null;
  // Diarization reads the whole recording at once (64 KB per second of audio); only kept when asked for. A resumed
  // run decodes the recording from the start too (exact samples), keeping them for diarization, but hands VAD and
  // the recognizer only the audio after its checkpoint.
  const kept: Float32Array[] = [];
  const startSample = resume ? Math.round(resume.seconds * ASR_SAMPLE_RATE) : 0;
  if (resume) noteResume(task.jobId, resume.seconds);
  const decoded = keepBlocks(decodeBlocks(file, { signal: ctx.signal }), diarizing ? kept : null);
  const blocks = startSample > 0 ? skipSamples(decoded, startSample) : decoded;
  const pieces: RecognizedSegment[] = [];
  const share = diarizing ? 0.8 : 0.99;
  // With speakers asked for, only short pauses are bridged: fewer segments spanning two speakers.
  const mergeGapSeconds = diarizing ? DIARIZATION_MERGE_GAP_SECONDS : undefined;
  let reported = 0;
  const fractionAt = (seconds: number): number => Math.max(reported, Math.min(share, (seconds / duration) * share));
  // Input position minus the longest segment: keeps progress moving through long silences, never ahead of recognition.
  const onPosition = (seconds: number): void => {
    const fraction = fractionAt(seconds - 30);
    if (fraction > reported) ctx.progress((reported = fraction));
  };
  /** A recognised segment: recorded, committed with the progress it brings (a restart resumes after it). */
  const recognised = async (piece: RecognizedSegment): Promise<void> => {
    noteRecognised(task.jobId, piece.index, piece.start, piece.end);
    pieces.push(piece);
    index = piece.index + 1;
    ctx.segment?.(piece, (reported = fractionAt(piece.end)));
    if (!ctx.segment) ctx.progress(reported);
    await segmentDelay(ctx.signal);
  };
  if (STREAMING_FAMILIES.includes(config.family)) {
    // A streaming recognizer finds utterance ends itself and is fed the recording as it is decoded. Each utterance is a
    // checkpoint, resumable where its endpoint was found; a fresh stream there has not the encoder state the
    // uninterrupted one carried over, so the text after a resume point can differ a little (like PocketSphinx).
    const recognizer = getOnlineRecognizer(config);
    const offset = startSample / ASR_SAMPLE_RATE;
    const report = (seconds: number): void => onPosition(offset + seconds + 30);
    for await (const u of streamingUtterances(recognizer, blocks, { signal: ctx.signal, onPosition: report })) {
      const start = offset + u.start;
      const end = offset + u.end;
      const words = wordsFromTokens({ tokens: u.tokens, timestamps: u.timestamps }, start, end);
      await recognised({ index, start, end, text: u.text, ...(words.length > 0 ? { words } : {}) });
    }
  } else {
    const recognizer = getRecognizer(config, {
      language: params.language === 'auto' ? '' : params.language,
      task: params.task,
      useItn: params.useItn,
    });
    const segments = segmentSpeech(blocks, { vadModel: config.vadModel, signal: ctx.signal, mergeGapSeconds, onPosition, startSample });
    for await (const segment of segments) {
      const result = recognizeSegment(recognizer, segment.samples);
      const words = wordsFromTokens(
        { tokens: result.tokens ?? [], timestamps: result.timestamps ?? [], durations: result.durations },
        segment.start,
        segment.end,
      );
      const piece: RecognizedSegment = { index, start: segment.start, end: segment.end, text: result.text, language: languageOf(result.lang) };
      if (words.length > 0) piece.words = words;
      await recognised(piece);
    }
  }
  let speakerTurns: SpeakerTurn[] | null = null;
  if (diarizing) {
    ctx.log(`diarizing ${duration.toFixed(1)} s`);
    speakerTurns = diarize(config.diarization!, concatSamples(kept), params.numSpeakers);
  }
  ctx.progress(1);
  return {
    result: assembleTranscript(pieces, options, speakerTurns),
    artifacts: [],
    durationSeconds: duration,
    transcript: { options, speakerTurns, segmentCount: index },
  };
}

function recognizeSegment(recognizer: SherpaOfflineRecognizer, samples: Float32Array): SherpaOfflineResult {
  try {
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples, sampleRate: 16000 });
    recognizer.decode(stream);
    return recognizer.getResult(stream);
  } catch (cause) {
    throw new JobError('engine_failed', `recognition failed: ${(cause as Error).message}`, { cause });
  }
}

async function* keepBlocks(source: AsyncIterable<Float32Array>, into: Float32Array[] | null): AsyncGenerator<Float32Array> {
  for await (const block of source) {
    into?.push(block);
    yield block;
  }
}

const factory: EngineFactory = (): Engine => ({ run, dispose: clearRecognizers });
export default factory;
