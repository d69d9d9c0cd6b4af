/** Display formatting shared by the tabs (src-renderer/src/shared/format.ts). */
import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, formatLanguages, formatUsd } from '../../../../src-renderer/src/shared/format.js';

describe('formatting', () => {
  it('formats clocks, sizes, prices and language lists', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(71.9)).toBe('1:11');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatBytes(103_000_000)).toBe('103 MB');
    expect(formatBytes(1500)).toBe('1.5 kB');
    expect(formatBytes(null)).toBe('—');
    expect(formatUsd(0)).toBe('Free');
    expect(formatUsd(0.0533)).toBe('$0.05');
    expect(formatUsd(0.0012)).toBe('$0.0012');
    expect(formatLanguages(['en', 'de', 'fr', 'es', 'it', 'pt'])).toBe('en, de, fr, es +2');
    expect(formatLanguages([])).toBe('any');
  });
});
