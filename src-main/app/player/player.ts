/**
 * The native audio player: 16-bit mono PCM to the default (or a chosen) output device through naudiodon
 * (PortAudio). The ONLY module that imports naudiodon. An adaptive jitter buffer (adaptive-jitter.ts) is held
 * before the device starts: small at first, larger after an underrun, when the player also holds the audio again
 * until the new target is queued (nothing is ever dropped). Audio is then fed only `maxAheadMs` ahead of the
 * playback position (the sound server plays out whatever it was given), so stop() is heard at once; end() pads with
 * silence so the last syllable is heard (the device cuts the last ~2 buffers otherwise). Device problems become
 * typed 'error' events, never exceptions.
 *
 * Opening a device costs 30–100 ms while PortAudio is not initialised (Pa_Initialize probes every ALSA device,
 * JACK included) and ~3–10 ms while another stream keeps it initialised: the live playback therefore opens its next
 * player ahead of time (live-playback.ts).
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { AdaptiveJitter } from './adaptive-jitter.js';
import { DEFAULT_PLAYER_OPTIONS, PLAYER_FEED_INTERVAL_MS, PlayerError, type Player, type PlayerOptions } from './player-types.js';

interface IoStreamWrite extends Writable {
  start(): void;
  /**
   * Ends the stream at once: the native queue stops, the chunk being played finishes, the device is closed and
   * PortAudio released. (naudiodon 2.3.6's abort() always throws "AudioIO Quit expects 1 argument" — it passes a
   * callback the native quit does not take — so it must not be used.)
   */
  quit(callback?: () => void): Promise<void>;
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

/**
 * With less than this much audio left at the device and no whole device buffer to give it, the device is about to
 * run dry: it gets a buffer of silence (two feed intervals, so a timer running a little late is still in time).
 */
const STARVING_MS = 2 * PLAYER_FEED_INTERVAL_MS;

class NativePlayer extends EventEmitter implements Player {
  readonly sampleRate: number;
  private readonly options: Required<Omit<PlayerOptions, 'jitter'>>;
  private readonly jitter: AdaptiveJitter;
  /** Holding audio until the jitter target is queued: before the start, and again after an underrun. */
  private buffering = true;
  /** fedSamples at the last underrun (or 0): what was fed after it played cleanly. */
  private cleanFrom = 0;
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
    const { jitter, ...rest } = options;
    this.options = { ...DEFAULT_PLAYER_OPTIONS, ...rest };
    this.sampleRate = options.sampleRate;
    this.jitter = jitter ?? new AdaptiveJitter({ startMs: this.options.jitterMs, maxMs: Math.max(400, this.options.jitterMs) });
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

  /** Audio to hold before starting or resuming: the jitter target, and at least one device buffer. */
  private holdBytes(): number {
    return Math.max(this.ms(this.jitter.targetMs), this.options.framesPerBuffer * 2);
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
    if (!this.started) {
      if (this.queuedBytes >= this.holdBytes()) this.startDevice();
    } else this.feed();
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
    if (stream) close(stream);
  }

  /**
   * The first audio is handed over before the device starts: Pa_StartStream blocks this thread for 1–50 ms on a
   * busy machine (PulseAudio round trips), and a device started first would wait that long for its first chunk.
   */
  private startDevice(): void {
    this.started = true;
    this.buffering = false;
    this.baseTime = performance.now();
    this.feed();
    if (this.finished) return;
    try {
      this.stream!.start();
    } catch (error) {
      this.fail(new PlayerError('device_error', `the audio device did not start: ${String(error)}`, { cause: error }));
      return;
    }
    // The clock of the playback position starts when the device does (Pa_StartStream may have taken a while).
    this.baseTime = performance.now();
    this.emit('started');
  }

  /**
   * Hands the device audio up to maxAheadMs ahead of where it is playing, in whole device buffers: naudiodon's device
   * callback waits, mid-buffer, for the rest of a buffer it was given only part of, and the device then runs dry and
   * drops samples as it recovers. So a partial buffer waits for more audio, or for end(). When the device is about to
   * run dry while more audio is to come (an underrun: the source fell behind real time), it is given a buffer of
   * silence instead, and the audio is held until the jitter buffer's new, larger target is queued; nothing is dropped.
   */
  private feed(): void {
    if (this.finished || !this.stream) return;
    const now = performance.now();
    const period = this.options.framesPerBuffer;
    let played = this.baseSamples + ((now - this.baseTime) * this.sampleRate) / 1000;
    if (this.fedSamples > 0 && played > this.fedSamples) {
      // Ran dry all the same (this thread was held up longer than the cushion): it resumes from what is fed next.
      this.baseSamples = this.fedSamples;
      this.baseTime = now;
      played = this.fedSamples;
      if (!this.ending && !this.buffering) this.underrun();
    }
    if (this.buffering && (this.ending || this.queuedBytes >= this.holdBytes())) this.buffering = false;
    const aheadLimit = played + (this.options.maxAheadMs * this.sampleRate) / 1000;
    while (!this.buffering && this.fedSamples < aheadLimit) {
      const bytes = this.ending ? Math.min(this.queuedBytes, period * 2) : this.queuedBytes >= period * 2 ? period * 2 : 0;
      if (bytes === 0) break;
      this.hand(this.take(bytes));
    }
    if (!this.ending && this.fedSamples - played < (STARVING_MS * this.sampleRate) / 1000) {
      if (!this.buffering) this.underrun();
      this.hand(Buffer.alloc(period * 2));
    }
    if (this.wantDrain && this.queuedBytes < this.ms(this.options.queueHighMs)) {
      this.wantDrain = false;
      this.emit('drain');
    }
    if (this.queue.length === 0 && this.ending && !this.streamEnded) {
      this.streamEnded = true;
      this.stream.end();
    }
    // While playing, the device is watched even with nothing queued (to notice in time that it is running dry).
    if (!this.timer && !this.streamEnded) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.feed();
      }, PLAYER_FEED_INTERVAL_MS);
    }
  }

  private underrun(): void {
    this.jitter.playedCleanly(((this.fedSamples - this.cleanFrom) * 1000) / this.sampleRate);
    this.cleanFrom = this.fedSamples;
    this.jitter.underrun();
    this.buffering = true;
    this.emit('underrun', { targetMs: this.jitter.targetMs });
  }

  private hand(chunk: Buffer): void {
    this.fedSamples += chunk.length / 2;
    this.stream!.write(chunk);
  }

  /** The first `bytes` of the queue (bytes ≤ queuedBytes). */
  private take(bytes: number): Buffer {
    const parts: Buffer[] = [];
    let need = bytes;
    while (need > 0) {
      const head = this.queue[0]!;
      if (head.length <= need) {
        parts.push(this.queue.shift()!);
        need -= head.length;
      } else {
        parts.push(head.subarray(0, need));
        this.queue[0] = head.subarray(need);
        need = 0;
      }
    }
    this.queuedBytes -= bytes;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
  }

  private finish(stopped: boolean): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    if (!stopped) this.jitter.playedCleanly(((this.fedSamples - this.cleanFrom) * 1000) / this.sampleRate);
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
    if (stream) close(stream);
  }
}

/** Closes a stream now, whatever state it is in (never started, playing, broken); never throws. */
function close(stream: IoStreamWrite): void {
  try {
    stream.quit().catch(() => {
      // The device is gone already: nothing left to close.
    });
  } catch {
    // Already broken.
  }
}

/** Opens the output device. Never throws: problems arrive as an 'error' event (PlayerError with a code). */
export function createPlayer(options: PlayerOptions): Player {
  return new NativePlayer(options);
}
