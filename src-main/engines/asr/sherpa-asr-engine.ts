/**
 * Speech to text with sherpa-onnx offline recognizers (Whisper, NeMo CTC, NeMo transducer, Moonshine, SenseVoice).
 * The recording is decoded in blocks, cut by VAD (or fixed windows) into segments recognised one by one: progress,
 * cancellation and memory stay under control on long files. Each segment is sent to the job engine as it is
 * recognised (a checkpoint); a run given `resumeAfter` continues after the last committed segment with the same
 * segments an uninterrupted run would make (see segments.ts). Runs inside a worker process.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine, EngineContext, EngineFactory, EngineOutput, EngineTask, RecognizedSegment } from '../engine-types.js';
import { JobError } from '../../common/errors.js';
import { ASR_SAMPLE_RATE, decodeBlocks } from '../audio/decode.js';
import { inputFile } from '../audio/input-file.js';
import { probeDuration } from '../audio/probe.js';
import { concatSamples, segmentSpeech } from '../audio/segments.js';
import { skipSamples } from '../audio/skip-samples.js';
import { PRIVATE_FILE_MODE } from '../../store/private-files.js';
import { LANGUAGE_AWARE_FAMILIES, LANGUAGE_TOLD_FAMILIES, STREAMING_FAMILIES, TRANSDUCER_FAMILIES, type SherpaAsrEngineConfig } from './asr-families.js';
import { readAsrParams, type AsrJobParams, type AsrParamRules } from './asr-params.js';
import { matchSpeakers, type KnownSpeaker } from '../../common/speaker-matching.js';
import { diarize, type DiarizationModels } from './diarization.js';
import { recordingVoices } from './diarization-voices.js';
import { decodeWithRetry } from './flagged-redecode.js';
import { HeardAudio } from './heard-audio.js';
import { redecodeStreamedIfFlagged } from './streaming-redecode.js';
import { isOverSilence, NO_SPEECH_THRESHOLD } from './no-speech.js';
import { hotwordLines, spellable } from './hotword-tokens.js';
import { noteRecognised, noteResume, segmentDelay } from './recognition-probe.js';
import { clearRecognizers, getOnlineRecognizer, getRecognizer, parseEngineConfig, type RecognizerSettings } from './sherpa-recognizers.js';
import { identifyLanguage } from './language-identification.js';
import { LanguageLock, languageOf, RecordingHead } from './spoken-language.js';
import { streamingUtterances } from './streaming-recognition.js';
import { wordsFromTokens } from './token-words.js';
import { assembleTranscript, type TranscriptPlan } from './transcript-assembly.js';
import type { TranscriptOptions } from './transcript.js';
import type { SherpaOfflineRecognizer, SherpaOfflineResult, SherpaOnlineRecognizer } from './sherpa-native.js';
import { punctuate, punctuatedWords } from './punctuation.js';
import type { Log } from '../../common/log.js';
import { AUDIO_FILE_NEEDED } from '../../common/error-messages.js';

export { languageOf } from './spoken-language.js';

/** VAD segments closer than this are merged when diarizing (default merging bridges 3 s). */
export const DIARIZATION_MERGE_GAP_SECONDS = 0.5;

export function paramRules(config: SherpaAsrEngineConfig): AsrParamRules {
  return {
    // Every model may be told its own language; only language-aware families pass it on to sherpa-onnx.
    languages: config.languages,
    translate: config.family === 'whisper' && config.languages.length > 1,
    diarization: config.diarization !== null,
    vad: config.vadModel !== null,
    transducer: TRANSDUCER_FAMILIES.includes(config.family),
    punctuation: Boolean(config.punctuation),
  };
}

/**
 * Whisper decoders exported without attention outputs give no token times, and sherpa-onnx warns on every decode
 * when asked for them: once a model is seen to give none, this worker stops asking (one more load of the model).
 */
const withoutTokenTimes = new Set<string>();

async function run(task: EngineTask, ctx: EngineContext): Promise<EngineOutput> {
  const file = await inputFile(task.input, () => new JobError('invalid_params', AUDIO_FILE_NEEDED));
  const config = parseEngineConfig(task.engineConfig);
  const params = readAsrParams(withVocabularyHotwords(task, config, ctx), paramRules(config));
  const duration = await probeDuration(file, { signal: ctx.signal });
  ctx.measured(duration);
  // A family told its language finds it with the identification model when installed, else Canary's auto is English
  // (canary.ts); a model of one language is in that language.
  const identifying = params.language === 'auto' && Boolean(config.languageId) && LANGUAGE_TOLD_FAMILIES.includes(config.family);
  const fixedLanguage =
    params.language !== 'auto' || identifying ? (identifying ? null : params.language) : config.family === 'canary' ? 'en' : config.languages.length === 1 ? config.languages[0]! : null;
  const options: TranscriptOptions = {
    duration,
    language: params.task === 'translate' ? 'en' : fixedLanguage,
    responseFormat: params.responseFormat,
    granularity: params.granularity,
    // Whisper's own threshold param sets when a segment is marked for compressing too well.
    ...(typeof task.params.compression_ratio_threshold === 'number' ? { guardrails: { compressionRatioThreshold: task.params.compression_ratio_threshold } } : {}),
  };
  const noSpeechThreshold = typeof task.params.no_speech_threshold === 'number' ? task.params.no_speech_threshold : NO_SPEECH_THRESHOLD;
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
  const head = new RecordingHead();
  const startSample = resume ? Math.round(resume.seconds * ASR_SAMPLE_RATE) : 0;
  if (resume) noteResume(task.jobId, resume.seconds);
  const decoded = keepBlocks(decodeBlocks(file, { signal: ctx.signal }), diarizing ? kept : null, head);
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
    const hotwords = params.hotwords.length > 0 ? hotwordsFile(task.workDir, hotwordLines(params.hotwords, config.files.tokens!)) : undefined;
    let recognizer: SherpaOnlineRecognizer;
    try {
      recognizer = getOnlineRecognizer(config, {
        decodingMethod: params.decodingMethod,
        maxActivePaths: params.maxActivePaths,
        blankPenalty: params.blankPenalty,
        hotwordsScore: params.hotwordsScore,
        ...(hotwords ? { hotwordsFile: hotwords } : {}),
      });
    } finally {
      // sherpa-onnx reads the file when the recognizer is made; the job's folder is removed when it holds nothing.
      if (hotwords) rmSync(hotwords, { force: true });
    }
    const offset = startSample / ASR_SAMPLE_RATE;
    const report = (seconds: number): void => onPosition(offset + seconds + 30);
    // A doubtful utterance is decoded again in halves from the audio just heard (streaming-redecode.ts).
    const heard = new HeardAudio();
    for await (const u of streamingUtterances(recognizer, hearing(blocks, heard), { signal: ctx.signal, onPosition: report })) {
      const start = offset + u.start;
      const end = offset + u.end;
      const first = { text: u.text, language: null, words: wordsFromTokens({ tokens: u.tokens, timestamps: u.timestamps, logProbs: u.logProbs }, start, end) };
      const { text, words } = redecodeStreamedIfFlagged(first, u.start, u.end, offset, heard, recognizer, options.guardrails, ctx.log);
      heard.dropBefore(Math.round(u.end * ASR_SAMPLE_RATE) - ASR_SAMPLE_RATE);
      await recognised({ index, start, end, text, ...(words.length > 0 ? { words } : {}) });
    }
  } else {
    const offline = new OfflineRecognition(config, params, resume?.language ?? null, identifying ? ctx.log : null);
    const segments = segmentSpeech(blocks, {
      vadModel: params.vadFilter ? config.vadModel : null,
      vad: { minSilenceSeconds: params.minSilenceSeconds, maxSpeechSeconds: params.chunkSeconds },
      windowSeconds: params.chunkSeconds,
      signal: ctx.signal,
      mergeGapSeconds,
      onPosition,
      startSample,
    });
    for await (const segment of segments) {
      // A segment the guardrails doubt is decoded again in two halves, and the better decode kept (flagged-redecode.ts).
      const recognized = decodeWithRetry((samples, start, end) => offline.recognize(samples, start, end), segment.samples, segment.start, segment.end, options.guardrails, ctx.log);
      const text = params.punctuate && config.punctuation ? punctuate(config.punctuation, recognized.text) : recognized.text;
      const words = text === recognized.text ? recognized.words : punctuatedWords(recognized.words, text);
      const piece: RecognizedSegment = { index, start: segment.start, end: segment.end, text, language: recognized.language };
      if (words.length > 0) piece.words = words;
      // A fixed window's text where the detector hears nobody is marked no_speech (no-speech.ts).
      if (!params.vadFilter && config.vadModel && text.trim() !== '' && isOverSilence(config.vadModel, segment.samples, noSpeechThreshold)) piece.flags = ['no_speech'];
      await recognised(piece);
    }
    // Nothing spoken said which language this is: the recognizer names one for the start of the audio.
    if (options.language === null && params.language === 'auto' && LANGUAGE_AWARE_FAMILIES.includes(config.family) && !resume?.language && !pieces.some((p) => p.language && p.text.trim())) {
      options.language = offline.detect(head.samples());
    }
  }
  let speakers: Pick<TranscriptPlan, 'speakerTurns' | 'speakerNames' | 'voices'> = { speakerTurns: null };
  if (diarizing) {
    ctx.log.info(`diarizing ${duration.toFixed(1)} s`);
    speakers = diarizeAndName(config.diarization!, concatSamples(kept), params, task.knownSpeakers ?? []);
  }
  ctx.progress(1);
  return {
    result: assembleTranscript(pieces, options, speakers.speakerTurns, speakers.speakerNames),
    artifacts: [],
    durationSeconds: duration,
    transcript: { options, ...speakers, segmentCount: index },
  };
}

/**
 * Who spoke when, each speaker's voice (diarization-voices.ts), and the names of the speakers whose voice matches one
 * of the account's profiles (common/speaker-matching.ts; docs/speakers.md).
 */
function diarizeAndName(models: DiarizationModels, samples: Float32Array, params: AsrJobParams, known: readonly KnownSpeaker[]): Pick<TranscriptPlan, 'speakerTurns' | 'speakerNames' | 'voices'> {
  const speakerTurns = diarize(models, samples, params.speakers);
  if (speakerTurns.length === 0) return { speakerTurns };
  const voices = recordingVoices(models.embedding, samples, speakerTurns);
  const matches = matchSpeakers(voices, known, params.speakerMatchThreshold);
  return {
    speakerTurns,
    voices,
    ...(matches.length > 0 ? { speakerNames: Object.fromEntries(matches.map((m) => [m.speaker, m.name])) } : {}),
  };
}

/**
 * The job's params with the account's vocabulary hotwords (EngineInput.vocabularyHotwords, set when the job was
 * accepted) as its `hotwords`, keeping only those this model can spell; the params as given when there are none.
 */
function withVocabularyHotwords(task: EngineTask, config: SherpaAsrEngineConfig, ctx: EngineContext): Record<string, unknown> {
  const wanted = task.input.vocabularyHotwords ?? [];
  if (wanted.length === 0 || !TRANSDUCER_FAMILIES.includes(config.family) || !config.files.tokens) return task.params;
  if ((task.params.hotwords ?? '') !== '' || task.params.decoding_method === 'greedy_search') return task.params;
  const { kept, dropped } = spellable(wanted, config.files.tokens);
  if (dropped.length) ctx.log.info(`vocabulary hotwords this model cannot spell, left out: ${dropped.join(', ')}`);
  return kept.length ? { ...task.params, hotwords: kept.join(', ') } : task.params;
}

/** Hotword lines in a file of the job's own folder, for sherpa-onnx's OnlineRecognizer (it reads them from a file). */
function hotwordsFile(workDir: string, lines: string[]): string {
  const path = join(workDir, 'hotwords.txt');
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: PRIVATE_FILE_MODE });
  return path;
}

/** Offline recognition of one job's segments with its params: the recognizer, hotwords, language and token limit. */
class OfflineRecognition {
  private readonly lock: LanguageLock;
  private readonly hotwords: string | undefined;
  /** A family told its language, with auto: the language identified in the first spoken segment (or resumed with). */
  private identified: string | null;

  constructor(
    private readonly config: SherpaAsrEngineConfig,
    private readonly params: AsrJobParams,
    resumedLanguage: string | null,
    /** Set when the language is to be identified first (the job's log, for what was heard). */
    private readonly identifying: Log | null = null,
  ) {
    const detecting = config.family === 'whisper' && params.language === 'auto' && !params.multilingual;
    this.lock = new LanguageLock(detecting, params.languageDetectionSegments, resumedLanguage, config.languages);
    this.hotwords = params.hotwords.length > 0 ? hotwordLines(params.hotwords, config.files.tokens!).join('/') : undefined;
    this.identified = identifying && resumedLanguage && config.languages.includes(resumedLanguage) ? resumedLanguage : null;
  }

  /**
   * The language of a family told its language, identified once from the first segment's audio: one the model knows,
   * else English (the spec's auto for C-flash), saying what was heard in the job's log.
   */
  private identify(samples: Float32Array): string {
    if (this.identified) return this.identified;
    const heard = identifyLanguage(this.config.languageId!, samples);
    const known = heard !== null && this.config.languages.includes(heard);
    this.identifying!.info(known ? `spoken language identified: ${heard}` : `spoken language identified: ${heard ?? 'none'}, which this model does not know; transcribing as English`);
    this.identified = known ? heard : 'en';
    return this.identified;
  }

  private settings(language: string): RecognizerSettings {
    const p = this.params;
    return {
      language,
      task: p.task,
      useItn: p.useItn,
      decodingMethod: p.decodingMethod,
      maxActivePaths: p.maxActivePaths,
      blankPenalty: p.blankPenalty,
      hotwordsScore: p.hotwordsScore,
      tailPaddings: p.tailPaddings,
      tokenTimestamps: this.config.family === 'whisper' && !withoutTokenTimes.has(this.config.files.decoder!),
    };
  }

  private recognizer(samples: Float32Array): SherpaOfflineRecognizer {
    if (this.identifying) return getRecognizer(this.config, this.settings(this.identify(samples)));
    const aware = LANGUAGE_AWARE_FAMILIES.includes(this.config.family);
    const language = !aware || this.params.language === 'auto' ? (this.lock.language ?? '') : this.params.language;
    return getRecognizer(this.config, this.settings(language));
  }

  recognize(samples: Float32Array, start: number, end: number): { text: string; language: string | null; words: ReturnType<typeof wordsFromTokens> } {
    const result = decodeSegment(this.recognizer(samples), samples, this.hotwords);
    if (this.config.family === 'whisper' && (result.tokens?.length ?? 0) > 0 && (result.timestamps?.length ?? 0) === 0) {
      withoutTokenTimes.add(this.config.files.decoder!);
    }
    const limit = this.params.maxNewTokens;
    const tokens = result.tokens ?? [];
    // Greedy decoding makes the first N tokens the same whether it stops after N or not: max_new_tokens is exact.
    const cut = limit !== null && tokens.length > limit;
    const text = cut ? tokens.slice(0, limit).join('') : result.text;
    const logProbs = result.ys_log_probs?.length ? result.ys_log_probs : undefined;
    const timed = cut
      ? { tokens: tokens.slice(0, limit), timestamps: (result.timestamps ?? []).slice(0, limit), durations: result.durations?.slice(0, limit), logProbs: logProbs?.slice(0, limit) }
      : { tokens, timestamps: result.timestamps ?? [], durations: result.durations, logProbs };
    const language = this.identified ?? languageOf(result.lang);
    this.lock.heardIn(language, text, end - start);
    return { text, language, words: wordsFromTokens(timed, start, end) };
  }

  /** The language the recognizer detects in `samples` (the start of a recording where nothing was spoken). */
  detect(samples: Float32Array): string | null {
    if (samples.length === 0) return null;
    return languageOf(decodeSegment(getRecognizer(this.config, this.settings('')), samples, undefined).lang);
  }
}

function decodeSegment(recognizer: SherpaOfflineRecognizer, samples: Float32Array, hotwords: string | undefined): SherpaOfflineResult {
  try {
    const stream = hotwords === undefined ? recognizer.createStream() : recognizer.createStream(hotwords);
    stream.acceptWaveform({ samples, sampleRate: 16000 });
    recognizer.decode(stream);
    return recognizer.getResult(stream);
  } catch (cause) {
    throw new JobError('engine_failed', `recognition failed: ${(cause as Error).message}`, { cause });
  }
}

async function* keepBlocks(source: AsyncIterable<Float32Array>, into: Float32Array[] | null, head: RecordingHead): AsyncGenerator<Float32Array> {
  for await (const block of source) {
    into?.push(block);
    head.add(block);
    yield block;
  }
}

const factory: EngineFactory = (): Engine => ({ run, dispose: clearRecognizers });
export default factory;

/** The blocks as they come, each kept in `heard` first. */
async function* hearing(blocks: AsyncIterable<Float32Array>, heard: HeardAudio): AsyncGenerator<Float32Array> {
  for await (const block of blocks) {
    heard.push(block);
    yield block;
  }
}
