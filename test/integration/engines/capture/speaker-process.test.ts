/**
 * The meeting capture's speaker child on the real parts: the real pyannote segmentation model and the tiny
 * random-weight speaker embedding (../shared/models), a two-channel recording laid out as a capture writes it (left
 * jfk.wav as "You", right two different real voices taking turns as the other side).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcm16WavHeader } from '../../../../src-main/engines/capture/chunked-recording.js';
import { SpeakerProcess } from '../../../../src-main/engines/capture/speaker-process.js';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { JFK_WAV } from '../../../helpers/dictation-fixtures.js';
import { TEST_DIARIZATION_MODELS, twoVoicesRecording } from '../../../helpers/two-voices.js';
import { requireFile } from '../../../helpers/system.js';

const temp = makeTempDir('voxdesk-capture-speakers-');
let recording: string;
let otherSide: Float32Array;
let speakers: SpeakerProcess;
const logged: string[] = [];

function pcm16(samples: Float32Array, from = 0, to = samples.length): Buffer {
  const out = Buffer.alloc((to - from) * 2);
  for (let i = from; i < to; i++) out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i]! * 32767))), (i - from) * 2);
  return out;
}

beforeAll(() => {
  requireFile(TEST_DIARIZATION_MODELS.segmentation, '../shared/models');
  requireFile(TEST_DIARIZATION_MODELS.embedding, '../shared/models/tiny');
  otherSide = decodeWav(new Uint8Array(readFileSync(twoVoicesRecording(temp.dir)))).channels[0]!;
  const you = decodeWav(new Uint8Array(readFileSync(JFK_WAV))).channels[0]!;
  const frames = Buffer.alloc(otherSide.length * 4);
  const left = pcm16(you.length >= otherSide.length ? you : Float32Array.from({ length: otherSide.length }, (_, i) => you[i] ?? 0), 0, otherSide.length);
  const right = pcm16(otherSide);
  for (let i = 0; i < otherSide.length; i++) {
    frames.writeInt16LE(left.readInt16LE(i * 2), i * 4);
    frames.writeInt16LE(right.readInt16LE(i * 2), i * 4 + 2);
  }
  recording = join(temp.dir, 'cap_test.capture.wav');
  writeFileSync(recording, Buffer.concat([pcm16WavHeader(16_000, 2, frames.length), frames]));
  speakers = new SpeakerProcess(TEST_DIARIZATION_MODELS, (m) => logged.push(m));
}, 60_000);
afterAll(() => {
  speakers?.close();
  temp.cleanup();
});

describe('the capture\'s speaker process', () => {
  it('diarizes the other side\'s channel of a recording into at least two speakers, each with a voice', async () => {
    const found = await speakers.diarize(recording, 1);
    const names = new Set(found.turns.map((t) => t.speaker));
    expect(names.size, JSON.stringify(found.turns)).toBeGreaterThanOrEqual(2);
    // The reader speaks first (0–10 s), the other voice after the pause (11.5–20 s).
    const at = (s: number): string | undefined => found.turns.find((t) => t.start <= s && t.end >= s)?.speaker;
    expect(at(5)).toBeDefined();
    expect(at(15)).toBeDefined();
    expect(at(5)).not.toBe(at(15));
    expect(found.voices.map((v) => v.speaker).sort()).toEqual([...names].sort());
    expect(found.voices.every((v) => v.embedding.length === 128 && v.seconds >= 1)).toBe(true);
    // The same recording diarized again gives the same speakers (a capture killed in this stage is diarized again).
    expect((await speakers.diarize(recording, 1)).turns).toEqual(found.turns);
  }, 120_000);

  it('embeds one utterance at a time: one that comes while another is embedded is skipped (null)', async () => {
    const utterance = pcm16(otherSide, 16_000, 16_000 * 4);
    const [first, second] = await Promise.all([speakers.embed(utterance), speakers.embed(utterance)]);
    expect(first).toHaveLength(128);
    expect(second).toBeNull();
    expect(await speakers.embed(utterance)).toEqual(first);
  }, 60_000);

  it('a recording that is not there fails the diarization with the reason, and the process goes on', async () => {
    await expect(speakers.diarize(join(temp.dir, 'missing.wav'), 1)).rejects.toThrow(/ENOENT|no such file/);
    expect(await speakers.embed(pcm16(otherSide, 16_000, 16_000 * 3))).toHaveLength(128);
  }, 60_000);
});
