/**
 * One side recorded through the sound server's own recorder, `parec` (PulseAudio; PipeWire's pipewire-pulse serves
 * it too): 16 kHz mono PCM16 on its stdout, resampled by the server. A device that vanishes (unplugged, the server
 * restarted) ends parec: `ended` reports it with parec's own words, and the capture goes on with that side silent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CAPTURE_SAMPLE_RATE, type CaptureChannel, type PcmSource } from './capture-types.js';

/** parec's buffering: small enough for a live transcript, large enough for a busy machine. Default 100 ms. */
export const PAREC_LATENCY_MS = 100;

export class PulseSource implements PcmSource {
  private child: ChildProcess | null = null;
  private stopped = false;

  constructor(
    readonly channel: CaptureChannel,
    /** The sound server's device name (a source, or a sink's `.monitor`). */
    readonly device: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  start(onFrame: (pcm: Buffer) => void, ended: (reason: string | null) => void): void {
    const args = ['-d', this.device, '--format=s16le', `--rate=${CAPTURE_SAMPLE_RATE}`, '--channels=1', `--latency-msec=${PAREC_LATENCY_MS}`, '--client-name=Voxdesk', `--stream-name=Voxdesk capture (${this.channel})`];
    const child = spawn('parec', args, { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let stderr = '';
    let odd: Buffer | null = null;
    let reported = false;
    const report = (reason: string | null): void => {
      if (reported) return;
      reported = true;
      ended(this.stopped ? null : reason);
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      // Whole samples only: parec may split a sample between two reads.
      let data = odd ? Buffer.concat([odd, chunk]) : chunk;
      odd = null;
      if (data.length % 2 !== 0) {
        odd = data.subarray(data.length - 1);
        data = data.subarray(0, data.length - 1);
      }
      if (data.length > 0 && !this.stopped) onFrame(data);
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('error', (error: NodeJS.ErrnoException) =>
      report(error.code === 'ENOENT' ? 'parec is not installed (install pulseaudio-utils)' : `parec failed: ${error.message}`),
    );
    child.on('close', (code, signal) =>
      report(`the ${this.channel} device ${this.device} stopped recording (parec ${signal ?? `exit ${code}`}${stderr.trim() ? `: ${stderr.trim()}` : ''})`),
    );
  }

  stop(): void {
    this.stopped = true;
    this.child?.kill('SIGTERM');
    this.child = null;
  }
}
