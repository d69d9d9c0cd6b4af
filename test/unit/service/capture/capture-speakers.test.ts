import { describe, expect, it } from 'vitest';
import { labelTurns, NOT_DIARIZED_MESSAGE, oneOtherSide, type OtherSideLabels } from '../../../../src-main/service/capture/capture-speakers.js';
import { speakerAt } from '../../../../src-main/engines/asr/diarization.js';
import { captureTranscript } from '../../../../src-main/service/capture/capture-transcript.js';
import type { CaptureFinal } from '../../../../src-main/service/capture/capture-journal.js';

const finals: CaptureFinal[] = [
  { side: 'microphone', segmentId: 0, start: 0.5, end: 2, text: 'hello everyone' },
  { side: 'system', segmentId: 0, start: 2.5, end: 5, text: 'hi there', speaker: 'Other side 1' },
  { side: 'system', segmentId: 1, start: 6, end: 9, text: 'good morning' },
  { side: 'microphone', segmentId: 1, start: 9.5, end: 11, text: 'shall we start' },
  { side: 'system', segmentId: 2, start: 11.5, end: 13, text: 'yes please' },
];
const options = { duration: 14, language: 'en', granularity: 'segment' as const };

describe('the other side\'s speakers in a capture\'s job', () => {
  it('numbers diarization\'s speakers in the order they first speak, whatever sherpa-onnx called them', () => {
    const { turns, labelOf } = labelTurns([
      { start: 6, end: 9.2, speaker: 'SPEAKER_0' },
      { start: 2.4, end: 5.1, speaker: 'SPEAKER_1' },
      { start: 11.4, end: 13, speaker: 'SPEAKER_1' },
    ]);
    expect(Object.fromEntries(labelOf)).toEqual({ SPEAKER_1: 'Other side 1', SPEAKER_0: 'Other side 2' });
    expect(turns.map((t) => t.speaker)).toEqual(['Other side 2', 'Other side 1', 'Other side 1']);
  });

  it('labels each of the other side\'s segments with its diarized speaker, and "You" stays one speaker', () => {
    const { turns } = labelTurns([
      { start: 2.4, end: 5.1, speaker: 'SPEAKER_1' },
      { start: 6, end: 9.2, speaker: 'SPEAKER_0' },
      { start: 11.4, end: 13, speaker: 'SPEAKER_1' },
    ]);
    const otherSide: OtherSideLabels = {
      speakerOf: (f) => speakerAt(turns, f.start, f.end) ?? 'Other side',
      speakerNames: { 'Other side 2': 'Anna' },
      voices: [],
      diarization: { status: 'diarized', speakers: 2 },
    };
    const result = captureTranscript(finals, options, otherSide);
    expect(result.segments!.map((s) => [s.speaker, s.text])).toEqual([
      ['You', 'hello everyone'],
      ['Other side 1', 'hi there'],
      ['Other side 2', 'good morning'],
      ['You', 'shall we start'],
      ['Other side 1', 'yes please'],
    ]);
    expect(result.speaker_names).toEqual({ 'Other side 2': 'Anna' });
    expect(result.speaker_diarization).toEqual({ status: 'diarized', speakers: 2 });
  });

  it('without the speaker models the other side is one speaker (a live label too), and the result says why', () => {
    const result = captureTranscript(finals, options, oneOtherSide({ status: 'not_available', message: NOT_DIARIZED_MESSAGE }));
    expect(new Set(result.segments!.map((s) => s.speaker))).toEqual(new Set(['You', 'Other side']));
    expect(result.speaker_names).toBeUndefined();
    expect(result.speaker_diarization).toEqual({ status: 'not_available', message: expect.stringContaining('not installed') });
  });
});
