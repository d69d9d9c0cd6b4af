/**
 * Speech to text with Debian's PocketSphinx (`pocketsphinx_continuous`, US English). The decoded 16 kHz stream is
 * piped into the program as raw PCM16 (constant memory on any length); PocketSphinx finds utterances itself and
 * prints words with times. Progress follows the audio fed; cancelling kills the program.
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
import { readAsrParams } from './asr-params.js';
import { findPocketsphinx, POCKETSPHINX_MISSING, type PocketsphinxInstall } from './pocketsphinx-install.js';
import { PocketsphinxOutputParser } from './pocketsphinx-output.js';
import { buildTranscript, type TranscriptOptions } from './transcript.js';

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
  if (duration === 0) return { result: buildTranscript([], options), artifacts: [], durationSeconds: 0 };
  const pieces = await recognize(install, file, duration, ctx);
  ctx.progress(1);
  return { result: buildTranscript(pieces, options), artifacts: [], durationSeconds: duration };
}

/**
 * The program opens its -infile by name: Node's child stdin is a socket, which it cannot open, so the samples go
 * through a named pipe in a temp dir.
 */
async function recognize(install: PocketsphinxInstall, file: string, duration: number, ctx: EngineContext) {
  const dir = await mkdtemp(join(tmpdir(), 'voxdesk-sphinx-'));
  const fifo = join(dir, 'audio.raw');
  try {
    execFileSync('mkfifo', [fifo]);
    return await recognizeThrough(fifo, install, file, duration, ctx);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function recognizeThrough(fifo: string, install: PocketsphinxInstall, file: string, duration: number, ctx: EngineContext) {
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
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => parser.line(line));
  const linesDone = new Promise<void>((resolve) => lines.once('close', resolve));
  const onAbort = (): void => void child.kill('SIGKILL');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  input.on('error', () => undefined); // EPIPE when the program dies: reported through its exit below
  try {
    let fed = 0;
    for await (const block of decodeBlocks(file, { signal: ctx.signal, blockSamples: ASR_SAMPLE_RATE })) {
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
    return parser.finish();
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
