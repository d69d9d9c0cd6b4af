/**
 * Re-transcribing a range (issue 29.2): the request checked field by field, the range snapped outward to segment
 * edges, and the result put in place of the segments it covers with every segment numbered again in time order.
 */
import { describe, expect, it } from 'vitest';
import type { RevisionSegment } from '../../../../src-main/common/transcript-types.js';
import { parseRetranscribeRequest, snapRange } from '../../../../src-main/jobs/transcripts/retranscription.js';
import { replaceRange } from '../../../../src-main/jobs/transcripts/transcript-edit.js';

function seg(index: number, start: number, end: number, text: string, speaker: string | null = null): RevisionSegment {
  const words = text.split(' ').map((word, i, all) => ({ word, start: start + ((end - start) * i) / all.length, end: start + ((end - start) * (i + 1)) / all.length }));
  return { index, start, end, text, speaker, words };
}

const SEGMENTS = [seg(0, 0, 3, 'good morning all', 'A'), seg(1, 3.5, 6, 'the budget is ready', 'B'), seg(2, 6.2, 9, 'thank you', 'A'), seg(3, 10, 12, 'any questions', 'B')];

describe('parseRetranscribeRequest', () => {
  it('takes start, end, model and params', () => {
    expect(parseRetranscribeRequest({ start: 1, end: 2.5, model: 'm', params: { language: 'en' } })).toEqual({ start: 1, end: 2.5, model: 'm', params: { language: 'en' } });
    expect(parseRetranscribeRequest({ start: 0, end: 1, model: 'm' }).params).toEqual({});
  });
  it.each([
    [{ start: 1, end: 2, model: 'm', extra: 1 }, 'unsupported_param', /unknown field "extra"/],
    [{ end: 2, model: 'm' }, 'invalid_request', /start must be a number/],
    [{ start: -1, end: 2, model: 'm' }, 'invalid_request', /start must be a number/],
    [{ start: 1, end: '2', model: 'm' }, 'invalid_request', /end must be a number/],
    [{ start: 2, end: 2, model: 'm' }, 'invalid_request', /must be after start/],
    [{ start: 1, end: 2 }, 'model_required', /model is required/],
    [{ start: 1, end: 2, model: 3 }, 'invalid_request', /model must be/],
    [{ start: 1, end: 2, model: 'm', params: [] }, 'invalid_request', /params must be an object/],
  ])('refuses %j with %s', (body, code, message) => {
    expect(() => parseRetranscribeRequest(body as Record<string, unknown>)).toThrow(expect.objectContaining({ code, message: expect.stringMatching(message) }));
  });
});

describe('snapRange', () => {
  it('widens the range to the edges of the segments it touches', () => {
    expect(snapRange(SEGMENTS, 4, 7)).toEqual({ start: 3.5, end: 9, first: 1, last: 2 });
    expect(snapRange(SEGMENTS, 4, 4.5)).toEqual({ start: 3.5, end: 6, first: 1, last: 1 });
    expect(snapRange(SEGMENTS, 0, 100)).toEqual({ start: 0, end: 12, first: 0, last: 3 });
  });
  it('a range in a gap between segments touches none and is refused', () => {
    expect(() => snapRange(SEGMENTS, 9.1, 9.9)).toThrow(/no segment lies between 9.1 and 9.9 s \(the transcript runs from 0 to 12 s\)/);
    expect(() => snapRange([], 0, 1)).toThrow(/the transcript has no segments/);
  });
  it('a segment touched only at its edge is not taken', () => {
    expect(snapRange(SEGMENTS, 3, 6)).toEqual({ start: 3.5, end: 6, first: 1, last: 1 });
  });
});

describe('replaceRange', () => {
  const base = { speakers: { A: 'Anna', B: 'B' }, segments: SEGMENTS };
  it('puts the new segments in place of the range, numbered again, keeping the overlapped speaker', () => {
    const replacement = [seg(0, 3.5, 5, 'the budget'), seg(1, 5.1, 7, 'is ready thank'), seg(2, 7.5, 9, 'you')];
    const { body, firstChanged } = replaceRange(base, { start: 3.5, end: 9 }, replacement);
    expect(firstChanged).toBe(1);
    expect(body.segments.map((s) => [s.index, s.start, s.end, s.text, s.speaker])).toEqual([
      [0, 0, 3, 'good morning all', 'A'],
      [1, 3.5, 5, 'the budget', 'B'],
      [2, 5.1, 7, 'is ready thank', 'B'],
      [3, 7.5, 9, 'you', 'A'],
      [4, 10, 12, 'any questions', 'B'],
    ]);
    expect(body.segments[1]!.words).toEqual(replacement[0]!.words);
    expect(body.speakers).toEqual({ A: 'Anna', B: 'B' });
    // The base is untouched (the old revision stays as it was).
    expect(base.segments.map((s) => s.index)).toEqual([0, 1, 2, 3]);
  });
  it('a range recognised as silence leaves no segment there', () => {
    const { body } = replaceRange(base, { start: 3.5, end: 6 }, []);
    expect(body.segments.map((s) => s.text)).toEqual(['good morning all', 'thank you', 'any questions']);
    expect(body.segments.map((s) => s.index)).toEqual([0, 1, 2]);
  });
});
