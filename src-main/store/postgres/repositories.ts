/**
 * The PostgreSQL repositories over one way of running statements (the pool, or an open transaction's connection).
 * Each is made on its first use: a transaction usually touches two or three of the eighteen.
 */
import type { StoreRepos } from '../store.js';
import { createPgAccountsRepo } from './accounts-repo.js';
import { createPgArtifactsRepo } from './artifacts-repo.js';
import { createPgBatchesRepo } from './batches-repo.js';
import { createPgHistoryRepo } from './history-repo.js';
import { createPgIdempotencyRepo } from './idempotency-repo.js';
import { createPgJobsRepo } from './jobs-repo.js';
import { createPgLedgerRepo } from './ledger-repo.js';
import { createPgModelsRepo } from './models-repo.js';
import { createPgRemoteBatchesRepo } from './remote-batches-repo.js';
import { createPgRemoteCatalogueRepo } from './remote-catalogue-repo.js';
import { createPgRemoteJobsRepo } from './remote-jobs-repo.js';
import { createPgSecretsRepo } from './secrets-repo.js';
import { createPgSegmentsRepo } from './segments-repo.js';
import { createPgSettingsRepo } from './settings-repo.js';
import type { PgShared } from './shared.js';
import { createPgSpendingRepo } from './spending-repo.js';
import type { Sql } from './sql.js';
import { createPgTranscriptRevisionsRepo } from './transcript-revisions-repo.js';
import { createPgTranscriptSearchRepo } from './transcript-search-repo.js';
import { createPgVocabularyRepo } from './vocabulary-repo.js';
import { createPgSpeakersRepo } from './speakers-repo.js';
import { createPgSavedVoicesRepo } from './saved-voices-repo.js';
import { createPgWatchFilesRepo } from './watch-files-repo.js';
import { createPgTranscriptAiRepo } from './transcript-ai-repo.js';

type Makers = { [K in keyof StoreRepos]: (sql: Sql, shared: PgShared) => StoreRepos[K] };

const MAKERS: Makers = {
  accounts: createPgAccountsRepo,
  jobs: createPgJobsRepo,
  batches: createPgBatchesRepo,
  artifacts: createPgArtifactsRepo,
  idempotency: createPgIdempotencyRepo,
  ledger: createPgLedgerRepo,
  settings: createPgSettingsRepo,
  secrets: createPgSecretsRepo,
  spending: createPgSpendingRepo,
  history: createPgHistoryRepo,
  models: createPgModelsRepo,
  remoteJobs: createPgRemoteJobsRepo,
  remoteBatches: createPgRemoteBatchesRepo,
  remoteCatalogue: createPgRemoteCatalogueRepo,
  segments: createPgSegmentsRepo,
  revisions: createPgTranscriptRevisionsRepo,
  search: createPgTranscriptSearchRepo,
  watchFiles: createPgWatchFilesRepo,
  transcriptAi: createPgTranscriptAiRepo,
  vocabulary: createPgVocabularyRepo,
  speakers: createPgSpeakersRepo,
  savedVoices: createPgSavedVoicesRepo,
};

export function createPgRepositories(sql: Sql, shared: PgShared): StoreRepos {
  const made: Partial<StoreRepos> = {};
  const repos = {} as StoreRepos;
  for (const name of Object.keys(MAKERS) as (keyof StoreRepos)[]) {
    Object.defineProperty(repos, name, {
      enumerable: true,
      get: () => (made[name] ??= MAKERS[name](sql, shared) as never),
    });
  }
  return repos;
}
