/** Every repository over one connection, built once (statements are prepared here, not per call). */
import type { Db } from './database.js';
import { systemClock, type Clock } from './clock.js';
import { createAccountsRepo, type AccountsRepo } from './accounts-repo.js';
import { createArtifactsRepo, type ArtifactsRepo } from './artifacts-repo.js';
import { createBatchesRepo, type BatchesRepo } from './batches-repo.js';
import { createIdempotencyRepo, type IdempotencyRepo } from './idempotency-repo.js';
import { createJobsRepo, type JobsRepo } from './jobs-repo.js';
import { createLedgerRepo, type LedgerRepo } from './ledger-repo.js';
import { createSettingsRepo, type SettingsRepo } from './settings-repo.js';

export interface Repositories {
  db: Db;
  accounts: AccountsRepo;
  jobs: JobsRepo;
  batches: BatchesRepo;
  artifacts: ArtifactsRepo;
  idempotency: IdempotencyRepo;
  ledger: LedgerRepo;
  settings: SettingsRepo;
}

export function createRepositories(db: Db, clock: Clock = systemClock): Repositories {
  return {
    db,
    accounts: createAccountsRepo(db, clock),
    jobs: createJobsRepo(db),
    batches: createBatchesRepo(db),
    artifacts: createArtifactsRepo(db),
    idempotency: createIdempotencyRepo(db),
    ledger: createLedgerRepo(db),
    settings: createSettingsRepo(db, clock),
  };
}
