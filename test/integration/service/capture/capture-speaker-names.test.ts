/**
 * The speakers of a meeting capture's other side in its job (service/capture/capture-speakers.ts) on the real parts:
 * the speaker child with the real pyannote segmentation and the tiny random-weight embedding, over a recording laid
 * out as a capture writes it. Speakers are numbered in the order they first speak, a voice the account's speaker
 * library knows takes its name (the tiny model's voices of the two people here lie far apart: below 0.3 of each
 * other, above 0.8 of themselves, so the default threshold of 0.6 holds), and without the models nothing runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centreOf } from '../../../../src-main/common/speaker-matching.js';
import { diarizeOtherSide, NO_SPEAKER_MODELS, type CaptureSpeakerDeps } from '../../../../src-main/service/capture/capture-speakers.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { requireFile } from '../../../helpers/system.js';
import { TEST_DIARIZATION_MODELS, twoVoicesCapture } from '../../../helpers/two-voices.js';
import { silentLog } from '../../../../src-main/common/log.js';
import { scaled } from '../../../helpers/time-scale.js';

const temp = makeTempDir('voxdesk-capture-names-');
let recording: string;
const log = silentLog;
const withLibrary = (known: Awaited<ReturnType<CaptureSpeakerDeps['knownSpeakers']>>): CaptureSpeakerDeps => ({ models: () => TEST_DIARIZATION_MODELS, knownSpeakers: async () => known });

beforeAll(() => {
  requireFile(TEST_DIARIZATION_MODELS.segmentation, '../shared/models');
  requireFile(TEST_DIARIZATION_MODELS.embedding, '../shared/models/tiny');
  recording = twoVoicesCapture(temp.dir).path;
}, scaled(60_000));
afterAll(() => temp.cleanup());

describe('the other side\'s speakers in a capture\'s job', () => {
  it('numbers them in speaking order, keeps their voices, and names the one the speaker library knows', async () => {
    const first = await diarizeOtherSide(recording, 'acc_local', withLibrary([]), log);
    expect(first.diarization).toMatchObject({ status: 'diarized' });
    expect(first.diarization.speakers).toBeGreaterThanOrEqual(2);
    const at = (start: number, end: number): string => first.speakerOf({ side: 'system', segmentId: 0, start, end, text: 'x' });
    expect(at(0.5, 9.5)).toBe('Other side 1');
    expect(at(12, 19.5)).toBe('Other side 2');
    expect(first.speakerNames).toBeUndefined();
    const voice = first.voices.find((v) => v.speaker === 'Other side 2');
    expect(voice?.embedding.length).toBe(128);

    const anna = { id: 'spk_anna', name: 'Anna', centre: centreOf([voice!.embedding])!, not: [] };
    const named = await diarizeOtherSide(recording, 'acc_local', withLibrary([anna]), log);
    expect(named.speakerNames).toEqual({ 'Other side 2': 'Anna' });
    expect(named.voices).toEqual(first.voices);
  }, scaled(120_000));

  it('without the models the other side is one speaker and nothing runs; a failure says why', async () => {
    const none = await diarizeOtherSide(recording, 'acc_local', NO_SPEAKER_MODELS, log);
    expect(none.diarization).toMatchObject({ status: 'not_available' });
    expect(none.speakerOf({ side: 'system', segmentId: 0, start: 1, end: 2, text: 'x' })).toBe('Other side');
    const missing = await diarizeOtherSide(`${temp.dir}/missing.wav`, 'acc_local', withLibrary([]), log);
    expect(missing.diarization).toMatchObject({ status: 'failed', message: expect.stringMatching(/could not be told apart .*(ENOENT|no such file)/) });
    expect(missing.voices).toEqual([]);
  }, scaled(60_000));
});
