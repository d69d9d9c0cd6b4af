/**
 * A private PulseAudio server with a null sink (docs/design.md §7), and a recorder of what the sink plays. Missing
 * packages fail with a clear message (never a skip).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { startPrivatePulse } from '../helpers/private-pulse.js';
import { requireCommand } from '../helpers/system.js';

export const REC_RATE = 48000;

export interface Pulse {
  env: NodeJS.ProcessEnv;
  record(): Recorder;
  stop(): void;
}

export interface Recorder {
  /** performance.now() when the first recorded bytes arrived. */
  firstDataAt(): Promise<number>;
  /** What was recorded so far, without stopping: a test waits on it for the sound server to catch up. */
  peek(): Float32Array;
  stop(): Promise<Float32Array>;
}

function toFloat(all: Buffer): Float32Array {
  const out = new Float32Array(all.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = all.readInt16LE(i * 2) / 32768;
  return out;
}

export function startPulse(): Pulse {
  const parec = requireCommand('parec', 'pulseaudio-utils');
  const pulse = startPrivatePulse('voxdesk-pulse-', ['module-null-sink sink_name=vsink rate=48000']);
  const { env } = pulse;
  pulse.pactl('set-default-sink', 'vsink');
  return {
    env,
    record() {
      const child: ChildProcess = spawn(parec, ['-d', 'vsink.monitor', '--format=s16le', `--rate=${REC_RATE}`, '--channels=1', '--latency-msec=10'], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const chunks: Buffer[] = [];
      let resolveFirst!: (t: number) => void;
      const first = new Promise<number>((r) => (resolveFirst = r));
      child.stdout!.on('data', (c: Buffer) => {
        if (chunks.length === 0) resolveFirst(performance.now());
        chunks.push(c);
      });
      return {
        firstDataAt: () => first,
        peek: () => toFloat(Buffer.concat(chunks)),
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', () => resolve(toFloat(Buffer.concat(chunks))));
            child.kill('SIGTERM');
          }),
      };
    },
    stop: () => pulse.stop(),
  };
}

/** First and last sample louder than the threshold, or null for silence. */
export function audibleSpan(x: Float32Array, threshold = 0.02): { first: number; last: number } | null {
  let first = -1;
  let last = -1;
  for (let i = 0; i < x.length; i++) {
    if (Math.abs(x[i]!) > threshold) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return first < 0 ? null : { first, last };
}

/**
 * Seconds of sound in `x`: the number of 10 ms windows with a sample above `threshold`, in seconds. Unlike the
 * audible span it does not grow when a loaded machine makes the device underrun (a gap of silence inside the sound)
 * and it still shrinks when the end of the sound is cut, which is what the player tests are about.
 */
export function audibleSeconds(x: Float32Array, rate: number, threshold = 0.02): number {
  const window = Math.round(rate / 100);
  let loud = 0;
  for (let from = 0; from < x.length; from += window) {
    const to = Math.min(x.length, from + window);
    for (let i = from; i < to; i++) {
      if (Math.abs(x[i]!) > threshold) {
        loud++;
        break;
      }
    }
  }
  return loud / 100;
}

/** RMS over the 10 ms windows of `x` that hold sound (audibleSeconds' windows): the level, gaps left out. */
export function audibleRms(x: Float32Array, rate: number, threshold = 0.02): number {
  const window = Math.round(rate / 100);
  let sum = 0;
  let count = 0;
  for (let from = 0; from < x.length; from += window) {
    const to = Math.min(x.length, from + window);
    let loud = false;
    for (let i = from; i < to && !loud; i++) loud = Math.abs(x[i]!) > threshold;
    if (!loud) continue;
    for (let i = from; i < to; i++) sum += x[i]! * x[i]!;
    count += to - from;
  }
  return Math.sqrt(sum / Math.max(1, count));
}

export function rms(x: Float32Array, from: number, to: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s / Math.max(1, to - from));
}
