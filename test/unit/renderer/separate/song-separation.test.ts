/**
 * The Separate action's state (src-renderer/src/separate/song-separation.svelte.ts) against a real service with the
 * page's AppState as host: the tiny Spleeter model imported through the service's route, a stereo song split into
 * its two stems, and a file that is not audio ending in a failed job the card shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { SongSeparation, stemsOf } from '../../../../src-renderer/src/separate/song-separation.svelte.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../../helpers/generated-models.js';
import { useConnectedApp } from '../../../helpers/renderer-host.js';
import { scaled } from '../../../helpers/time-scale.js';

const ctx = useConnectedApp({ workers: 1, holdSeconds: 30 });

beforeAll(async () => {
  const r = await ctx.app.api.raw('POST', '/v1/local/models/import', { path: generatedModel('spleeter-2stems', PRODUCT_MODELS_SCRIPT), id: 'tiny-spleeter' });
  expect(r.status).toBe(202);
  await ctx.svc.service.models.whenImported('tiny-spleeter');
  await ctx.app.loadModels();
}, scaled(120_000));

function song(seconds: number): File {
  const n = Math.round(seconds * 44100);
  const channel = (p: number) => Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin(i / p));
  return new File([new Uint8Array(encodeWav([channel(9), channel(13)], 44100))], 'song.wav', { type: 'audio/wav' });
}

describe('SongSeparation', () => {
  it('offers the imported model and splits a song into vocals and accompaniment', { timeout: scaled(120_000) }, async () => {
    expect(ctx.app.available('stem_separation').map((m) => m.id)).toContain('tiny-spleeter');
    const separation = new SongSeparation(() => ctx.app.api);
    separation.choose(song(2));
    await separation.run('tiny-spleeter', 50);
    expect(separation.error).toBeNull();
    expect(separation.running).toBe(false);
    expect(separation.job).toMatchObject({ status: 'succeeded', name: 'song.wav', product: 'stem-separation' });
    expect(separation.stems.map((s) => s.stem)).toEqual(['vocals', 'accompaniment']);
    for (const { artifact } of separation.stems) expect(artifact.content_type).toBe('audio/wav');
  });

  it('ends with the failed job when the file is not audio, and keeps no stems', { timeout: scaled(120_000) }, async () => {
    const separation = new SongSeparation(() => ctx.app.api);
    separation.choose(new File(['not audio\n'.repeat(50)], 'notes.wav'));
    await separation.run('tiny-spleeter', 50);
    expect(separation.job).toMatchObject({ status: 'failed', error_code: 'audio_decode_failed' });
    expect(separation.stems).toEqual([]);
  });

  it('names stems by position when a job does not list them', () => {
    const artifact = { url: 'u', content_type: 'audio/wav', bytes: 1, duration_seconds: null, sample_rate: null, channels: null, expires_at: '' };
    expect(stemsOf({ result: { artifacts: [artifact, { ...artifact, url: 'v' }] } } as never).map((s) => s.stem)).toEqual(['1', '2']);
    expect(stemsOf(null)).toEqual([]);
  });
});
