import { describe, expect, it } from 'vitest';
import { otherSideNumber } from '../../../../src-renderer/src/capture/meeting-capture.svelte.js';

describe('a meeting line\'s speaker in the page', () => {
  it('shows the other side\'s provisional speaker by number, and "You" and an unnumbered other side by side', () => {
    expect(otherSideNumber({ side: 'system', speaker: 'Other side 2' })).toBe(2);
    expect(otherSideNumber({ side: 'system', speaker: 'Other side' })).toBeNull();
    expect(otherSideNumber({ side: 'microphone', speaker: 'You' })).toBeNull();
    expect(otherSideNumber({ side: 'microphone', speaker: 'Other side 1' })).toBeNull();
  });
});
