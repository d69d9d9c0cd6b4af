/**
 * A SIGKILL of `voxdesk serve` while it separates a long recording: the job left running is requeued when the
 * service starts again on the same data dir, runs from the start, and ends with both stems of the recording's full
 * length — nothing half-written is served. The tiny Spleeter model is imported through the model manager's route.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../../src-main/common/api-types.js';
import { decodeWav, encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../../helpers/generated-models.js';
import { Client, json, type Part } from '../../../helpers/http-client.js';
import { startServeProcess, stopServe, type ServeProcess } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until as waitUntil } from '../../../helpers/wait.js';

const KEY = 'vdk_' + 'S'.repeat(32);
const RATE = 16000;
const SECONDS = 5 * 60;

let serve: ServeProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await stopServe(serve);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const until = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = scaled(120_000)): Promise<T> =>
  waitUntil(what, read, done, { timeoutMs, everyMs: 100 });

describe('a SIGKILL during a stem-separation job', () => {
  it('requeues the job on restart and finishes it with whole stems', { timeout: scaled(600_000) }, async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-stems-kill-'));
    serve = await startServeProcess(dataDir, [], { VOXDESK_API_KEY: KEY });
    let api = new Client(serve.url, KEY);
    const imported = await api.postJson('/v1/local/models/import', { path: generatedModel('spleeter-2stems', PRODUCT_MODELS_SCRIPT), id: 'tiny-spleeter' });
    expect(imported.status, await imported.clone().text()).toBe(202);
    await until('the import', () => json<{ state: string }>(api.get('/v1/local/models/tiny-spleeter')), (m) => m.state === 'installed');

    const n = SECONDS * RATE;
    const mono = Float32Array.from({ length: n }, (_, i) => 0.3 * Math.sin(i / 7) * Math.sin(i / 9000));
    const parts: Part[] = [
      { name: 'model', value: 'tiny-spleeter' },
      { name: 'file', file: { name: 'long-song.wav', data: new Uint8Array(encodeWav([mono], RATE)) } },
    ];
    const batch = await json<Batch>(api.postForm('/v1/stem-separation/batch', parts));
    const jobId = (
      await until('the batch item', () => json<Batch>(api.get(`/v1/stem-separation/batch/${batch.id}`)), (b) => !!b.files[0]?.job_id)
    ).files[0]!.job_id!;
    const running = await until('the job to run', () => json<Job>(api.get(`/v1/stem-separation/${jobId}`)), (j) => j.status !== 'queued' && (j.status !== 'running' || (j.progress ?? 0) > 0));
    expect(running.status, JSON.stringify(running)).toBe('running');

    serve.child.kill('SIGKILL');
    expect((await serve.exited).signal).toBe('SIGKILL');

    serve = await startServeProcess(dataDir, [], { VOXDESK_API_KEY: KEY });
    api = new Client(serve.url, KEY);
    const job = await until('the job to end after the restart', () => json<Job>(api.get(`/v1/stem-separation/${jobId}`)), (j) => ['succeeded', 'failed', 'cancelled'].includes(j.status), scaled(300_000));
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result?.stems).toEqual(['vocals', 'accompaniment']);
    for (const artifact of job.result!.artifacts!) {
      const r = await fetch(artifact.url.startsWith('http') ? artifact.url : serve.url + artifact.url);
      expect(r.status).toBe(200);
      const wav = decodeWav(new Uint8Array(await r.arrayBuffer()));
      expect(wav.sampleRate).toBe(RATE);
      expect(wav.channels[0]!.length).toBe(n);
    }
  });
});
