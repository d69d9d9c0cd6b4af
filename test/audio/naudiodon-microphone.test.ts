/**
 * Dictate anywhere's microphone on macOS and Windows (src-main/app/hotkey/naudiodon-microphone.ts), run here through
 * the same PortAudio as there with ALSA's PulseAudio plugin under it: a private PulseAudio whose default source says
 * jfk.wav (test/helpers/capture-pulse.ts) is recorded as 16 kHz mono PCM16 — as long as it played, and loud where it
 * speaks — and a second microphone opens at once after the first is stopped (PortAudio's one gate).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NaudiodonMicrophone as NaudiodonMicrophoneClass } from '../../src-main/app/hotkey/naudiodon-microphone.js';
import { startCapturePulse, type CapturePulse } from '../helpers/capture-pulse.js';
import { JFK_WAV } from '../helpers/dictation-fixtures.js';
import { scaled } from '../helpers/time-scale.js';

let pulse: CapturePulse;
let NaudiodonMicrophone: typeof NaudiodonMicrophoneClass;

beforeAll(async () => {
  pulse = startCapturePulse();
  // PortAudio reaches the private server through ALSA's pulse plugin, which reads these from the process.
  Object.assign(process.env, { HOME: pulse.env.HOME, XDG_RUNTIME_DIR: pulse.env.XDG_RUNTIME_DIR, PULSE_SERVER: pulse.env.PULSE_SERVER });
  ({ NaudiodonMicrophone } = await import('../../src-main/app/hotkey/naudiodon-microphone.js'));
});
afterAll(() => pulse?.stop());

function record(): { frames: Buffer[]; ended: (string | null)[]; stop(): void; started: Promise<void> } {
  const mic = new NaudiodonMicrophone();
  const frames: Buffer[] = [];
  const ended: (string | null)[] = [];
  let first!: () => void;
  const started = new Promise<void>((resolve) => (first = resolve));
  mic.start(
    (pcm) => {
      frames.push(pcm);
      first();
    },
    (reason) => ended.push(reason),
  );
  return { frames, ended, stop: () => mic.stop(), started };
}

describe('the PortAudio microphone', () => {
  it('records the default input as 16 kHz mono PCM16 while a sentence is said', { timeout: scaled(60_000) }, async () => {
    const rec = record();
    await rec.started;
    await pulse.play(JFK_WAV, 'mic');
    rec.stop();
    const pcm = Buffer.concat(rec.frames);
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
    // jfk.wav is 11 s: all of it came, at 16 kHz (a busy machine may add a little before and after).
    expect(samples.length / 16_000).toBeGreaterThan(10.5);
    let loud = 0;
    for (let i = 0; i + 160 <= samples.length; i += 160) if (samples.subarray(i, i + 160).some((v) => Math.abs(v) > 1_600)) loud++;
    expect(loud / 100).toBeGreaterThan(4);
    expect(rec.ended.filter((r) => r !== null)).toEqual([]);
  });

  it('opens again at once after a stop', { timeout: scaled(30_000) }, async () => {
    const first = record();
    await first.started;
    first.stop();
    const second = record();
    await second.started;
    second.stop();
    expect(second.frames.length).toBeGreaterThan(0);
  });
});
