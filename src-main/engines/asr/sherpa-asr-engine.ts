/**
 * Speech to text with sherpa-onnx offline recognizers (Whisper, NeMo CTC, NeMo transducer, Moonshine, SenseVoice).
 * The recording is decoded in blocks, cut by VAD (or fixed windows) into segments recognised one by one: progress,
 * cancellation and memory stay under control on long files. Runs inside a worker process.
 */
import type { Engine, EngineContext, EngineFactory, EngineOutput, EngineTask } from '../engine-types.js';
import { JobError } from '../../common/errors.js';
import { decodeBlocks } from '../audio/decode.js';
import { probeDuration } from '../audio/probe.js';
import { concatSamples, segmentSpeech } from '../audio/segments.js';
import { LANGUAGE_AWARE_FAMILIES, STREAMING_FAMILIES, WORD_TIMED_FAMILIES, type SherpaAsrEngineConfig } from './asr-families.js';
import { readAsrParams, type AsrParamRules } from './asr-params.js';
import { diarize, labelSpeakers, splitSegmentsBySpeaker } from './diarization.js';
import { clearRecognizers, getOnlineRecognizer, getRecognizer, parseEngineConfig } from './sherpa-recognizers.js';
import { streamingUtterances } from './streaming-recognition.js';
import { wordsFromTokens } from './token-words.js';
import { buildTranscript, emptyTranscript, type RecognizedPiece, type TranscriptOptions } from './transcript.js';
import type { SherpaOfflineRecognizer, SherpaOfflineResult } from './sherpa-native.js';

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
  const file = task.input.filePath;
  if (!file) throw new JobError('invalid_params', 'speech to text needs an audio file');
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
  if (duration === 0) return { result: emptyTranscript(options), artifacts: [], durationSeconds: 0 };

  // Diarization reads the whole recording at once (64 KB per second of audio); only kept when asked for.
  const kept: Float32Array[] = [];
  const blocks = keepBlocks(decodeBlocks(file, { signal: ctx.signal }), params.speakerDiarization ? kept : null);
  const pieces: RecognizedPiece[] = [];
  const detected = new Map<string, number>();
  const share = params.speakerDiarization ? 0.8 : 0.99;
  // With speakers asked for, only short pauses are bridged: fewer segments spanning two speakers.
  const mergeGapSeconds = params.speakerDiarization ? DIARIZATION_MERGE_GAP_SECONDS : undefined;
  let reported = 0;
  const report = (seconds: number): void => {
    const fraction = Math.min(share, (seconds / duration) * share);
    if (fraction > reported) ctx.progress((reported = fraction));
  };
  if (STREAMING_FAMILIES.includes(config.family)) {
    // A streaming recognizer finds utterance ends itself and is fed the recording as it is decoded.
    const recognizer = getOnlineRecognizer(config);
    for await (const u of streamingUtterances(recognizer, blocks, { signal: ctx.signal, onPosition: report })) {
      pieces.push({ start: u.start, end: u.end, text: u.text, words: wordsFromTokens({ tokens: u.tokens, timestamps: u.timestamps }, u.start, u.end) });
    }
  } else {
    const recognizer = getRecognizer(config, {
      language: params.language === 'auto' ? '' : params.language,
      task: params.task,
      useItn: params.useItn,
    });
    // Input position minus the longest segment: keeps progress moving through long silences, never ahead of recognition.
    const onPosition = (seconds: number): void => report(seconds - 30);
    const segments = segmentSpeech(blocks, { vadModel: config.vadModel, signal: ctx.signal, mergeGapSeconds, onPosition });
    for await (const segment of segments) {
      const result = recognizeSegment(recognizer, segment.samples);
      const lang = languageOf(result.lang);
      if (lang && result.text.trim()) detected.set(lang, (detected.get(lang) ?? 0) + (segment.end - segment.start));
      pieces.push({
        start: segment.start,
        end: segment.end,
        text: result.text,
        words: wordsFromTokens(
          { tokens: result.tokens ?? [], timestamps: result.timestamps ?? [], durations: result.durations },
          segment.start,
          segment.end,
        ),
      });
      report(segment.end);
    }
  }
  if (!options.language && detected.size > 0) options.language = [...detected].sort((a, b) => b[1] - a[1])[0]![0];
  const result = buildTranscript(pieces, options);
  if (params.speakerDiarization && config.diarization) {
    ctx.log(`diarizing ${duration.toFixed(1)} s`);
    const turns = diarize(config.diarization, concatSamples(kept), params.numSpeakers);
    labelSpeakers(result.words, turns);
    labelSpeakers(result.segments, turns);
    if (result.segments) result.segments = splitSegmentsBySpeaker(result.segments, result.words);
  }
  ctx.progress(1);
  return { result, artifacts: [], durationSeconds: duration };
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
