/**
 * Artifacts, the history sweep's reads and deletions, the model manager's tables and the hosted-forwarding tables on
 * both backends — and on PostgreSQL two nodes sweeping or ensuring the same rows at once.
 */
import { describe, expect, it } from 'vitest';
import type { ArtifactRow } from '../../../src-main/store/artifacts-repo.js';
import type { InstalledModel } from '../../../src-main/store/models-repo.js';
import type { CatalogueRecord } from '../../../src-main/common/api-types.js';
import { BACKENDS, jobId, jobRow, useStore, type StoreFixture } from './store-fixture.js';

function artifact(jobIdValue: string, id: string, overrides: Partial<ArtifactRow> = {}): ArtifactRow {
  return {
    id, job_id: jobIdValue, token: `tok_${id}`, file_name: 'speech.wav', path: `/data/${id}.wav`, content_type: 'audio/wav', bytes: 5_000_000_000,
    duration_seconds: '1.000', sample_rate: 22050, channels: 1, created_at: '2026-05-01T12:00:00.000Z', expires_at: '2026-05-02T12:00:00.000Z',
    deleted_at: null, ...overrides,
  };
}

async function account(fx: StoreFixture): Promise<string> {
  return (await fx.store.repos.accounts.createAccount('alice')).id;
}

describe.each(BACKENDS)('artifacts and history on %s', (backend) => {
  const fx = useStore(backend);

  it('stores artifacts, finds them by token and job, lists the expired ones and marks them deleted once', async () => {
    const acc = await account(fx);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { status: 'succeeded' }));
    const { artifacts } = fx.store.repos;
    await artifacts.insert(artifact(jobId(1), 'art_2', { created_at: '2026-05-01T12:00:01.000Z', expires_at: '2026-05-02T11:00:00.000Z' }));
    await artifacts.insert(artifact(jobId(1), 'art_1'));
    await expect(artifacts.insert(artifact(jobId(1), 'art_3', { token: 'tok_art_1' }))).rejects.toThrow();
    expect((await artifacts.ofJob(jobId(1))).map((a) => a.id)).toEqual(['art_1', 'art_2']);
    expect(await artifacts.byToken('tok_art_1')).toEqual(artifact(jobId(1), 'art_1'));
    expect(await artifacts.byToken('nope')).toBeUndefined();
    expect((await artifacts.expired('2026-05-02T12:00:00.000Z')).map((a) => a.id)).toEqual(['art_2', 'art_1']);
    expect(await artifacts.expired('2026-05-02T10:59:59.999Z')).toEqual([]);
    await artifacts.markDeleted('art_2', '2026-05-03T00:00:00.000Z');
    await artifacts.markDeleted('art_2', '2026-05-04T00:00:00.000Z');
    expect((await artifacts.byToken('tok_art_2'))!.deleted_at).toBe('2026-05-03T00:00:00.000Z');
    expect((await artifacts.expired('2026-05-05T00:00:00.000Z')).map((a) => a.id)).toEqual(['art_1']);
  });

  it('finds old jobs and batches and deletes them with every row that references them, keeping the ledger', async () => {
    const acc = await account(fx);
    const { jobs, batches, history } = fx.store.repos;
    const finished = (n: number, at: string, extra = {}) => jobRow(acc, jobId(n), { status: 'succeeded', finished_at: at, ...extra });
    await jobs.insert(finished(1, '2026-04-01T00:00:00.000Z'));
    await jobs.insert(finished(2, '2026-03-01T00:00:00.000Z'));
    await jobs.markInputPurged(jobId(2), '2026-03-02T00:00:00.000Z');
    await jobs.insert(finished(3, '2026-04-30T00:00:00.000Z'));
    await jobs.insert(jobRow(acc, jobId(4)));
    await batches.insert({
      id: 'bat_1', account_id: acc, product: 'speech-to-text', model_id: 'tiny', params_json: '{}', status: 'complete', file_count: 1, language: null,
      pending_code: null, pending_message: null, price_json: null, estimated_usd_micro: null, reserved_usd_micro: null, reserved_at: null,
      created_at: '2026-03-01T00:00:00.000Z', finished_at: '2026-04-01T00:00:00.000Z',
    });
    await jobs.insert(finished(5, '2026-04-01T00:00:00.000Z', { batch_id: 'bat_1' }));
    await batches.insertItem({ batch_id: 'bat_1', position: 0, name: null, job_id: jobId(5), pending_input_json: null, estimated_seconds: null });
    expect((await history.oldJobs('2026-04-15T00:00:00.000Z', 10)).map((j) => [j.id, j.input_purged_at])).toEqual([
      [jobId(2), '2026-03-02T00:00:00.000Z'], [jobId(1), null],
    ]);
    expect(await history.oldJobs('2026-04-15T00:00:00.000Z', 1)).toHaveLength(1);
    expect(await history.oldBatches('2026-04-15T00:00:00.000Z', 10)).toEqual(['bat_1']);
    expect(await history.oldBatches('2026-03-15T00:00:00.000Z', 10)).toEqual([]);
    expect((await history.batchJobs('bat_1')).map((j) => j.id)).toEqual([jobId(5)]);

    // Rows that reference job 1 from every table that can.
    await fx.store.repos.artifacts.insert(artifact(jobId(1), 'art_1'));
    await fx.store.repos.artifacts.insert(artifact(jobId(1), 'art_2', { deleted_at: '2026-04-02T00:00:00.000Z' }));
    await fx.store.repos.segments.append({ job_id: jobId(1), idx: 0, start_seconds: 0, end_seconds: 1, resume_seconds: 1, text: 'hi', words_json: null, language: null, created_at: 'x' });
    await fx.store.repos.revisions.insertNext({ job_id: jobId(1), revision: 0, speakers_json: '{}', segments_json: '[]', created_at: 'x' });
    await fx.store.repos.search.insert([{ job_id: jobId(1), account_id: acc, job_created_at: 'x', job_name: 'n', segment_idx: null, start_seconds: null, end_seconds: null, body: 'n' }]);
    await fx.store.repos.search.markPending(jobId(1));
    await fx.store.repos.remoteJobs.ensure({ jobId: jobId(1), endpointUrl: 'https://h', product: 'speech-to-text', remoteModelId: 'm', idempotencyKey: 'k' });
    await fx.store.repos.idempotency.insert({ account_id: acc, key: 'k1', request_hash: 'h', resource_type: 'job', resource_id: jobId(1), created_at: 'x', expires_at: 'y' });
    await fx.store.repos.ledger.charge({ account_id: acc, job_id: jobId(1), batch_id: null, model_id: 'm', product: 'speech-to-text', provider: 'local', kind: 'usage', option_name: '', seconds: 1, amount_usd_micro: 1, created_at: 'x' });
    expect(await history.liveArtifactPaths(jobId(1))).toEqual(['/data/art_1.wav']);

    await fx.store.tx((t) => t.repos.history.deleteJob(jobId(1)));
    expect(await jobs.get(jobId(1))).toBeUndefined();
    expect(await fx.store.repos.artifacts.ofJob(jobId(1))).toEqual([]);
    expect(await fx.store.repos.segments.count(jobId(1))).toBe(0);
    expect(await fx.store.repos.revisions.latest(jobId(1))).toBeUndefined();
    expect(await fx.store.repos.search.hasJob(jobId(1))).toBe(false);
    expect(await fx.store.repos.search.isPending(jobId(1))).toBe(false);
    expect(await fx.store.repos.remoteJobs.get(jobId(1))).toBeUndefined();
    expect(await fx.store.repos.idempotency.find(acc, 'k1', 'a')).toBeUndefined();
    expect(await fx.store.repos.ledger.forAccount(acc)).toHaveLength(1);

    await fx.store.repos.idempotency.insert({ account_id: acc, key: 'kb', request_hash: 'h', resource_type: 'batch', resource_id: 'bat_1', created_at: 'x', expires_at: 'y' });
    await fx.store.tx(async (t) => {
      await t.repos.history.deleteJob(jobId(5));
      await t.repos.history.deleteBatch('bat_1');
    });
    expect(await batches.get('bat_1')).toBeUndefined();
    expect(await batches.items('bat_1')).toEqual([]);
    expect(await fx.store.repos.idempotency.find(acc, 'kb', 'a')).toBeUndefined();
  });

  it('two nodes sweeping the same job at once both succeed and the job is gone', async () => {
    const acc = await account(fx);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { status: 'succeeded', finished_at: '2026-04-01T00:00:00.000Z' }));
    await fx.store.repos.artifacts.insert(artifact(jobId(1), 'art_1'));
    const other = await fx.another();
    await Promise.all([fx.store, other, fx.store, other].map((s) => s.tx((t) => t.repos.history.deleteJob(jobId(1)))));
    expect(await fx.store.repos.jobs.get(jobId(1))).toBeUndefined();
  });
});

describe.each(BACKENDS)('models and hosted forwarding on %s', (backend) => {
  const fx = useStore(backend);
  const model = (id: string, overrides: Partial<InstalledModel> = {}): InstalledModel => ({
    id, source: 'curated', name: `Model ${id}`, description: 'd', family: 'nemo_ctc', capability: 'asr', languages: ['en', 'de'], licence: 'MIT',
    version: '1', dir: `/models/${id}`, files: { model: 'model.onnx', tokens: 'tokens.txt' }, sizeBytes: 3_000_000_000, sha256: { 'a.tar': 'f'.repeat(64) },
    verified: true, curatedListVersion: 3, installedAt: '2026-05-01T12:00:00.000Z', ...overrides,
  });

  it('keeps installed models, downloads and packages added by URL, and a fingerprint that moves with them', async () => {
    const { models } = fx.store.repos;
    const empty = await models.fingerprint();
    await models.startDownload('b', 100);
    expect(await models.download('b')).toEqual({
      modelId: 'b', status: 'downloading', fileIndex: 0, fileBytesDone: 0, bytesDone: 0, bytesTotal: 100, etag: null, errorCode: null, errorMessage: null,
      startedAt: '2026-05-01T12:00:00.000Z', updatedAt: '2026-05-01T12:00:00.000Z',
    });
    fx.clock.advance(1000);
    await models.saveProgress('b', { fileIndex: 1, fileBytesDone: 10, bytesDone: 60, etag: '"e"' });
    await models.failDownload('b', 'download_failed', 'cut');
    fx.clock.advance(1000);
    await models.startDownload('b', 120);
    expect(await models.download('b')).toMatchObject({ status: 'downloading', fileIndex: 1, bytesDone: 60, bytesTotal: 120, etag: '"e"', errorCode: null, updatedAt: '2026-05-01T12:00:02.000Z', startedAt: '2026-05-01T12:00:00.000Z' });
    await models.startDownload('a', 5);
    expect((await models.downloads()).map((d) => d.modelId)).toEqual(['b', 'a']);
    const withDownload = await models.fingerprint();
    expect(withDownload).not.toBe(empty);

    await models.putInstalled(model('b'));
    await fx.store.tx((t) => t.repos.models.putInstalled(model('a', { source: 'imported', verified: false, curatedListVersion: null })));
    expect(await models.download('b')).toBeNull();
    expect(await models.downloads()).toEqual([]);
    expect((await models.installed()).map((m) => m.id)).toEqual(['a', 'b']);
    expect(await models.installedById('b')).toEqual(model('b'));
    expect(await models.installedById('a')).toMatchObject({ verified: false, curatedListVersion: null, source: 'imported' });
    await models.putInstalled(model('b', { name: 'Renamed', dir: '/elsewhere' }));
    expect(await models.installedById('b')).toMatchObject({ name: 'Renamed', dir: '/elsewhere' });
    expect(await models.installedById('zzz')).toBeNull();
    const installed = await models.fingerprint();
    expect(installed).not.toBe(withDownload);
    await models.deleteInstalled('a');
    expect((await models.installed()).map((m) => m.id)).toEqual(['b']);

    const pkg = { id: 'url-1', name: 'From URL', url: 'https://example.test/m.tar.bz2', sha256: 'a'.repeat(64), sizeBytes: null, family: null, languages: ['en'] };
    expect(await models.addUrlPackage(pkg)).toBe(true);
    expect(await models.addUrlPackage({ ...pkg, name: 'again' })).toBe(false);
    expect(await models.addUrlPackage({ ...pkg, id: 'url-bad', sha256: 'short' })).toBe(false); // INSERT OR IGNORE's rule
    expect(await models.urlPackage('url-1')).toEqual({ ...pkg, addedAt: '2026-05-01T12:00:02.000Z' });
    expect(await models.urlPackage('none')).toBeNull();
    expect((await models.urlPackages()).map((p) => p.id)).toEqual(['url-1']);
    await models.startDownload('url-1', 10);
    await models.putInstalled(model('url-1', { source: 'url' }));
    await models.startDownload('url-1', 10);
    await models.deleteUrlPackage('url-1');
    expect(await models.urlPackages()).toEqual([]);
    expect(await models.download('url-1')).toBeNull();
    expect(await models.installedById('url-1')).toBeNull();
    await models.deleteDownload('nothing');
    expect(typeof (await models.othersCommits())).toBe('number');
  });

  it('records jobs and batches forwarded to a hosted service', async () => {
    const acc = await account(fx);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1), { name: 'talk', cancel_requested: 1 }));
    const { remoteJobs, remoteBatches, remoteCatalogue } = fx.store.repos;
    const first = await remoteJobs.ensure({ jobId: jobId(1), endpointUrl: 'https://a', product: 'speech-to-text', remoteModelId: 'big', idempotencyKey: 'voxdesk-1' });
    expect(first).toEqual({
      job_id: jobId(1), endpoint_url: 'https://a', product: 'speech-to-text', remote_model_id: 'big', idempotency_key: 'voxdesk-1', remote_job_id: null,
      remote_status: null, submissions: 0, last_error: null, created_at: '2026-05-01T12:00:00.000Z', updated_at: '2026-05-01T12:00:00.000Z',
    });
    expect(await remoteJobs.ensure({ jobId: jobId(1), endpointUrl: 'https://b', product: 'x', remoteModelId: 'y', idempotencyKey: 'z' })).toEqual(first);
    await remoteJobs.retarget(jobId(1), 'https://fixed');
    await remoteJobs.recordSubmission(jobId(1));
    await remoteJobs.recordSubmission(jobId(1));
    await remoteJobs.recordError(jobId(1), 'offline');
    expect(await remoteJobs.get(jobId(1))).toMatchObject({ endpoint_url: 'https://fixed', submissions: 2, last_error: 'offline' });
    await remoteJobs.recordRemoteJob(jobId(1), 'job_remote', 'queued');
    await remoteJobs.retarget(jobId(1), 'https://too-late');
    await remoteJobs.recordStatus(jobId(1), 'running');
    expect(await remoteJobs.get(jobId(1))).toMatchObject({ endpoint_url: 'https://fixed', remote_job_id: 'job_remote', remote_status: 'running', last_error: null });
    expect(await remoteJobs.localJob(jobId(1))).toEqual({ name: 'talk', cancelRequested: true });
    expect(await remoteJobs.localJob('job_none')).toBeUndefined();
    expect(await remoteJobs.get('job_none')).toBeUndefined();

    await fx.store.repos.batches.insert({
      id: 'bat_1', account_id: acc, product: 'speech-to-text', model_id: 'remote:big', params_json: '{"diarize":true}', status: 'open', file_count: 2,
      language: null, pending_code: null, pending_message: null, price_json: null, estimated_usd_micro: null, reserved_usd_micro: null, reserved_at: null,
      created_at: '2026-05-01T12:00:00.000Z', finished_at: null,
    });
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(2), { batch_id: 'bat_1', input_json: '{"file":"a"}' }));
    await fx.store.repos.batches.insertItem({ batch_id: 'bat_1', position: 0, name: 'a', job_id: jobId(2), pending_input_json: null, estimated_seconds: null });
    await fx.store.repos.batches.insertItem({ batch_id: 'bat_1', position: 1, name: 'b', job_id: null, pending_input_json: '{"file":"b"}', estimated_seconds: null });
    const batch = await remoteBatches.ensure({ batchId: 'bat_1', endpointUrl: 'https://a', product: 'speech-to-text', remoteModelId: 'big', idempotencyKey: 'k', positions: [1, 0] });
    expect(batch).toMatchObject({ positions_json: '[1,0]', submissions: 0, remote_batch_id: null, rejected_code: null });
    expect(await remoteBatches.ensure({ batchId: 'bat_1', endpointUrl: 'https://b', product: 'x', remoteModelId: 'y', idempotencyKey: 'z', positions: [] })).toEqual(batch);
    await remoteBatches.retarget('bat_1', 'https://fixed');
    await remoteBatches.recordSubmission('bat_1');
    await remoteBatches.retarget('bat_1', 'https://not-after-a-post');
    await remoteBatches.recordError('bat_1', 'offline');
    expect(await remoteBatches.get('bat_1')).toMatchObject({ endpoint_url: 'https://fixed', submissions: 1, last_error: 'offline' });
    expect(await remoteBatches.itemOf(jobId(2))).toEqual({ batchId: 'bat_1', position: 0 });
    expect(await remoteBatches.itemOf(jobId(1))).toBeUndefined();
    expect(await remoteBatches.items('bat_1')).toEqual([
      { position: 0, job_id: jobId(2), name: 'a', status: 'queued', cancel_requested: 0, input_json: '{"file":"a"}' },
      { position: 1, job_id: null, name: 'b', status: 'pending', cancel_requested: 0, input_json: '{"file":"b"}' },
    ]);
    expect(await remoteBatches.params('bat_1')).toEqual({ diarize: true });
    expect(await remoteBatches.params('bat_none')).toEqual({});
    await remoteBatches.recordRemoteBatch('bat_1', 'bat_remote', 'open');
    expect(await remoteBatches.orphans()).toEqual([]); // a pending item and a queued job are still to come
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(3), { batch_id: 'bat_1', status: 'cancelled' }));
    await fx.store.repos.batches.attachJob('bat_1', 1, jobId(3));
    await fx.store.repos.jobs.write(jobId(2), 'queued', { status: 'expired' });
    expect((await remoteBatches.orphans()).map((b) => b.batch_id)).toEqual(['bat_1']);
    await remoteBatches.recordStatus('bat_1', 'complete');
    expect(await remoteBatches.orphans()).toEqual([]);
    await remoteBatches.recordRejected('bat_1', 'too_many_open_batches', 'wait');
    expect(await remoteBatches.get('bat_1')).toMatchObject({ remote_status: 'rejected', rejected_code: 'too_many_open_batches', last_error: 'wait' });

    const record = (id: string): CatalogueRecord => ({ id, name: id } as CatalogueRecord);
    expect(await remoteCatalogue.read('https://a')).toEqual({ endpointUrl: 'https://a', fetchedAt: null, records: [] });
    await remoteCatalogue.replace('https://a', [record('b'), record('a')], '2026-05-01T12:00:00.000Z');
    expect(await remoteCatalogue.read('https://a')).toEqual({ endpointUrl: 'https://a', fetchedAt: '2026-05-01T12:00:00.000Z', records: [record('a'), record('b')] });
    await remoteCatalogue.replace('https://b', [record('c')], '2026-05-01T13:00:00.000Z');
    expect((await remoteCatalogue.read('https://a')).records).toEqual([]);
    await fx.store.tx((t) => t.repos.remoteCatalogue.replace('https://b', [], '2026-05-01T14:00:00.000Z'));
    expect(await remoteCatalogue.read('https://b')).toEqual({ endpointUrl: 'https://b', fetchedAt: null, records: [] });
  });

  it('two nodes replacing the hosted catalogue or ensuring one forwarding row at once agree', async () => {
    const acc = await account(fx);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(1)));
    const other = await fx.another();
    const nodes = [fx.store, other, fx.store, other];
    const rows = await Promise.all(
      nodes.map((s, i) => s.tx((t) => t.repos.remoteJobs.ensure({ jobId: jobId(1), endpointUrl: `https://${i}`, product: 'p', remoteModelId: 'm', idempotencyKey: `k${i}` }))),
    );
    expect(new Set(rows.map((r) => r.idempotency_key)).size).toBe(1);
    const record = (id: string): CatalogueRecord => ({ id, name: id } as CatalogueRecord);
    await Promise.all(nodes.map((s, i) => s.repos.remoteCatalogue.replace('https://a', [record('x'), record(`only-${i}`)], `2026-05-01T12:00:0${i}.000Z`)));
    const cached = await fx.store.repos.remoteCatalogue.read('https://a');
    expect(cached.records).toHaveLength(2);
    expect(cached.records[0]!.id).toMatch(/^only-\d$/);
  });
});
