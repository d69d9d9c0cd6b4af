/**
 * The other side's provisional speakers during a capture (service/capture/live-speakers.ts) with the real speaker
 * child (the real pyannote segmentation, the tiny random-weight embedding): the other side's audio is heard block by
 * block as the capture aligns it, and each utterance is labelled from the audio kept — two different voices get two
 * numbers, the first voice again its own; an utterance whose audio has left the minute kept is "Other side".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_AUDIO_SECONDS, LiveSpeakers } from '../../../../src-main/service/capture/live-speakers.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { requireFile } from '../../../helpers/system.js';
import { pcm16, TEST_DIARIZATION_MODELS, twoVoicesCapture } from '../../../helpers/two-voices.js';
import { silentLog } from '../../../../src-main/common/log.js';
import { scaled } from '../../../helpers/time-scale.js';

const temp = makeTempDir('voxdesk-live-speakers-');
let otherSide: Float32Array;
afterAll(() => temp.cleanup());
beforeAll(() => {
  requireFile(TEST_DIARIZATION_MODELS.segmentation, '../shared/models');
  requireFile(TEST_DIARIZATION_MODELS.embedding, '../shared/models/tiny');
  otherSide = twoVoicesCapture(temp.dir).otherSide;
}, scaled(60_000));

/** The recording's other side heard in 0.1 s blocks, as the channel aligner hands them over. */
function hearAll(speakers: LiveSpeakers, samples: Float32Array): void {
  for (let at = 0; at < samples.length; at += 1600) speakers.hear(pcm16(samples, at, Math.min(samples.length, at + 1600)));
}

describe('the other side\'s live speakers', () => {
  it('numbers the two voices as their utterances finish, one at a time, and the first voice keeps its number', async () => {
    const speakers = new LiveSpeakers(TEST_DIARIZATION_MODELS, silentLog);
    try {
      hearAll(speakers, otherSide);
      // The reader (0.3–9.8 s), the other voice (11.8–19.8 s), the reader again (21.6–26.9 s): finished one by one.
      expect(await speakers.label(0.3, 9.8)).toBe('Other side 1');
      expect(await speakers.label(11.8, 19.8)).toBe('Other side 2');
      expect(await speakers.label(21.6, 26.9)).toBe('Other side 1');
      // Two utterances finishing together: the second is not embedded (the machine is behind) and says "Other side".
      const [first, second] = await Promise.all([speakers.label(0.3, 9.8), speakers.label(11.8, 19.8)]);
      expect([first, second]).toEqual(['Other side 1', 'Other side']);
    } finally {
      await speakers.close();
    }
  }, scaled(120_000));

  it('labels an utterance whose audio has left the minute kept "Other side", without embedding it', async () => {
    const speakers = new LiveSpeakers(TEST_DIARIZATION_MODELS, silentLog);
    try {
      hearAll(speakers, otherSide);
      hearAll(speakers, new Float32Array(16_000 * (KEPT_AUDIO_SECONDS + 5)));
      expect(await speakers.label(0.3, 9.8)).toBe('Other side');
      expect(await speakers.label(11.8, 19.8)).toBe('Other side');
    } finally {
      await speakers.close();
    }
  }, scaled(60_000));
});
