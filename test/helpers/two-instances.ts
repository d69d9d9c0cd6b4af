/** Shared pieces of the two-instance tests: the hosted instance (real engines), HTTP helpers, waiting. */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pocketsphinxModelSource } from '../../src-main/engines/asr/pocketsphinx-models.js';
import type { Batch, Job } from '../../src-main/common/api-types.js';
import { ledgerFor, type LedgerEntry } from '../../src-main/store/ledger-repo.js';
import type { Db } from '../../src-main/store/database.js';
import { startServeProcess, startTestService, testModelSource, type ServeProcess, type TestService } from './service.js';
import { SHARED, requireCommand, requireFile } from './system.js';
import { scaled } from './time-scale.js';
import { untilFound } from './wait.js';

export const JFK = join(SHARED, 'audio/jfk.wav');
export const HIFI = join(SHARED, 'audio/hifitts-6097');

export function hifiClips(count: number): string[] {
  const refs = readFileSync(join(HIFI, 'refs.tsv'), 'utf8').trim().split('\n');
  return refs.slice(0, count).map((line) => join(HIFI, line.split('\t')[0]!));
}

/** The "hosted" side: a real service with its own data dir and key, espeak TTS and PocketSphinx STT. */
export async function startHosted(options: { dataDir?: string; port?: number; holdSeconds?: number; pricingFile?: string } = {}): Promise<TestService> {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
  return startTestService({
    extraModelSources: [testModelSource, pocketsphinxModelSource],
    holdSeconds: options.holdSeconds ?? 30,
    workers: 1,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.pricingFile ? { pricingFile: options.pricingFile } : {}),
  });
}

/**
 * The local side as a real `node bin/voxdesk.js serve` child (1 worker, 1 s hold) whose local account uses `key`,
 * forwarding as `args`/`env` say; resolves once `model` of the hosted catalogue is listed locally.
 */
export async function startForwardingServe(dataDir: string, options: { key: string; model: string; args?: string[]; env: NodeJS.ProcessEnv }): Promise<ServeProcess> {
  const args = ['--hold-seconds', '1', '--workers', '1', ...(options.args ?? [])];
  const serve = await startServeProcess(dataDir, args, { ...options.env, VOXDESK_API_KEY: options.key });
  await waitFor('the hosted catalogue in the local one', async () => (await fetch(`${serve.url}/v1/models/${options.model}`)).status === 200);
  return serve;
}

export async function api<T>(base: string, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${key}`, ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, body: (await response.json()) as T };
}

export function audioForm(model: string, files: string[], extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('model', model);
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  for (const file of files) form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), basename(file));
  return form;
}

export async function transcribe(base: string, key: string, model: string, file: string, name?: string): Promise<Job> {
  const { status, body } = await api<Job>(base, key, 'POST', '/v1/speech-to-text', audioForm(model, [file], name ? { name } : {}));
  if (status !== 200) throw new Error(`POST speech-to-text answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

export async function getJob(base: string, key: string, product: string, id: string): Promise<Job> {
  return (await api<Job>(base, key, 'GET', `/v1/${product}/${id}`)).body;
}

export async function getBatch(base: string, key: string, product: string, id: string): Promise<Batch> {
  return (await api<Batch>(base, key, 'GET', `/v1/${product}/batch/${id}`)).body;
}

export async function listJobs(base: string, key: string): Promise<Job[]> {
  return (await api<{ data: Job[] }>(base, key, 'GET', '/v1/jobs?limit=100')).body.data;
}

export function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = scaled(60_000)): Promise<T> {
  return untilFound(what, probe, { timeoutMs, everyMs: 100, retryErrors: true });
}

export async function waitForJob(base: string, key: string, product: string, id: string, timeoutMs = scaled(90_000)): Promise<Job> {
  return waitFor(`job ${id} to finish`, async () => {
    const job = await getJob(base, key, product, id);
    return job.finished_at ? job : undefined;
  }, timeoutMs);
}

/** Ledger rows of the local account of a service's database: kinds and amounts. */
export function localLedger(db: Db): LedgerEntry[] {
  const account = db.prepare<[], { id: string }>("SELECT id FROM accounts WHERE name = 'local'").get();
  return account ? ledgerFor(db, account.id) : [];
}
