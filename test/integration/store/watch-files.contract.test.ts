/**
 * The watch folders' record of files on both backends: one row per version of a file, found again by its identity or
 * its content; state changes only from the state they expect.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS, useStore } from './store-fixture.js';

const version = (path: string, mtimeMs = 1_777_000_000_123.7) => ({ folder: '/watch', path, sizeBytes: 5_000_000_000, mtimeMs });
const SHA = 'a'.repeat(64);

describe.each(BACKENDS)('watch files on %s', (backend) => {
  const fx = useStore(backend);

  it('records queued, duplicate and failed files, finds a version again and a copy by content', async () => {
    const { watchFiles } = fx.store.repos;
    const first = await watchFiles.insertQueued(version('/watch/a.wav'), SHA, 'job_1', { formats: ['srt', 'txt'], outputDir: '/out' });
    expect(first).toBe(1);
    const row = await watchFiles.seen(version('/watch/a.wav'));
    expect(row).toEqual({
      id: 1, folder: '/watch', path: '/watch/a.wav', size_bytes: 5_000_000_000, mtime_ms: 1_777_000_000_123, sha256: SHA, state: 'queued', job_id: 'job_1',
      duplicate_of: null, error_code: null, error_message: null, formats_json: '["srt","txt"]', output_dir: '/out', outputs_json: '[]',
      seen_at: '2026-05-01T12:00:00.000Z', updated_at: '2026-05-01T12:00:00.000Z',
    });
    expect(await watchFiles.seen(version('/watch/a.wav', 1))).toBeUndefined();
    await expect(watchFiles.insertQueued(version('/watch/a.wav'), SHA, 'job_2', { formats: [], outputDir: null })).rejects.toThrow();
    expect(await watchFiles.sameContent('/watch', SHA)).toEqual(row);
    expect(await watchFiles.sameContent('/other', SHA)).toBeUndefined();
    const copy = await watchFiles.insertDuplicate(version('/watch/copy.wav'), SHA, row!);
    expect(await watchFiles.seen(version('/watch/copy.wav'))).toMatchObject({ id: copy, state: 'duplicate', job_id: 'job_1', duplicate_of: 1 });
    const failed = await watchFiles.insertFailed(version('/watch/huge.wav'), null, 'file_too_large', 'too large');
    expect(await watchFiles.seen(version('/watch/huge.wav'))).toMatchObject({ id: failed, sha256: null, state: 'failed', error_code: 'file_too_large', formats_json: '[]', output_dir: null });
    await expect(watchFiles.insertFailed(version('/watch/bad.wav'), 'short', 'x', 'y')).rejects.toThrow();
    expect(copy).toBeGreaterThan(first);
    expect(failed).toBeGreaterThan(copy);
  });

  it('moves queued files to done or failed once, continues failed ones with a retry, and counts by folder', async () => {
    const { watchFiles } = fx.store.repos;
    const a = await watchFiles.insertQueued(version('/watch/a.wav'), SHA, 'job_1', { formats: ['srt'], outputDir: null });
    const b = await watchFiles.insertQueued(version('/watch/b.wav'), 'b'.repeat(64), 'job_2', { formats: ['txt'], outputDir: null });
    await watchFiles.insertQueued({ ...version('/elsewhere/c.wav'), folder: '/elsewhere' }, 'c'.repeat(64), 'job_3', { formats: [], outputDir: null });
    expect((await watchFiles.queued()).map((r) => r.id)).toEqual([a, b, 3]);
    expect((await watchFiles.queuedForJob('job_2')).map((r) => r.id)).toEqual([b]);
    fx.clock.advance(1000);
    await watchFiles.markDone(a, ['/watch/a.srt']);
    await watchFiles.markFailed(a, 'x', 'not from done');
    expect(await watchFiles.seen(version('/watch/a.wav'))).toMatchObject({ state: 'done', outputs_json: '["/watch/a.srt"]', error_code: null, updated_at: '2026-05-01T12:00:01.000Z' });
    await watchFiles.markFailed(b, 'engine_failed', 'it broke', ['/watch/b.part.txt']);
    fx.clock.advance(1000);
    expect(await watchFiles.lastFailure('/watch')).toMatchObject({ id: b, error_code: 'engine_failed', outputs_json: '["/watch/b.part.txt"]' });
    expect(await watchFiles.lastFailure('/elsewhere')).toBeUndefined();
    expect(await watchFiles.sameContent('/watch', 'b'.repeat(64))).toBeUndefined(); // a failed file does not count
    expect(Object.fromEntries(await watchFiles.countsByFolder())).toEqual({
      '/watch': { queued: 0, done: 1, failed: 1, duplicate: 0 },
      '/elsewhere': { queued: 1, done: 0, failed: 0, duplicate: 0 },
    });
    expect(await watchFiles.continueWith('job_2', 'job_4')).toBe(1);
    expect(await watchFiles.continueWith('job_2', 'job_4')).toBe(0);
    expect(await watchFiles.seen(version('/watch/b.wav'))).toMatchObject({ state: 'queued', job_id: 'job_4', error_code: null, error_message: null, updated_at: '2026-05-01T12:00:02.000Z' });
  });
});
