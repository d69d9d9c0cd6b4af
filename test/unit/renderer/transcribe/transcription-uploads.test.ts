/**
 * The Transcribe tab's uploads (src-renderer/src/lib/transcription-uploads.svelte.ts) against a real service over
 * loopback, with the page's own AppState as host (its poller, merged lists and indexes): single files, batches, the
 * wait while two batches are open and its cancel, a refused upload retried with another model.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../../../src-renderer/src/shared/service/app-state.svelte.js';
import { TranscriptionUploads, type UploadItem } from '../../../../src-renderer/src/transcribe/transcription-uploads.svelte.js';
import { connectedAppState, until } from '../../../helpers/renderer-host.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';

let svc: TestService;
let app: AppState;

beforeAll(async () => {
  svc = await startTestService({ workers: 2 });
});
afterAll(async () => {
  await svc?.stop();
});
afterEach(() => app?.stopPolling());

function connectedApp(): AppState {
  app = connectedAppState(svc);
  return app;
}

const clip = (name: string, bytes = 2000): File => new File([new Uint8Array(bytes).fill(7)], name, { type: 'audio/wav' });

/** A batch of two test-engine items that each sleep `ms`, posted directly: it stays open that long. */
async function openSlowBatch(ms: number): Promise<string> {
  const form = new FormData();
  form.append('model', 'test-asr');
  form.append('params', JSON.stringify({ behaviour: 'sleep', ms }));
  form.append('file', clip('slow-1.wav'), 'slow-1.wav');
  form.append('file', clip('slow-2.wav'), 'slow-2.wav');
  const res = await fetch(`${svc.url}/v1/speech-to-text/batch`, { method: 'POST', headers: { authorization: `Bearer ${svc.key}` }, body: form });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const statuses = (uploads: TranscriptionUploads, items: UploadItem[]): string[] => items.map((i) => uploads.statusOf(i));

describe('TranscriptionUploads', () => {
  it('sends one file on the single route and follows its job to the end', async () => {
    const host = connectedApp();
    const uploads = new TranscriptionUploads(host);
    const [item] = uploads.add([clip('one.wav')], 'test-asr');
    expect(uploads.statusOf(item!)).toBe('pending');
    await until(() => uploads.statusOf(uploads.items[0]!) === 'succeeded', 'the job');
    const row = uploads.items[0]!;
    expect(row).toMatchObject({ phase: 'sent', batchId: null, error: null });
    expect(host.jobById(row.jobId)).toMatchObject({ name: 'one.wav', model_id: 'test-asr', status: 'succeeded' });
  });

  it('sends the params it was given (speaker separation), alone and in a batch', async () => {
    const host = connectedApp();
    const uploads = new TranscriptionUploads(host);
    uploads.add([clip('alone.wav')], 'test-asr', null, { speaker_diarization: true });
    uploads.add([clip('pair-1.wav'), clip('pair-2.wav')], 'test-asr', null, { speaker_diarization: true });
    await until(() => statuses(uploads, uploads.items).every((s) => s === 'succeeded'), 'the jobs');
    for (const item of uploads.items) {
      expect(JSON.parse(svc.service.repos.jobs.get(item.jobId!)!.params_json)).toMatchObject({ speaker_diarization: true });
    }
    expect(uploads.items[1]!.batchId).not.toBeNull();
  });

  it('sends several files as one batch; each row finds its item and job', async () => {
    const host = connectedApp();
    const uploads = new TranscriptionUploads(host);
    uploads.add([clip('a.wav'), clip('b.wav'), clip('c.wav')], 'test-asr');
    await until(() => statuses(uploads, uploads.items).every((s) => s === 'succeeded'), 'the batch');
    const [a, b, c] = uploads.items;
    expect(new Set([a!.batchId, b!.batchId, c!.batchId]).size).toBe(1);
    expect([a!.batchIndex, b!.batchIndex, c!.batchIndex]).toEqual([0, 1, 2]);
    expect(uploads.batchFileOf(b!)).toMatchObject({ name: 'b.wav', job_id: b!.jobId });
    expect(host.batchById(a!.batchId)).toMatchObject({ file_count: 3, succeeded: 3 });
    uploads.clearFinished();
    expect(uploads.items).toEqual([]);
  });

  it('a batch refused while two are open waits, then goes', async () => {
    const host = connectedApp();
    await openSlowBatch(1500);
    await openSlowBatch(1500);
    const uploads = new TranscriptionUploads(host, { batchRetryMs: 200 });
    const phases = new Set<string>();
    uploads.add([clip('late-1.wav'), clip('late-2.wav')], 'test-asr');
    await until(() => {
      for (const item of uploads.items) phases.add(item.phase);
      return statuses(uploads, uploads.items).every((s) => s === 'succeeded');
    }, 'the third batch', scaled(60_000));
    expect(phases).toContain('waiting');
    expect(uploads.items.every((i) => i.error === null)).toBe(true);
  });

  it('cancelAll while a batch waits for a free slot: its rows end cancelled', async () => {
    const host = connectedApp();
    await until(() => host.jobsLoaded && host.batches.every((b) => b.status !== 'open'), 'earlier batches to finish', scaled(60_000));
    // The two open batches must outlast the upload on a loaded machine (they are cancelled at the end).
    const slow = [await openSlowBatch(60_000), await openSlowBatch(60_000)];
    const uploads = new TranscriptionUploads(host, { batchRetryMs: 200 });
    uploads.add([clip('never-1.wav'), clip('never-2.wav')], 'test-asr');
    // sentAt is set when an upload starts: 'waiting' after it is the wait for a free batch slot.
    await until(() => uploads.items.every((i) => i.phase === 'waiting' && i.sentAt > 0), 'the wait');
    uploads.cancelAll();
    await until(() => uploads.items.every((i) => i.phase === 'rejected'), 'the cancel');
    expect(uploads.items.map((i) => i.error?.code)).toEqual(['cancelled', 'cancelled']);
    expect(statuses(uploads, uploads.items)).toEqual(['failed', 'failed']);
    for (const id of slow) await host.api.cancelBatch('speech-to-text', id); // free the workers for the next test
  });

  it('cancelAll right after a drop: nothing is sent', async () => {
    const host = connectedApp();
    const uploads = new TranscriptionUploads(host);
    const before = (await host.api.listJobs({ limit: 100 })).data.length;
    uploads.add([clip('dropped-1.wav'), clip('dropped-2.wav')], 'test-asr');
    uploads.cancelAll();
    await until(() => uploads.items.every((i) => i.phase === 'rejected'), 'the cancel');
    expect(uploads.items.map((i) => i.error?.code)).toEqual(['cancelled', 'cancelled']);
    expect((await host.api.listJobs({ limit: 100 })).data.length).toBe(before);
  });

  it('a file refused by the service is shown with its error and retried with another model', async () => {
    const host = connectedApp();
    const uploads = new TranscriptionUploads(host);
    uploads.add([clip('big.wav', 100 * 1024)], 'test-asr-small'); // over that model's 64 KB limit
    await until(() => uploads.items[0]!.phase === 'rejected', 'the refusal');
    expect(uploads.statusOf(uploads.items[0]!)).toBe('failed');
    expect(uploads.items[0]!.error).toMatchObject({ code: 'file_too_large' });
    await uploads.retry(uploads.items[0]!, 'test-asr');
    await until(() => uploads.statusOf(uploads.items[0]!) === 'succeeded', 'the retried job');
    expect(uploads.items[0]!.error).toBeNull();
  });
});
