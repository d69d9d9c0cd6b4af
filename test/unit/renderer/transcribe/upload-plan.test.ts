/** How dropped files are sent and how a held POST finds its job (src-renderer/src/transcribe/upload-plan.ts, dropped-files.ts). */
import { describe, expect, it } from 'vitest';
import { isMediaName } from '../../../../src-renderer/src/transcribe/dropped-files.js';
import { matchJob, planUploads } from '../../../../src-renderer/src/transcribe/upload-plan.js';

describe('uploads', () => {
  it('sends one file alone and many in batches of at most 50', () => {
    expect(planUploads([])).toEqual([]);
    expect(planUploads([1])).toEqual([{ kind: 'single', items: [1] }]);
    const plans = planUploads(Array.from({ length: 101 }, (_, i) => i));
    expect(plans.map((p) => [p.kind, p.items.length])).toEqual([['batch', 50], ['batch', 50], ['single', 1]]);
  });

  it('matches a held POST to its job by name and time, never twice', () => {
    const jobs = [
      { id: 'old', name: 'a.wav', created_at: '2026-01-01T00:00:00Z' },
      { id: 'j1', name: 'a.wav', created_at: '2026-01-01T00:10:00Z' },
      { id: 'j2', name: 'a.wav', created_at: '2026-01-01T00:10:01Z' },
    ];
    const sent = Date.parse('2026-01-01T00:10:00Z');
    expect(matchJob(jobs, 'a.wav', sent, new Set())?.id).toBe('j1');
    expect(matchJob(jobs, 'a.wav', sent, new Set(['j1']))?.id).toBe('j2');
    expect(matchJob(jobs, 'b.wav', sent, new Set())).toBeUndefined();
  });

  it('keeps media files when walking folders', () => {
    expect(isMediaName('Interview 01.M4A')).toBe(true);
    expect(isMediaName('notes.txt')).toBe(false);
  });
});
