/**
 * A recording of two different real voices taking turns, for the meeting capture's speaker tests: a Hi-Fi TTS
 * reader (speaker 6097), then speaker91 of the pyannote two-speaker clip (their solo stretches, speaker-recordings.ts),
 * then the reader again, with 1.5 s of silence between turns so that every utterance is one voice. 16 kHz mono, 27 s.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pcm16WavHeader } from '../../src-main/engines/audio/wav-header.js';
import { decodeWav } from '../../src-main/engines/audio/wav.js';
import { JFK_WAV } from './dictation-fixtures.js';
import { oneVoiceRecording } from './speaker-recordings.js';
import { requireCommand, SHARED } from './system.js';

const READER = join(SHARED, 'audio/hifitts-6097');

/** `dir/two-voices.wav` (made with sox). */
export function twoVoicesRecording(dir: string): string {
  const sox = requireCommand('sox', 'sox');
  const other = oneVoiceRecording(dir, 'speaker91');
  const silence = join(dir, 'silence.wav');
  execFileSync(sox, ['-n', '-r', '16000', '-c', '1', silence, 'trim', '0', '1.5']);
  const reader = (name: string): string => {
    const out = join(dir, name);
    execFileSync(sox, [join(READER, name), '-r', '16000', '-c', '1', out]);
    return out;
  };
  const out = join(dir, 'two-voices.wav');
  execFileSync(sox, [reader('astralplane_03_leadbeater_0639.wav'), silence, other, silence, reader('astralplane_06_leadbeater_0349.wav'), out]);
  return out;
}

/** The diarization models as installed in tests: the real pyannote segmentation, the tiny random-weight embedding. */
export const TEST_DIARIZATION_MODELS = {
  segmentation: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'),
  embedding: join(SHARED, 'models/tiny/tiny-speaker-embedding.onnx'),
};

/** PCM16 little-endian of float samples [from, to). */
export function pcm16(samples: Float32Array, from = 0, to = samples.length): Buffer {
  const out = Buffer.alloc((to - from) * 2);
  for (let i = from; i < to; i++) out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i]! * 32767))), (i - from) * 2);
  return out;
}

/**
 * `dir/cap_test.capture.wav`, laid out as a capture writes its recording (chunked-recording.ts): left jfk.wav as
 * "You" (then silence), right the two voices as the other side. Also answers the other side's samples.
 */
export function twoVoicesCapture(dir: string): { path: string; otherSide: Float32Array } {
  const otherSide = decodeWav(new Uint8Array(readFileSync(twoVoicesRecording(dir)))).channels[0]!;
  const you = decodeWav(new Uint8Array(readFileSync(JFK_WAV))).channels[0]!;
  const left = pcm16(Float32Array.from({ length: otherSide.length }, (_, i) => you[i] ?? 0));
  const right = pcm16(otherSide);
  const frames = Buffer.alloc(otherSide.length * 4);
  for (let i = 0; i < otherSide.length; i++) {
    frames.writeInt16LE(left.readInt16LE(i * 2), i * 4);
    frames.writeInt16LE(right.readInt16LE(i * 2), i * 4 + 2);
  }
  const path = join(dir, 'cap_test.capture.wav');
  writeFileSync(path, Buffer.concat([pcm16WavHeader(16_000, 2, frames.length), frames]));
  return { path, otherSide };
}
