/**
 * Speech to text with Debian's PocketSphinx (US English), kept warm: the engine loads one decoder the first time it is
 * used in a worker process (pocketsphinx-stream-decoder.ts, libpocketsphinx through FFI) and every later job of that
 * worker reuses it — the command-line program `pocketsphinx_continuous` this engine ran before loaded the model again
 * for every job (0.7–1 s of CPU). The recording is streamed (constant memory on any length) to the decoder as it is
 * read: a plain 16 kHz mono PCM16 WAV straight from disk, anything else decoded by ffmpeg. PocketSphinx finds the
 * utterances itself, exactly as the program did, and gives words with times. Progress follows the audio fed; cancelling stops
 * between blocks of a second.
 *
 * Each utterance is a checkpoint (ctx.segment), resumable after the silence that closed it. A resumed run feeds the
 * decoder the audio from there on, its feature normalisation (CMN) starting afresh as in a new run, so the utterances
 * after a resume point can differ a little from an uninterrupted run's (unlike the sherpa-onnx engine, whose
 * segmentation is exactly resumable). Committed utterances are never recognised again. A native crash ends the
 * worker process; the job engine then runs the job again on a fresh worker from its last committed utterance.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Engine, EngineContext, EngineFactory, EngineOutput, EngineTask } from '../engine-types.js';
import { jobCancelled, JobError } from '../../common/errors.js';
import { ASR_SAMPLE_RATE, decodeBlocks } from '../audio/decode.js';
import { pcm16WavBlocks, plainPcm16Wav } from '../audio/wav-pcm16.js';
import { probeDuration } from '../audio/probe.js';
import { skipSamples } from '../audio/skip-samples.js';
import type { RecognizedSegment, ResumePoint } from '../engine-types.js';
import { readAsrParams } from './asr-params.js';
import { findPocketsphinx, POCKETSPHINX_MISSING, type PocketsphinxInstall } from './pocketsphinx-install.js';
import type { SphinxUtterance } from './pocketsphinx-output.js';
import { PocketsphinxStreamDecoder } from './pocketsphinx-stream-decoder.js';
import { noteRecognised, noteResume } from './recognition-probe.js';
import { HeardAudio } from './heard-audio.js';
import { redecodeIfFlagged } from './pocketsphinx-redecode.js';
import { assembleTranscript } from './transcript-assembly.js';
import type { TranscriptOptions } from './transcript.js';
import { inputFile } from '../audio/input-file.js';
import { existsSync } from 'node:fs';
import { punctuate, punctuatedWords } from './punctuation.js';
import { floatToInt16 } from '../audio/pcm.js';

/** Looked up again in the worker: the package may have been removed since the catalogue row was built. */
function currentInstall(): PocketsphinxInstall {
  const found = findPocketsphinx();
  if (!found) throw new JobError('model_unavailable', POCKETSPHINX_MISSING);
  return found;
}

/** The engine's decoder, loaded on first use and kept; loaded again only if the installed model moved. */
class WarmDecoder {
  private decoder: PocketsphinxStreamDecoder | null = null;
  /** A second decoder for doubtful utterances (pocketsphinx-redecode.ts), loaded on the first one. */
  private retryDecoder: PocketsphinxStreamDecoder | null = null;
  private key = '';

  get(install: PocketsphinxInstall): PocketsphinxStreamDecoder {
    const key = `${install.hmm}\n${install.lm}\n${install.dict}`;
    if (!this.decoder || key !== this.key) {
      this.dispose();
      this.decoder = new PocketsphinxStreamDecoder(install);
      this.key = key;
    }
    return this.decoder;
  }

  retry(install: PocketsphinxInstall): PocketsphinxStreamDecoder {
    this.get(install);
    this.retryDecoder ??= new PocketsphinxStreamDecoder(install);
    return this.retryDecoder;
  }

  dispose(): void {
    this.decoder?.dispose();
    this.decoder = null;
    this.retryDecoder?.dispose();
    this.retryDecoder = null;
  }
}

async function run(warm: WarmDecoder, task: EngineTask, ctx: EngineContext): Promise<EngineOutput> {
  const file = await inputFile(task.input, () => new JobError('invalid_params', 'speech to text needs an audio file'));
  // The punctuation model (engines/asr/punctuation.ts), when the catalogue row had it and it is still there.
  const punctuation = typeof task.engineConfig.punctuation === 'string' && existsSync(task.engineConfig.punctuation) ? task.engineConfig.punctuation : null;
  const params = readAsrParams(task.params, { languages: ['en'], translate: false, diarization: false, vad: false, transducer: false, punctuation: punctuation !== null });
  const install = currentInstall();
  const resume = task.resumeAfter ?? null;
  const { duration, first, blocks } = await openAudio(file, Math.round((resume?.seconds ?? 0) * ASR_SAMPLE_RATE), ctx.signal);
  ctx.measured(duration);
  const options: TranscriptOptions = { duration, language: 'en', responseFormat: params.responseFormat, granularity: params.granularity };
  let pieces: RecognizedSegment[] = [];
  const marks = params.punctuate && punctuation ? punctuation : null;
  if (duration > 0) pieces = await recognize({ stream: () => warm.get(install), retry: () => warm.retry(install) }, first, blocks, duration, resume, task.jobId, ctx, marks);
  else closeAfter(first, blocks);
  ctx.progress(1);
  const segmentCount = pieces.length > 0 ? pieces[pieces.length - 1]!.index + 1 : resume ? resume.index + 1 : 0;
  return { result: assembleTranscript(pieces, options, null), artifacts: [], durationSeconds: duration, transcript: { options, speakerTurns: null, segmentCount } };
}

interface OpenedAudio {
  duration: number;
  /** The first block, already asked for. */
  first: Promise<IteratorResult<Int16Array>>;
  blocks: AsyncGenerator<Int16Array>;
}

/**
 * The recording's length and its samples (16 kHz PCM16) from `fromSample` on, in blocks of a second. A plain PCM16
 * mono 16 kHz WAV is read from disk as it is; anything else is decoded by ffmpeg, which starts while ffprobe
 * measures the file (its start-up is then off the job's critical path).
 */
async function openAudio(file: string, fromSample: number, signal: AbortSignal): Promise<OpenedAudio> {
  const wav = await plainPcm16Wav(file, ASR_SAMPLE_RATE);
  const blocks = wav
    ? pcm16WavBlocks(file, wav, fromSample, ASR_SAMPLE_RATE)
    : toPcm16(skipSamples(decodeBlocks(file, { signal, blockSamples: ASR_SAMPLE_RATE }), fromSample));
  const first = blocks.next();
  // Awaited by recognize(); until then (or if the decoder cannot load, or the probe fails first) not unhandled.
  first.catch(() => undefined);
  if (wav) return { duration: wav.samples / ASR_SAMPLE_RATE, first, blocks };
  try {
    return { duration: await probeDuration(file, { signal }), first, blocks };
  } catch (error) {
    closeAfter(first, blocks);
    throw error;
  }
}

async function* toPcm16(blocks: AsyncIterable<Float32Array>): AsyncGenerator<Int16Array> {
  for await (const block of blocks) yield floatToInt16(block);
}

/** Closes a generator once its pending first block has settled (its decoder process ends). */
function closeAfter(first: Promise<unknown>, blocks: AsyncGenerator<unknown>): void {
  void first.then(
    () => blocks.return(undefined),
    () => blocks.return(undefined),
  ).catch(() => undefined);
}

/** Numbers this run's utterances after the checkpoint, moves their times by the audio skipped, and reports each. */
function utteranceReporter(resume: ResumePoint | null, duration: number, jobId: string, ctx: EngineContext, punctuation: string | null) {
  const offset = resume?.seconds ?? 0;
  let index = resume ? resume.index + 1 : 0;
  const pieces: RecognizedSegment[] = [];
  return {
    pieces,
    add(utterance: SphinxUtterance): void {
      const text = punctuation ? punctuate(punctuation, utterance.text) : utterance.text;
      const piece: RecognizedSegment = {
        index: index++,
        start: utterance.start + offset,
        end: utterance.end + offset,
        text,
        resumeAt: utterance.until + offset,
      };
      if (utterance.words?.length) {
        const words = utterance.words.map((w) => ({ ...w, start: w.start + offset, end: w.end + offset }));
        piece.words = text === utterance.text ? words : punctuatedWords(words, text);
      }
      noteRecognised(jobId, piece.index, piece.start, piece.end);
      pieces.push(piece);
      ctx.segment?.(piece, Math.min(0.95, (piece.end / duration) * 0.95));
    },
  };
}

/** Feeds the decoded blocks to the warm decoder as they arrive; the blocks' iterator is always closed. */
async function recognize(
  decoders: { stream: () => PocketsphinxStreamDecoder; retry: () => PocketsphinxStreamDecoder },
  first: Promise<IteratorResult<Int16Array>>,
  blocks: AsyncGenerator<Int16Array>,
  duration: number,
  resume: ResumePoint | null,
  jobId: string,
  ctx: EngineContext,
  punctuation: string | null,
): Promise<RecognizedSegment[]> {
  const reporter = utteranceReporter(resume, duration, jobId, ctx, punctuation);
  if (resume) noteResume(jobId, resume.seconds);
  let fed = resume?.seconds ?? 0;
  // A doubtful utterance is decoded again in two halves from the audio just heard (pocketsphinx-redecode.ts).
  const heard = new HeardAudio();
  const checked = (utterance: SphinxUtterance): SphinxUtterance => {
    const kept = redecodeIfFlagged(utterance, heard, decoders.retry, undefined, ctx.log);
    heard.dropBefore(Math.round(utterance.until * ASR_SAMPLE_RATE));
    return kept;
  };
  try {
    const decoder = decoders.stream();
    decoder.begin();
    for (let next = await first; !next.done; next = await blocks.next()) {
      if (ctx.signal.aborted) throw jobCancelled();
      heard.push(next.value);
      for (const utterance of decoder.feed(next.value)) reporter.add(checked(utterance));
      fed += next.value.length / ASR_SAMPLE_RATE;
      // What was fed is recognised; the utterance it ends in is closed by finish().
      ctx.progress(Math.min(0.95, (fed / duration) * 0.95));
      // Recognition is synchronous: let messages in (a cancel) between blocks.
      await nextTurn();
    }
    if (ctx.signal.aborted) throw jobCancelled();
    const last = decoder.finish();
    if (last) reporter.add(checked(last));
    return reporter.pieces;
  } finally {
    await blocks.return(undefined).catch(() => undefined);
  }
}

const factory: EngineFactory = (): Engine => {
  const warm = new WarmDecoder();
  return {
    run: (task, ctx) => run(warm, task, ctx),
    warm() {
      // The model loads here, ahead of the first job; a short silence pages in the search.
      const decoder = warm.get(currentInstall());
      decoder.begin();
      decoder.feed(new Int16Array(ASR_SAMPLE_RATE / 4));
      decoder.finish();
    },
    dispose: () => warm.dispose(),
  };
};
export default factory;
