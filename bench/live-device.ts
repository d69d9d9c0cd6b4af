/**
 * Live speech to the speaker, end to end on the virtual sound device (a private PulseAudio with a null sink,
 * test/audio/pulse.ts), against the measuring chain's own floor in the same run. JSON line `live-device`.
 *
 * - Voxdesk: `speak` sent on the live WebSocket (LivePlayback, as the desktop app uses it) → first non-silent sample
 *   recorded from the null sink's monitor. Includes the service, eSpeak, the player's jitter buffer and the device.
 * - Floor: the very same PCM (the bytes the session sends for the sentence) written straight to the same sink through
 *   naudiodon/PortAudio with the same frames per buffer — a stream opened ahead of time, the whole sentence written
 *   at once and started — recorded the same way. What is left between the two is Voxdesk's.
 * The two alternate, LIVE_DEVICE_SPEAKS (20) times each, in one recording. Underruns are counted twice: the player's
 * own (the device ran dry while more audio was coming; the adaptive jitter buffer then grows) and, from the
 * recording, speaks whose sound is not as long as the source (a gap or a cut at the device).
 * Voxdesk's time is split at the first frame the client receives: speak → first frame (the service and eSpeak) and
 * first frame → sound (the player and the device).
 * recording_gap_ms is wall time minus recorded time (near 0 unless the recorder lost audio, which would shift onsets).
 * LIVE_DEVICE_FPB sets the frames per device buffer for both (default: the player's default); LIVE_DEVICE_DEBUG=1
 * prints each speak's sound length and latency on stderr; LIVE_DEVICE_JITTER_START_MS sets the jitter buffer's start.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { GOOD_KEY, LiveClient, startLive } from '../test/helpers/live-harness.js';
import { REC_RATE, audibleSeconds, startPulse } from '../test/audio/pulse.js';
import { DEFAULT_PLAYER_OPTIONS } from '../src-main/app/player/player-types.js';
import { percentile, round3 } from './_stats.js';

const SPEAKS = Number(process.env.LIVE_DEVICE_SPEAKS ?? 20);
const FPB = Number(process.env.LIVE_DEVICE_FPB ?? DEFAULT_PLAYER_OPTIONS.framesPerBuffer);
const JITTER_START_MS = process.env.LIVE_DEVICE_JITTER_START_MS ? Number(process.env.LIVE_DEVICE_JITTER_START_MS) : undefined;
const SENTENCE = 'Testing the device.';
const THRESHOLD = 0.02;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RawStream {
  write(chunk: Buffer): boolean;
  start(): void;
  end(): void;
  quit(): Promise<void>;
  once(event: 'finished', listener: () => void): void;
}

const pulse = startPulse();
Object.assign(process.env, { HOME: pulse.env.HOME, XDG_RUNTIME_DIR: pulse.env.XDG_RUNTIME_DIR, PULSE_SERVER: pulse.env.PULSE_SERVER });
const { LivePlayback } = await import('../src-main/app/player/live-playback.js');
const naudiodon = createRequire(import.meta.url)('naudiodon') as { AudioIO(options: { outOptions: Record<string, unknown> }): RawStream };
const h = await startLive();
try {
  const serviceUrl = h.url('').replace(/^ws/, 'http').replace(/\/v1\/.*$/, '');

  // The bytes the session sends for the sentence: the floor plays exactly these.
  const client = await LiveClient.open(h.url('model=espeak-ng'));
  await client.waitFor('session.created');
  const frames: Buffer[] = [];
  client.ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) frames.push(Buffer.from(data));
  });
  client.send({ type: 'speak', text: SENTENCE });
  await client.waitFor('response.done');
  client.close();
  const pcm = Buffer.concat(frames);
  const source = new Float32Array(pcm.length / 2);
  for (let i = 0; i < source.length; i++) source[i] = pcm.readInt16LE(i * 2) / 32768;
  const rate = 22050;
  const sourceSeconds = audibleSeconds(source, rate, THRESHOLD);

  const playback = await LivePlayback.open({ serviceUrl, apiKey: GOOD_KEY, modelId: 'espeak-ng', player: { framesPerBuffer: FPB }, ...(JITTER_START_MS === undefined ? {} : { jitter: { startMs: JITTER_START_MS } }) });
  let dones = 0;
  let firstFrameAt: number | null = null;
  playback.on('event', (e) => {
    if (e.type === 'done') dones++;
    if (e.type === 'audio' && firstFrameAt === null) firstFrameAt = performance.now();
  });
  playback.speak('Warm up.');
  while (dones < 1) await sleep(10);
  await sleep(1000);

  const rec = pulse.record();
  const recStart = await rec.firstDataAt();
  await sleep(300);
  const marks: { kind: 'floor' | 'voxdesk'; at: number; frameAt?: number }[] = [];
  for (let i = 0; i < SPEAKS; i++) {
    // Floor: a stream opened ahead, the whole sentence written at once, then started.
    const stream = naudiodon.AudioIO({ outOptions: { channelCount: 1, sampleFormat: 16, sampleRate: rate, deviceId: -1, framesPerBuffer: FPB, closeOnError: false } });
    await sleep(150);
    const finished = new Promise<void>((r) => stream.once('finished', r));
    marks.push({ kind: 'floor', at: performance.now() - recStart });
    stream.write(pcm);
    stream.start();
    stream.write(Buffer.alloc(FPB * 2 * 4)); // the same padding the player adds, so the end is played out
    stream.end();
    await finished;
    await sleep(700);

    const mark: (typeof marks)[number] = { kind: 'voxdesk', at: performance.now() - recStart };
    marks.push(mark);
    firstFrameAt = null;
    playback.speak(SENTENCE);
    while (dones < i + 2) await sleep(5);
    if (firstFrameAt !== null) mark.frameAt = (firstFrameAt as number) - recStart;
    await sleep(700);
  }
  const wallMs = performance.now() - recStart;
  const x = await rec.stop();
  // Audio the recorder lost (parec overruns on a busy machine shift every later onset): wall time minus recorded time.
  const recordingGapMs = wallMs - (x.length / REC_RATE) * 1000;
  const stats = (playback as { stats?: { underruns: number; jitterTargetMs: number } }).stats;
  await playback.close();

  const latency: Record<'floor' | 'voxdesk', number[]> = { floor: [], voxdesk: [] };
  const glitched: Record<'floor' | 'voxdesk', number> = { floor: 0, voxdesk: 0 };
  const toFrame: number[] = [];
  const frameToSound: number[] = [];
  for (const [i, mark] of marks.entries()) {
    const from = Math.floor((mark.at / 1000) * REC_RATE);
    const to = i + 1 < marks.length ? Math.floor((marks[i + 1]!.at / 1000) * REC_RATE) : x.length;
    let onset = -1;
    for (let j = from; j < to; j++) {
      if (Math.abs(x[j]!) > THRESHOLD) {
        onset = j;
        break;
      }
    }
    if (onset < 0) {
      if (process.env.LIVE_DEVICE_DEBUG) console.error(mark.kind, 'no sound heard');
      continue;
    }
    latency[mark.kind].push((onset / REC_RATE) * 1000 - mark.at);
    if (mark.frameAt !== undefined) {
      toFrame.push(mark.frameAt - mark.at);
      frameToSound.push((onset / REC_RATE) * 1000 - mark.frameAt);
    }
    // Sound heard in 10 ms windows vs the source's: a device underflow shows as a gap (more) or a cut (less).
    if (process.env.LIVE_DEVICE_DEBUG) console.error(mark.kind, audibleSeconds(x.subarray(from, to), REC_RATE, THRESHOLD), sourceSeconds, ((onset / REC_RATE) * 1000 - mark.at).toFixed(1));
    if (Math.abs(audibleSeconds(x.subarray(from, to), REC_RATE, THRESHOLD) - sourceSeconds) > 0.03) glitched[mark.kind]++;
  }
  const p = (kind: 'floor' | 'voxdesk', q: number) => round3(percentile(latency[kind], q));
  console.log(
    JSON.stringify({
      bench: 'live-device',
      speaks: SPEAKS,
      frames_per_buffer: FPB,
      heard: latency.voxdesk.length,
      p50_ms: p('voxdesk', 50),
      p95_ms: p('voxdesk', 95),
      floor_heard: latency.floor.length,
      floor_p50_ms: p('floor', 50),
      floor_p95_ms: p('floor', 95),
      p95_over_floor_ms: round3(percentile(latency.voxdesk, 95) - percentile(latency.floor, 95)),
      ratio_p50: round3(percentile(latency.voxdesk, 50) / percentile(latency.floor, 50)),
      speak_to_first_frame_p50_ms: round3(percentile(toFrame, 50)),
      speak_to_first_frame_p95_ms: round3(percentile(toFrame, 95)),
      first_frame_to_sound_p50_ms: round3(percentile(frameToSound, 50)),
      first_frame_to_sound_p95_ms: round3(percentile(frameToSound, 95)),
      player_underruns: stats?.underruns ?? null,
      jitter_target_ms: stats ? round3(stats.jitterTargetMs) : null,
      glitched_speaks: glitched.voxdesk,
      floor_glitched: glitched.floor,
      recording_gap_ms: round3(recordingGapMs),
      loadavg_1m: round3(loadavg()[0]!),
    }),
  );
} finally {
  await h.close();
  pulse.stop();
}
