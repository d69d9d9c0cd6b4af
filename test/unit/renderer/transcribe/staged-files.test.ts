/** Recordings staged for a hosted model with their lengths (src-renderer/src/transcribe/staged-files.svelte.ts). */
import { describe, expect, it } from 'vitest';
import { StagedFiles } from '../../../../src-renderer/src/transcribe/staged-files.svelte.js';
import { until } from '../../../helpers/renderer-host.js';

describe('StagedFiles', () => {
  it('measures each file, keeps the order, and hands them over once', async () => {
    const lengths = new Map<string, number | null>([['a.wav', 11], ['b.webm', null], ['c.mp3', 60.5]]);
    const staged = new StagedFiles(async (file) => lengths.get(file.name) ?? null);
    staged.add([...lengths.keys()].map((name) => new File([new Uint8Array(10)], name)));
    await until(() => staged.measuring === 0, 'the lengths');
    expect(staged.seconds).toEqual([11, null, 60.5]);
    expect(staged.knownSeconds).toBe(71.5);
    expect(staged.unknown).toBe(1);
    expect(staged.take().map((f) => f.name)).toEqual(['a.wav', 'b.webm', 'c.mp3']);
    expect(staged.files).toEqual([]);
  });
});
