/** Test harness: a real SQLite file in a temp dir, an account, and a job service whose catalogue has test models. */
import { silentLog } from '../../../src-main/common/log.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, Pricing } from '../../../src-main/common/api-types.js';
import { isTerminal } from '../../../src-main/common/job-states.js';
import type { ModelDefinition } from '../../../src-main/engines/model-definition.js';
import { NO_LIMITS } from '../../../src-main/engines/model-definition.js';
import { createJobService, type JobEngine, type JobServiceOptions } from '../../../src-main/jobs/engine/job-service.js';
import type { NewJob } from '../../../src-main/jobs/engine/job-service-types.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createAccountsRepo } from '../../../src-main/store/accounts-repo.js';
import type { Clock } from '../../../src-main/store/clock.js';
import type { Repositories } from '../../../src-main/store/repositories.js';
import { createSqliteStore, type SqliteStore } from '../../../src-main/store/sqlite-store.js';
import { scaled } from '../../helpers/time-scale.js';
import { until as waitUntil } from '../../helpers/wait.js';

process.env.VOXDESK_TEST_ENGINES = '1';

export const PRICED: Pricing = {
  currency: 'USD',
  request_fee_usd: 0.05,
  per_minute_usd: 0.006,
  options: { speaker_diarization: { per_minute_usd: 0.0075 } },
};

export function testModel(id: string, extra: Partial<ModelDefinition> = {}): ModelDefinition {
  return {
    id,
    name: id,
    description: 'test engine',
    capability: 'asr',
    products: ['speech-to-text'],
    provider: 'local',
    engine: 'test',
    engineConfig: {},
    languages: ['en'],
    live: false,
    acceptsSpeed: false,
    limits: NO_LIMITS,
    paramsSchema: {},
    status: 'available',
    reason: null,
    ...extra,
  };
}

/** Job service options, with the connection (default: a new one on the harness file) and clock its store uses. */
export type HarnessOptions = Partial<Omit<JobServiceOptions, 'store'>> & { db?: Db; clock?: Clock };

export interface Harness {
  dir: string;
  dbFile: string;
  db: Db;
  /** The main service's store as it runs on the connection, synchronously: what a test reads or sets up directly. */
  repos: Repositories;
  accountId: string;
  models: Map<string, ModelDefinition>;
  service: JobEngine;
  newService(options?: HarnessOptions): JobEngine;
  job(params: Record<string, unknown>, extra?: Partial<NewJob>): NewJob;
  close(): Promise<void>;
}

export function createHarness(options: HarnessOptions = {}): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-jobs-'));
  const dbFile = join(dir, 'voxdesk.db');
  const db = openDatabase(dbFile);
  const accountId = createAccountsRepo(db).createAccount('tester').id;
  const models = new Map<string, ModelDefinition>([
    ['test-free', testModel('test-free')],
    ['test-priced', testModel('test-priced', { pricing: PRICED })],
  ]);
  const services: JobEngine[] = [];
  const dbs: Db[] = [db];
  const harness: Harness = {
    dir,
    dbFile,
    db,
    accountId,
    models,
    service: undefined as unknown as JobEngine,
    repos: undefined as unknown as Repositories,
    newService(extra = {}) {
      const { db: given, clock, ...rest } = { ...options, ...extra };
      const ownDb = given ?? openDatabase(dbFile);
      if (!given) dbs.push(ownDb);
      const store = createSqliteStore(ownDb, dbFile, clock);
      const service = createJobService({ store, dataDir: dir, resolveModel: (id) => models.get(id), workers: 2, log: silentLog, ...rest });
      services.push(service);
      return service;
    },
    job(params, extra = {}) {
      return { accountId, product: 'speech-to-text', modelId: 'test-free', name: 'clip.wav', language: null, params, input: {}, ...extra };
    },
    async close() {
      await Promise.all(services.map((s) => s.shutdown(0)));
      for (const d of dbs) d.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  harness.service = harness.newService({ db });
  harness.repos = syncReposOf(harness.service);
  return harness;
}

/** A harness service's repositories, synchronously (its store is the SQLite one). */
export function syncReposOf(service: JobEngine): Repositories {
  return (service.store as SqliteStore).sync;
}

/** Resolves with the job once it is terminal (events, not polling). */
export async function terminal(service: JobEngine, accountId: string, jobId: string, timeoutMs = scaled(30_000)): Promise<Job> {
  await service.waitForTerminal(jobId, timeoutMs);
  const job = await service.getJob(accountId, 'speech-to-text', jobId);
  const status = job?.status ?? syncReposOf(service).jobs.get(jobId)?.status;
  if (!job || !status || !isTerminal(status)) throw new Error(`job ${jobId} is not terminal after ${timeoutMs} ms`);
  return job;
}

/** Resolves when `predicate` holds for a job-changed event of that job. */
export function whenJob(service: JobEngine, jobId: string, predicate: (job: Job) => boolean, timeoutMs = scaled(30_000)): Promise<Job> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      service.events.off('job-changed', on);
      reject(new Error(`job ${jobId}: condition not met within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (job: Job): void => {
      if (job.id === jobId && predicate(job)) {
        clearTimeout(timer);
        service.events.off('job-changed', on);
        resolve(job);
      }
    };
    service.events.on('job-changed', on);
  });
}

/** Polls `check` every 10 ms (test/helpers/wait.ts) until it holds; throws naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = scaled(30_000)): Promise<void> {
  await waitUntil(what, check, (holds) => holds, { timeoutMs, everyMs: 10 });
}
