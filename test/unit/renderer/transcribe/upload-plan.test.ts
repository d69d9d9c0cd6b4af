/** How dropped files are sent (src-renderer/src/transcribe/upload-plan.ts, dropped-files.ts). */
import { describe, expect, it } from 'vitest';
import { isMediaName } from '../../../../src-renderer/src/transcribe/dropped-files.js';
import { planUploads } from '../../../../src-renderer/src/transcribe/upload-plan.js';

describe('uploads', () => {
  it('sends one file alone and many in batches of at most 50', () => {
    expect(planUploads([])).toEqual([]);
    expect(planUploads([1])).toEqual([{ kind: 'single', items: [1] }]);
    const plans = planUploads(Array.from({ length: 101 }, (_, i) => i));
    expect(plans.map((p) => [p.kind, p.items.length])).toEqual([['batch', 50], ['batch', 50], ['single', 1]]);
  });

  it('keeps media files when walking folders', () => {
    expect(isMediaName('Interview 01.M4A')).toBe(true);
    expect(isMediaName('notes.txt')).toBe(false);
  });
});
