/**
 * The native audio player: 16-bit mono PCM to the default (or a chosen) output device through naudiodon
 * (PortAudio). The ONLY module that imports naudiodon. A small jitter buffer is held before the device starts;
 * audio is then fed only `maxAheadMs` ahead of the playback position (the sound server plays out whatever it was
 * given, even after an abort), so stop() is heard at once; end() pads with silence so the last syllable is heard
 * (the device cuts the last ~2 buffers otherwise). Device problems become typed 'error' events, never exceptions.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { DEFAULT_PLAYER_OPTIONS, PLAYER_FEED_INTERVAL_MS, PlayerError, type Player, type PlayerOptions } from './player-types.js';

interface IoStreamWrite extends Writable {
  start(): void;
  quit(callback?: () => void): void;
  abort(callback?: () => void): void;
}
interface Naudiodon {
  SampleFormat16Bit: 16;
  getDevices(): { id: number; name: string; maxOutputChannels: number }[];
  AudioIO(options: { outOptions: Record<string, unknown> }): IoStreamWrite;
}

let naudiodon: Naudiodon | undefined;
function loadNaudiodon(): Naudiodon {
  naudiodon ??= createRequire(import.meta.url)('naudiodon') as Naudiodon;
  return naudiodon;
}

/** Output devices PortAudio sees (for a device picker). Throws PlayerError when naudiodon cannot load. */
export function listOutputDevices(): { id: number; name: string }[] {
  try {
    return loadNaudiodon()
      .getDevices()
      .filter((d) => d.maxOutputChannels > 0)
      .map((d) => ({ id: d.id, name: d.name }));
  } catch (cause) {
    throw new PlayerError('audio_unavailable', `audio output is unavailable: ${String(cause)}`, { cause });
  }
}

class NativePlayer extends EventEmitter implements Player {
  readonly sampleRate: number;
  private readonly options: Required<PlayerOptions>;
  private stream: IoStreamWrite | null = null;
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private started = false;
  private finished = false;
  private ending = false;
  private streamEnded = false;
  private wantDrain = false;
  /** Samples handed to the device, and when the device position was last known to be `baseSamples`. */
  private fedSamples = 0;
  private baseSamples = 0;
  private baseTime = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(options: PlayerOptions) {
    super();
    this.options = { ...DEFAULT_PLAYER_OPTIONS, ...options };
    this.sampleRate = options.sampleRate;
    try {
      if (!Number.isInteger(options.sampleRate) || options.sampleRate < 8000 || options.sampleRate > 192_000) {
        throw new PlayerError('invalid_audio', `sampleRate must be an integer 8000–192000 (got ${options.sampleRate})`);
      }
      this.open();
    } catch (error) {
      this.fail(error instanceof PlayerError ? error : new PlayerError('device_unavailable', `cannot open the audio device: ${String(error)}`, { cause: error }));
    }
  }

  private open(): void {
    let lib: Naudiodon;
    try {
      lib = loadNaudiodon();
    } catch (cause) {
      throw new PlayerError('audio_unavailable', `audio output is unavailable (naudiodon): ${String(cause)}`, { cause });
    }
    const { deviceId, framesPerBuffer, sampleRate } = this.options;
    if (deviceId !== -1 && !lib.getDevices().some((d) => d.id === deviceId && d.maxOutputChannels > 0)) {
      throw new PlayerError('device_unavailable', `no output device with id ${deviceId}`);
    }
    const stream = lib.AudioIO({
      outOptions: { channelCount: 1, sampleFormat: lib.SampleFormat16Bit, sampleRate, deviceId, framesPerBuffer, closeOnError: false },
    });
    // naudiodon logs every stream error itself; ours are reported as typed events.
    stream.removeAllListeners('error');
    stream.on('error', (error: unknown) => this.fail(new PlayerError('device_error', `the audio device failed: ${String(error)}`, { cause: error })));
    stream.on('finished', () => this.finish(false));
    this.stream = stream;
  }

  private ms(ms: number): number {
    return Math.round((this.sampleRate * ms) / 1000) * 2;
  }

  write(pcm: Int16Array | Buffer): boolean {
    if (this.finished || this.ending || !this.stream) return false;
    const bytes = Buffer.isBuffer(pcm) ? pcm : Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    if (bytes.length % 2 !== 0) {
      this.fail(new PlayerError('invalid_audio', 'PCM16 data must have an even number of bytes'));
      return false;
    }
    this.queue.push(Buffer.from(bytes));
    this.queuedBytes += bytes.length;
    if (!this.started && this.queuedBytes >= this.ms(this.options.jitterMs)) this.startDevice();
    else if (this.started) this.feed();
    const ok = this.queuedBytes < this.ms(this.options.queueHighMs);
    if (!ok) this.wantDrain = true;
    return ok;
  }

  end(): void {
    if (this.finished || this.ending || !this.stream) return;
    this.ending = true;
    const pad = Buffer.alloc(this.options.padBuffers * this.options.framesPerBuffer * 2);
    this.queue.push(pad);
    this.queuedBytes += pad.length;
    if (!this.started) this.startDevice();
    else this.feed();
  }

  stop(): void {
    if (this.finished) return;
    const stream = this.stream;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.finish(true);
    if (stream) {
      try {
        stream.abort();
      } catch {
        // The device is gone already: nothing left to stop.
      }
    }
  }

  private startDevice(): void {
    this.started = true;
    try {
      this.stream!.start();
    } catch (error) {
      this.fail(new PlayerError('device_error', `the audio device did not start: ${String(error)}`, { cause: error }));
      return;
    }
    this.baseTime = performance.now();
    this.emit('started');
    this.feed();
  }

  /** Hands the device audio up to maxAheadMs ahead of where it is playing. */
  private feed(): void {
    if (this.finished || !this.stream) return;
    const now = performance.now();
    let played = this.baseSamples + ((now - this.baseTime) * this.sampleRate) / 1000;
    if (played > this.fedSamples) {
      // The device ran dry (a gap in the stream): it resumes from what is fed next.
      this.baseSamples = this.fedSamples;
      this.baseTime = now;
      played = this.fedSamples;
    }
    const aheadLimit = played + (this.options.maxAheadMs * this.sampleRate) / 1000;
    while (this.queue.length > 0 && this.fedSamples < aheadLimit) {
      const chunk = this.queue.shift()!;
      this.queuedBytes -= chunk.length;
      this.fedSamples += chunk.length / 2;
      this.stream.write(chunk);
    }
    if (this.wantDrain && this.queuedBytes < this.ms(this.options.queueHighMs)) {
      this.wantDrain = false;
      this.emit('drain');
    }
    if (this.queue.length === 0 && this.ending && !this.streamEnded) {
      this.streamEnded = true;
      this.stream.end();
    }
    if (this.queue.length > 0 && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.feed();
      }, PLAYER_FEED_INTERVAL_MS);
    }
  }

  private finish(stopped: boolean): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.emit('ended', { stopped });
  }

  private fail(error: PlayerError): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    const stream = this.stream;
    this.stream = null;
    // Listeners attached right after createPlayer() must still hear an error raised in the constructor.
    process.nextTick(() => {
      if (this.listenerCount('error') > 0) this.emit('error', error);
      this.emit('ended', { stopped: true });
    });
    try {
      stream?.abort();
    } catch {
      // Already broken.
    }
  }
}

/** Opens the output device. Never throws: problems arrive as an 'error' event (PlayerError with a code). */
export function createPlayer(options: PlayerOptions): Player {
  return new NativePlayer(options);
}
