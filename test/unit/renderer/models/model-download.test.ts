/**
 * One package's download as the page follows it (src-renderer/src/models/model-download.svelte.ts), against a real
 * service whose model manager downloads from a local server: a download that cannot reach its server fails with the
 * reason in words (the Dictate panel's Silero VAD and the welcome screen show it), and one through a server that works
 * is followed to installed with its progress.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CURATED_PACKAGES } from '../../../../src-main/models/packages/curated-models.js';
import { ModelDownload } from '../../../../src-renderer/src/models/model-download.svelte.js';
import { startRangeServer } from '../../../helpers/range-server.js';
import { useConnectedApp } from '../../../helpers/renderer-host.js';
import { scaled } from '../../../helpers/time-scale.js';

const vad = CURATED_PACKAGES.find((p) => p.id === 'silero-vad-v5')!;
const BODY = Buffer.from('not really a model, but the bytes the pin says');
const server = await startRangeServer({ '/silero-vad-v5/silero_vad.onnx': { body: BODY, slowChunkMs: 20, chunkBytes: 8 } });
const { createHash } = await import('node:crypto');
const ok = { ...vad, id: 'vad-here', files: [{ ...vad.files[0]!, url: `${server.url}/silero-vad-v5/silero_vad.onnx`, sha256: createHash('sha256').update(BODY).digest('hex'), sizeBytes: BODY.length }] };
const unreachable = { ...vad, id: 'vad-nowhere', files: [{ ...vad.files[0]!, url: 'http://127.0.0.1:9/silero_vad.onnx' }] };
const ctx = useConnectedApp({ modelPackages: [ok, unreachable] });
afterAll(() => server.close());

describe('ModelDownload', () => {
  it('says why a download that cannot reach its server failed, in words', async () => {
    const download = new ModelDownload(ctx.app, 'vad-nowhere');
    expect(await download.start()).toBe(false);
    expect(download.phase).toBe('failed');
    expect(download.couldNotStart).toBe(true);
    expect(download.errorCode).toBe('download_failed');
    expect(download.error).toMatch(/^The download failed\. Check the connection/);
  }, scaled(120_000));

  it('follows a download to installed, with its progress', async () => {
    const seen: number[] = [];
    const download = new ModelDownload(ctx.app, 'vad-here', () => void seen.push(-1));
    const watch = setInterval(() => download.progress !== null && seen.push(download.progress), 10);
    try {
      expect(await download.start()).toBe(true);
    } finally {
      clearInterval(watch);
    }
    expect(download.phase).toBe('installed');
    expect(download.error).toBeNull();
    expect(seen.at(-1)).toBe(-1); // told once installed
  }, scaled(120_000));
});
