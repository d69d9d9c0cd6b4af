/**
 * Speech to text with Debian's PocketSphinx (`pocketsphinx_continuous`, US English). The decoded 16 kHz stream is
 * piped into the program as raw PCM16 (constant memory on any length); PocketSphinx finds utterances itself and
 * prints words with times. Progress follows the audio fed; cancelling kills the program.
 *
 * Each utterance is a checkpoint (ctx.segment), resumable after the silence that closed it. A resumed run feeds the
 * program the audio from there on; PocketSphinx adapts its feature normalisation (CMN) to the audio it has heard, so
 * the utterances after a resume point can differ a little from an uninterrupted run's (unlike the sherpa-onnx engine,
 * whose segmentation is exactly resumable). Committed utterances are never recognised again.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, createWriteStream, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Engine, EngineContext, EngineFactory, EngineOutput, EngineTask } from '../engine-types.js';
import { JobError } from '../../common/errors.js';
import { ASR_SAMPLE_RATE, decodeBlocks } from '../audio/decode.js';
import { floatToS16le } from '../audio/pcm.js';
import { probeDuration } from '../audio/probe.js';
import { skipSamples } from '../audio/skip-samples.js';
import type { RecognizedSegment, ResumePoint } from '../engine-types.js';
import { readAsrParams } from './asr-params.js';
import { findPocketsphinx, POCKETSPHINX_MISSING, type PocketsphinxInstall } from './pocketsphinx-install.js';
import { PocketsphinxOutputParser, type SphinxUtterance } from './pocketsphinx-output.js';
import { noteRecognised, noteResume } from './recognition-probe.js';
import { assembleTranscript } from './transcript-assembly.js';
import type { TranscriptOptions } from './transcript.js';

/** Looked up again in the worker: the package may have been removed since the catalogue row was built. */
function currentInstall(): PocketsphinxInstall {
  const found = findPocketsphinx();
  if (!found) throw new JobError('model_unavailable', POCKETSPHINX_MISSING);
  return found;
}

async function run(task: EngineTask, ctx: EngineContext): Promise<EngineOutput> {
  const file = task.input.filePath;
  if (!file) throw new JobError('invalid_params', 'speech to text needs an audio file');
  const params = readAsrParams(task.params, { languages: ['en'], wordTimings: true, translate: false, diarization: false });
  const install = currentInstall();
  const duration = await probeDuration(file, { signal: ctx.signal });
  ctx.measured(duration);
  const options: TranscriptOptions = { duration, language: 'en', responseFormat: params.responseFormat, granularity: params.granularity };
  const resume = task.resumeAfter ?? null;
  const pieces = duration === 0 ? [] : await recognize(install, file, duration, resume, task.jobId, ctx);
  ctx.progress(1);
  const segmentCount = pieces.length > 0 ? pieces[pieces.length - 1]!.index + 1 : resume ? resume.index + 1 : 0;
  return { result: assembleTranscript(pieces, options, null), artifacts: [], durationSeconds: duration, transcript: { options, speakerTurns: null, segmentCount } };
}

/** Numbers this run's utterances after the checkpoint, moves their times by the audio skipped, and reports each. */
function utteranceReporter(resume: ResumePoint | null, duration: number, jobId: string, ctx: EngineContext) {
  const offset = resume?.seconds ?? 0;
  let index = resume ? resume.index + 1 : 0;
  const pieces: RecognizedSegment[] = [];
  return {
    pieces,
    add(utterance: SphinxUtterance): void {
      const piece: RecognizedSegment = {
        index: index++,
        start: utterance.start + offset,
        end: utterance.end + offset,
        text: utterance.text,
        resumeAt: utterance.until + offset,
      };
      if (utterance.words?.length) piece.words = utterance.words.map((w) => ({ ...w, start: w.start + offset, end: w.end + offset }));
      noteRecognised(jobId, piece.index, piece.start, piece.end);
      pieces.push(piece);
      ctx.segment?.(piece, Math.min(0.95, (piece.end / duration) * 0.95));
    },
  };
}

/**
 * The program opens its -infile by name: Node's child stdin is a socket, which it cannot open, so the samples go
 * through a named pipe in a temp dir.
 */
async function recognize(install: PocketsphinxInstall, file: string, duration: number, resume: ResumePoint | null, jobId: string, ctx: EngineContext) {
  const dir = await mkdtemp(join(tmpdir(), 'voxdesk-sphinx-'));
  const fifo = join(dir, 'audio.raw');
  try {
    execFileSync('mkfifo', [fifo]);
    const reporter = utteranceReporter(resume, duration, jobId, ctx);
    if (resume) noteResume(jobId, resume.seconds);
    await recognizeThrough(fifo, install, file, duration, resume?.seconds ?? 0, reporter.add, ctx);
    return reporter.pieces;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function recognizeThrough(
  fifo: string,
  install: PocketsphinxInstall,
  file: string,
  duration: number,
  fromSeconds: number,
  onUtterance: (utterance: SphinxUtterance) => void,
  ctx: EngineContext,
): Promise<void> {
  const args = ['-infile', fifo, '-time', 'yes', '-hmm', install.hmm, '-lm', install.lm, '-dict', install.dict];
  const child = spawn(install.program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const input = createWriteStream(fifo);
  let stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderrTail = (stderrTail + text).slice(-2000);
  });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  const parser = new PocketsphinxOutputParser();
  const reported = new Set<SphinxUtterance>();
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    const utterance = parser.line(line);
    if (utterance) {
      reported.add(utterance);
      onUtterance(utterance);
    }
  });
  const linesDone = new Promise<void>((resolve) => lines.once('close', resolve));
  const onAbort = (): void => void child.kill('SIGKILL');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  input.on('error', () => undefined); // EPIPE when the program dies: reported through its exit below
  try {
    let fed = fromSeconds;
    const blocks = decodeBlocks(file, { signal: ctx.signal, blockSamples: ASR_SAMPLE_RATE });
    for await (const block of skipSamples(blocks, Math.round(fromSeconds * ASR_SAMPLE_RATE))) {
      if (child.exitCode !== null || input.destroyed) break;
      if (!input.write(floatToS16le(block))) {
        await Promise.race([new Promise<void>((resolve) => input.once('drain', () => resolve())), exited]);
      }
      fed += block.length / ASR_SAMPLE_RATE;
      // What was fed is recognised shortly after; the last stretch is waited for below.
      ctx.progress(Math.min(0.95, (fed / duration) * 0.95));
    }
    input.end();
    const { code, error } = await exited;
    await linesDone;
    if (ctx.signal.aborted) throw new JobError('cancelled', 'the job was cancelled');
    if (error) throw new JobError('engine_failed', `PocketSphinx could not be started: ${error.message}`, { cause: error });
    if (code !== 0) {
      const detail = stderrTail.split('\n').filter((l) => /ERROR|FATAL/.test(l)).slice(-2).join(' ');
      throw new JobError('engine_failed', `PocketSphinx failed (exit ${code})${detail ? `: ${detail}` : ''}`);
    }
    const last = parser.finish();
    // An utterance the stream ended in the middle of has no `</s>`: finish() closes it.
    const cut = last[last.length - 1];
    if (cut && !reported.has(cut)) onUtterance(cut);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    // A program that died before opening the pipe leaves our open() blocked in a libuv thread: open the reading
    // end ourselves (non-blocking) to release it.
    if (input.pending) {
      try {
        closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
      } catch {
        // already released
      }
    }
    input.destroy();
  }
}

const factory: EngineFactory = (): Engine => ({ run });
export default factory;
