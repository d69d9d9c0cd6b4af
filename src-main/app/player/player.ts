/**
 * The native audio player: 16-bit mono PCM to the default (or a chosen) output device through naudiodon (PortAudio),
 * loaded by naudiodon-loader.ts (the one place that does, for either runtime). An adaptive jitter buffer
 * (adaptive-jitter.ts) is held before the device starts: small at first, larger after an underrun, when the player
 * also holds the audio again until the new target is queued (nothing is ever dropped). Audio is then fed only
 * `maxAheadMs` ahead of the playback position (the sound server plays out whatever it was given), so stop() is heard
 * at once; end() pads with silence so the last syllable is heard (the device cuts the last ~2 buffers otherwise).
 * Device problems become typed 'error' events, never exceptions.
 *
 * Opening a device costs 30–100 ms while PortAudio is not initialised (Pa_Initialize probes every ALSA device,
 * JACK included) and ~3–10 ms while another stream keeps it initialised: the live playback therefore opens its next
 * player ahead of time (live-playback.ts).
 *
 * The device's life is one state field (DeviceState below); the audio waiting for it is a PcmQueue (pcm-queue.ts,
 * which also knows when the input ended and when a writer may go on); opens wait at the process's one PortAudio gate
 * (portaudio-gate.ts).
 */
import { EventEmitter } from 'node:events';
import { AdaptiveJitter } from './adaptive-jitter.js';
import { loadNaudiodon, type IoStreamWrite, type Naudiodon } from './naudiodon-loader.js';
import { PcmQueue } from './pcm-queue.js';
import { DEFAULT_PLAYER_OPTIONS, PLAYER_FEED_INTERVAL_MS, PlayerError, type Player, type PlayerOptions } from './player-types.js';
import { portAudio } from './portaudio-gate.js';

/**
 * Output devices PortAudio sees (for a device picker). Rejects with PlayerError when naudiodon cannot load. Listing
 * initialises PortAudio on this thread, so, like an open, it waits for closes in flight (portaudio-gate.ts).
 */
export async function listOutputDevices(): Promise<{ id: number; name: string }[]> {
  await portAudio.idle();
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
/** Chunks naudiodon may queue for the device. */
const NATIVE_MAX_QUEUE = 64;

/**
 * Where the device is in its life:
 * - `opening`: waiting for the PortAudio gate (a close in flight); audio written meanwhile is queued.
 * - `holding`: open, not started: holding audio until the jitter target is queued (or the input ended).
 * - `playing`: started; fed up to maxAheadMs ahead of the playback position.
 * - `rebuffering`: started, after an underrun: fed silence while holding audio until the new, larger target is queued.
 * - `closing`: the input ended and was all handed over; naudiodon plays it out and closes the stream ('finished').
 * - `ended`: played out, stopped or failed. Nothing more happens.
 */
type DeviceState = 'opening' | 'holding' | 'playing' | 'rebuffering' | 'closing' | 'ended';

class NativePlayer extends EventEmitter implements Player {
  readonly sampleRate: number;
  private readonly options: Required<Omit<PlayerOptions, 'jitter'>>;
  private readonly jitter: AdaptiveJitter;
  private state: DeviceState = 'opening';
  private readonly queue = new PcmQueue();
  private stream: IoStreamWrite | null = null;
  /** fedSamples at the last underrun (or 0): what was fed after it played cleanly. */
  private cleanFrom = 0;
  /** Samples handed to the device, and when the device position was last known to be `baseSamples`. */
  private fedSamples = 0;
  private baseSamples = 0;
  private baseTime = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Set once the stream was ended: naudiodon then closes it on the thread pool, done at 'finished'. */
  private closeSettled: (() => void) | null = null;

  constructor(options: PlayerOptions) {
    super();
    const { jitter, ...rest } = options;
    this.options = { ...DEFAULT_PLAYER_OPTIONS, ...rest };
    this.sampleRate = options.sampleRate;
    this.jitter = jitter ?? new AdaptiveJitter({ startMs: this.options.jitterMs, maxMs: Math.max(400, this.options.jitterMs) });
    if (!Number.isInteger(options.sampleRate) || options.sampleRate < 8000 || options.sampleRate > 192_000) {
      this.fail(new PlayerError('invalid_audio', `sampleRate must be an integer 8000–192000 (got ${options.sampleRate})`));
      return;
    }
    portAudio.whenIdle(() => this.openNow());
  }

  /** Opens the device (unless stopped meanwhile), and starts it if enough audio, or all of it, is already queued. */
  private openNow(): void {
    if (this.state !== 'opening') return;
    try {
      this.open();
    } catch (error) {
      this.fail(error instanceof PlayerError ? error : new PlayerError('device_unavailable', `cannot open the audio device: ${String(error)}`, { cause: error }));
      return;
    }
    this.state = 'holding';
    if (this.queue.ended || this.queue.bytes >= this.holdBytes()) this.startDevice();
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
      // maxQueue: chunks naudiodon holds for the device (default 2). The player bounds the audio handed over itself
      // (maxAheadMs); a write finding the native queue full would wait in libuv's thread pool.
      outOptions: { channelCount: 1, sampleFormat: lib.SampleFormat16Bit, sampleRate, deviceId, framesPerBuffer, maxQueue: NATIVE_MAX_QUEUE, closeOnError: false },
    });
    // naudiodon logs every stream error itself; ours are reported as typed events.
    stream.removeAllListeners('error');
    stream.on('error', (error: unknown) => this.fail(new PlayerError('device_error', `the audio device failed: ${String(error)}`, { cause: error })));
    stream.on('finished', () => {
      this.closeSettled?.();
      this.finish(false);
    });
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
    if (this.state === 'ended' || this.queue.ended) return false;
    const bytes = Buffer.isBuffer(pcm) ? pcm : Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    if (bytes.length % 2 !== 0) {
      this.fail(new PlayerError('invalid_audio', 'PCM16 data must have an even number of bytes'));
      return false;
    }
    this.queue.push(bytes);
    if (this.state === 'holding') {
      if (this.queue.bytes >= this.holdBytes()) this.startDevice();
    } else if (this.state !== 'opening') this.feed();
    return this.queue.admit(this.ms(this.options.queueHighMs));
  }

  end(): void {
    if (this.state === 'ended' || this.queue.ended) return;
    this.queue.end(Buffer.alloc(this.options.padBuffers * this.options.framesPerBuffer * 2));
    if (this.state === 'holding') this.startDevice();
    else if (this.state !== 'opening') this.feed();
  }

  stop(): void {
    if (this.state === 'ended') return;
    const stream = this.stream;
    const ending = this.state === 'closing';
    this.queue.clear();
    this.finish(true);
    if (stream && !ending) this.quit(stream);
  }

  /**
   * The first audio is handed over before the device starts: Pa_StartStream blocks this thread for 1–50 ms on a
   * busy machine (PulseAudio round trips), and a device started first would wait that long for its first chunk.
   */
  private startDevice(): void {
    this.state = 'playing';
    this.baseTime = performance.now();
    this.feed();
    // feed() may have failed the device.
    if ((this.state as DeviceState) === 'ended') return;
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
    if ((this.state !== 'playing' && this.state !== 'rebuffering') || !this.stream) return;
    const queue = this.queue;
    const now = performance.now();
    const period = this.options.framesPerBuffer;
    let played = this.baseSamples + ((now - this.baseTime) * this.sampleRate) / 1000;
    if (this.fedSamples > 0 && played > this.fedSamples) {
      // Ran dry all the same (this thread was held up longer than the cushion): it resumes from what is fed next.
      this.baseSamples = this.fedSamples;
      this.baseTime = now;
      played = this.fedSamples;
      if (!queue.ended && this.state === 'playing') this.underrun();
    }
    if (this.state === 'rebuffering' && (queue.ended || queue.bytes >= this.holdBytes())) this.state = 'playing';
    const aheadLimit = played + (this.options.maxAheadMs * this.sampleRate) / 1000;
    if (this.state === 'playing' && this.fedSamples < aheadLimit) {
      // One write for all of it: each write is a hop through libuv's thread pool and back, which a busy machine
      // can delay by tens of ms, and the device must never wait for one.
      const periods = Math.ceil((aheadLimit - this.fedSamples) / period);
      const whole = Math.floor(queue.bytes / (period * 2));
      const bytes = queue.ended && whole < periods ? queue.bytes : Math.min(whole, periods) * period * 2;
      if (bytes > 0) this.hand(queue.take(bytes));
    }
    const starving = (STARVING_MS * this.sampleRate) / 1000;
    if (!queue.ended && this.fedSamples - played < starving) {
      if (this.state === 'playing') this.underrun();
      // While the audio is held, the device is kept a buffer further ahead in silence: it takes a buffer ahead of
      // what is heard, and a sound server that runs dry loses ~10 ms as it restarts.
      while (this.fedSamples - played < period + starving) this.hand(Buffer.alloc(period * 2));
    }
    if (queue.drained(this.ms(this.options.queueHighMs))) this.emit('drain');
    if (queue.empty && queue.ended) {
      this.state = 'closing';
      this.closeSettled = portAudio.closeStarted();
      this.stream.end();
      return;
    }
    // While playing, the device is watched even with nothing queued (to notice in time that it is running dry).
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.feed();
    }, PLAYER_FEED_INTERVAL_MS);
  }

  private underrun(): void {
    this.jitter.playedCleanly(((this.fedSamples - this.cleanFrom) * 1000) / this.sampleRate);
    this.cleanFrom = this.fedSamples;
    this.jitter.underrun();
    this.state = 'rebuffering';
    this.emit('underrun', { targetMs: this.jitter.targetMs });
  }

  private hand(chunk: Buffer): void {
    this.fedSamples += chunk.length / 2;
    this.stream!.write(chunk);
  }

  /**
   * Closes the stream now, whatever state it is in (never started, playing, broken); never throws. Not once it is
   * `closing`: naudiodon then closes it itself once the last write is in, and a second close would free it twice;
   * what it still plays is at most maxAheadMs.
   */
  private quit(stream: IoStreamWrite): void {
    const settled = portAudio.closeStarted();
    try {
      stream.quit().then(settled, settled);
    } catch {
      settled(); // already broken
    }
  }

  private finish(stopped: boolean): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    if (this.timer) clearTimeout(this.timer);
    if (!stopped) this.jitter.playedCleanly(((this.fedSamples - this.cleanFrom) * 1000) / this.sampleRate);
    this.emit('ended', { stopped });
  }

  private fail(error: PlayerError): void {
    if (this.state === 'ended') return;
    const ending = this.state === 'closing';
    this.state = 'ended';
    if (this.timer) clearTimeout(this.timer);
    const stream = this.stream;
    this.stream = null;
    // Listeners attached right after createPlayer() must still hear an error raised in the constructor.
    process.nextTick(() => {
      if (this.listenerCount('error') > 0) this.emit('error', error);
      this.emit('ended', { stopped: true });
    });
    if (stream && !ending) this.quit(stream);
  }
}

/** Opens the output device. Never throws: problems arrive as an 'error' event (PlayerError with a code). */
export function createPlayer(options: PlayerOptions): Player {
  return new NativePlayer(options);
}
