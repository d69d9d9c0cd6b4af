/**
 * The meeting capture's speaker child on the real parts: the real pyannote segmentation model and the tiny
 * random-weight speaker embedding (../shared/models), a two-channel recording laid out as a capture writes it (left
 * jfk.wav as "You", right two different real voices taking turns as the other side).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeakerProcess } from '../../../../src-main/engines/capture/speaker-process.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { pcm16, TEST_DIARIZATION_MODELS, twoVoicesCapture } from '../../../helpers/two-voices.js';
import { requireFile } from '../../../helpers/system.js';
import { logInto } from '../../../helpers/log.js';
import { scaled } from '../../../helpers/time-scale.js';

const temp = makeTempDir('voxdesk-capture-speakers-');
let recording: string;
let otherSide: Float32Array;
let speakers: SpeakerProcess;
const logged: string[] = [];

beforeAll(() => {
  requireFile(TEST_DIARIZATION_MODELS.segmentation, '../shared/models');
  requireFile(TEST_DIARIZATION_MODELS.embedding, '../shared/models/tiny');
  ({ path: recording, otherSide } = twoVoicesCapture(temp.dir));
  speakers = new SpeakerProcess(TEST_DIARIZATION_MODELS, logInto(logged));
}, scaled(60_000));
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
  }, scaled(120_000));

  it('embeds one utterance at a time: one that comes while another is embedded is skipped (null)', async () => {
    const utterance = pcm16(otherSide, 16_000, 16_000 * 4);
    const [first, second] = await Promise.all([speakers.embed(utterance), speakers.embed(utterance)]);
    expect(first).toHaveLength(128);
    expect(second).toBeNull();
    expect(await speakers.embed(utterance)).toEqual(first);
  }, scaled(60_000));

  it('a recording that is not there fails the diarization with the reason, and the process goes on', async () => {
    await expect(speakers.diarize(join(temp.dir, 'missing.wav'), 1)).rejects.toThrow(/ENOENT|no such file/);
    expect(await speakers.embed(pcm16(otherSide, 16_000, 16_000 * 3))).toHaveLength(128);
  }, scaled(60_000));
});
