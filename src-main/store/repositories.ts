/**
 * Every repository over one connection, built once (statements are prepared here, not per call). The service builds
 * them once at start-up and hands each part the repositories it needs; nothing outside store/ touches SQL.
 */
import { systemClock, type Clock } from './clock.js';
import type { Db } from './db.js';
import { createAccountsRepo, type AccountsRepo } from './accounts-repo.js';
import { createArtifactsRepo, type ArtifactsRepo } from './artifacts-repo.js';
import { createBatchesRepo, type BatchesRepo } from './batches-repo.js';
import { createChangeStamp, type ChangeStamp } from './change-stamp.js';
import { createHistoryRepo, type HistoryRepo } from './history-repo.js';
import { createIdempotencyRepo, type IdempotencyRepo } from './idempotency-repo.js';
import { createJobsRepo, type JobsRepo } from './jobs-repo.js';
import { createLedgerRepo, type LedgerRepo } from './ledger-repo.js';
import { createOthersCommits, type OthersCommits } from './others-commits.js';
import { createModelsRepo, type ModelsRepo } from './models-repo.js';
import { createRemoteBatchesRepo, type RemoteBatchesRepo } from './remote-batches-repo.js';
import { createRemoteCatalogueRepo, type RemoteCatalogueRepo } from './remote-catalogue-repo.js';
import { createRemoteJobsRepo, type RemoteJobsRepo } from './remote-jobs-repo.js';
import { createSecretsRepo, type SecretsRepo } from './secrets-repo.js';
import { createSegmentsRepo, type SegmentsRepo } from './segments-repo.js';
import { createSettingsRepo, type SettingsRepo } from './settings-repo.js';
import { createSpendingRepo, type SpendingRepo } from './spending-repo.js';
import { createTranscriptRevisionsRepo, type TranscriptRevisionsRepo } from './transcript-revisions-repo.js';
import { createTranscriptSearchRepo, type TranscriptSearchRepo } from './transcript-search-repo.js';
import { createTranscriptAiRepo, type TranscriptAiRepo } from './transcript-ai-repo.js';
import { createVocabularyRepo, type VocabularyRepo } from './vocabulary-repo.js';
import { createSpeakersRepo, type SpeakersRepo } from './speakers-repo.js';
import { createSavedVoicesRepo, type SavedVoicesRepo } from './saved-voices-repo.js';
import { createWatchFilesRepo, type WatchFilesRepo } from './watch-files-repo.js';

export interface Repositories {
  db: Db;
  /** The time source the repositories stamp rows with (the job engine uses the same one). */
  clock: Clock;
  /** Whether anything was written since a read (change-stamp.ts): lets hot reads cache without going stale. */
  changes: ChangeStamp;
  /** Other connections' commits (data_version), one read shared per request by the caches above (others-commits.ts). */
  othersCommits: OthersCommits;
  accounts: AccountsRepo;
  jobs: JobsRepo;
  batches: BatchesRepo;
  artifacts: ArtifactsRepo;
  idempotency: IdempotencyRepo;
  ledger: LedgerRepo;
  settings: SettingsRepo;
  /** Sealed secrets (the hosted key); read and written through store/secrets/secret-store.ts, never directly. */
  secrets: SecretsRepo;
  /** What the monthly spending cap reads: hosted charges, reservations, work waiting for the budget. */
  spending: SpendingRepo;
  history: HistoryRepo;
  models: ModelsRepo;
  remoteJobs: RemoteJobsRepo;
  remoteBatches: RemoteBatchesRepo;
  remoteCatalogue: RemoteCatalogueRepo;
  segments: SegmentsRepo;
  /** Edited transcripts (migration 011): revision 0 is the engine's original. */
  revisions: TranscriptRevisionsRepo;
  /** The library search index over the latest revisions and job names (migration 011). */
  search: TranscriptSearchRepo;
  /** Files the watch folders have seen and the jobs they became. */
  watchFiles: WatchFilesRepo;
  /** Language-model actions on transcripts: answers kept per part, finished actions (migration 025). */
  transcriptAi: TranscriptAiRepo;
  /** Each account's hotwords and replacements (migration 026). */
  vocabulary: VocabularyRepo;
  speakers: SpeakersRepo;
  /** Each account's saved voices (migration 029). */
  savedVoices: SavedVoicesRepo;
}

export function createRepositories(db: Db, clock: Clock = systemClock): Repositories {
  const othersCommits = createOthersCommits(db);
  return {
    db,
    clock,
    changes: createChangeStamp(db, othersCommits),
    othersCommits,
    accounts: createAccountsRepo(db, clock, othersCommits),
    jobs: createJobsRepo(db),
    batches: createBatchesRepo(db),
    artifacts: createArtifactsRepo(db),
    idempotency: createIdempotencyRepo(db),
    ledger: createLedgerRepo(db),
    settings: createSettingsRepo(db, clock),
    secrets: createSecretsRepo(db, clock),
    spending: createSpendingRepo(db),
    history: createHistoryRepo(db),
    models: createModelsRepo(db, clock),
    remoteJobs: createRemoteJobsRepo(db, clock),
    remoteBatches: createRemoteBatchesRepo(db, clock),
    remoteCatalogue: createRemoteCatalogueRepo(db),
    segments: createSegmentsRepo(db),
    revisions: createTranscriptRevisionsRepo(db),
    search: createTranscriptSearchRepo(db),
    watchFiles: createWatchFilesRepo(db, clock),
    transcriptAi: createTranscriptAiRepo(db),
    vocabulary: createVocabularyRepo(db, clock),
    speakers: createSpeakersRepo(db),
    savedVoices: createSavedVoicesRepo(db),
  };
}
