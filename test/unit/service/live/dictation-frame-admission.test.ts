/** Which dictation frames are used when audio waits for the recognizer: a fast client is refused, a microphone is not. */
import { describe, expect, it } from 'vitest';
import { admitDictationFrame, REAL_TIME_SLACK_SECONDS, type FrameAdmissionInput } from '../../../../src-main/service/live/dictation-frame-admission.js';

const BPS = 32_000;
const FRAME = 0.1 * BPS;
const base: FrameAdmissionInput = { waitingBytes: 0, receivedBytes: 0, frameBytes: FRAME, bytesPerSecond: BPS, elapsedMs: 0, maxBufferedSeconds: 10, maxLagSeconds: 120 };

describe('dictation frame admission', () => {
  it('uses every frame while little audio waits, however fast the client sends', () => {
    expect(admitDictationFrame({ ...base, waitingBytes: 9.8 * BPS, receivedBytes: 60 * BPS, elapsedMs: 1000 })).toEqual({ use: true });
  });

  it('refuses a client far ahead of the clock once more than maxBufferedSeconds wait', () => {
    expect(admitDictationFrame({ ...base, waitingBytes: 10 * BPS, receivedBytes: 40 * BPS, elapsedMs: 1000 })).toEqual({ use: false, why: 'faster_than_real_time' });
  });

  it('keeps a real-time client\'s audio while the recognizer is behind, up to maxLagSeconds', () => {
    // 60 s said in 60 s, 30 s of it still waiting: a busy computer, not a fast client.
    expect(admitDictationFrame({ ...base, waitingBytes: 30 * BPS, receivedBytes: 60 * BPS, elapsedMs: 60_000 })).toEqual({ use: true });
    // A microphone's pre-roll or a socket flushing after a stall: within the slack.
    const ahead = (REAL_TIME_SLACK_SECONDS - 0.2) * 1000;
    expect(admitDictationFrame({ ...base, waitingBytes: 30 * BPS, receivedBytes: 60 * BPS, elapsedMs: 60_000 - ahead })).toEqual({ use: true });
    expect(admitDictationFrame({ ...base, waitingBytes: 120 * BPS, receivedBytes: 600 * BPS, elapsedMs: 600_000 })).toEqual({ use: false, why: 'recognizer_behind' });
  });

  it('a lag bound below the buffer bound never refuses what the buffer allows', () => {
    expect(admitDictationFrame({ ...base, maxLagSeconds: 1, waitingBytes: 5 * BPS, receivedBytes: 60 * BPS, elapsedMs: 60_000 })).toEqual({ use: true });
  });
});
