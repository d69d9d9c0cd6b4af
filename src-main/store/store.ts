/**
 * The store as the rest of Voxdesk sees it: the repositories, asynchronous, over either backend — the embedded SQLite
 * file (the desktop app, `npm start`, a plain `voxdesk serve`) or PostgreSQL (a cluster, `--database postgres://…`).
 * Every repository has one interface (its file's `…Repo`); `Async<…>` is that interface with every method answering a
 * promise, which is what both backends implement: SQLite's repositories run their prepared statements synchronously
 * and answer settled promises (sqlite-store.ts), PostgreSQL's send each query over the network (postgres/).
 *
 * A transaction is `tx(async (t) => …)`: everything `t.repos` does is one transaction, committed when the function
 * resolves and rolled back when it throws; `t.tx` inside it is a savepoint. Its function awaits only the store — no
 * file system, network or timers inside a transaction — and uses `t.repos`, never the store's own `repos` (on
 * SQLite those wait for the transaction to end: a deadlock). SQLite's are IMMEDIATE (one writer) and
 * serialised with every other use of the connection; PostgreSQL's are READ COMMITTED with the row locks and
 * compare-and-set writes each repository documents (a claim takes `FOR UPDATE SKIP LOCKED`).
 */
import type { AccountsRepo } from './accounts-repo.js';
import type { ArtifactsRepo } from './artifacts-repo.js';
import type { BatchesRepo } from './batches-repo.js';
import type { Clock } from './clock.js';
import type { OthersCommits } from './others-commits.js';
import type { HistoryRepo } from './history-repo.js';
import type { IdempotencyRepo } from './idempotency-repo.js';
import type { JobsRepo } from './jobs-repo.js';
import type { LedgerRepo } from './ledger-repo.js';
import type { ModelsRepo } from './models-repo.js';
import type { RemoteBatchesRepo } from './remote-batches-repo.js';
import type { RemoteCatalogueRepo } from './remote-catalogue-repo.js';
import type { RemoteJobsRepo } from './remote-jobs-repo.js';
import type { SecretsRepo } from './secrets-repo.js';
import type { SegmentsRepo } from './segments-repo.js';
import type { SettingsRepo } from './settings-repo.js';
import type { SpendingRepo } from './spending-repo.js';
import type { TranscriptRevisionsRepo } from './transcript-revisions-repo.js';
import type { TranscriptSearchRepo } from './transcript-search-repo.js';
import type { VocabularyRepo } from './vocabulary-repo.js';
import type { SpeakersRepo } from './speakers-repo.js';
import type { SavedVoicesRepo } from './saved-voices-repo.js';
import type { WatchFilesRepo } from './watch-files-repo.js';
import type { TranscriptAiRepo } from './transcript-ai-repo.js';

export type Dialect = 'sqlite' | 'postgres';

/** What a change stamp holds: opaque to callers (compared by the store that gave it). */
export interface ChangeToken {
  readonly own: number;
  readonly others: number;
}

/** An interface with every method answering a promise of what it answered. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K];
};

/** Async<SettingsRepo> with its generic `get` kept generic (a mapped type cannot keep it). */
export type AsyncSettingsRepo = Omit<Async<SettingsRepo>, 'get'> & { get<T>(key: string): Promise<T | undefined> };

export interface StoreRepos {
  accounts: Async<AccountsRepo>;
  jobs: Async<JobsRepo>;
  batches: Async<BatchesRepo>;
  artifacts: Async<ArtifactsRepo>;
  idempotency: Async<IdempotencyRepo>;
  ledger: Async<LedgerRepo>;
  settings: AsyncSettingsRepo;
  secrets: Async<SecretsRepo>;
  spending: Async<SpendingRepo>;
  history: Async<HistoryRepo>;
  models: Async<ModelsRepo>;
  remoteJobs: Async<RemoteJobsRepo>;
  remoteBatches: Async<RemoteBatchesRepo>;
  remoteCatalogue: Async<RemoteCatalogueRepo>;
  segments: Async<SegmentsRepo>;
  revisions: Async<TranscriptRevisionsRepo>;
  search: Async<TranscriptSearchRepo>;
  watchFiles: Async<WatchFilesRepo>;
  transcriptAi: Async<TranscriptAiRepo>;
  vocabulary: Async<VocabularyRepo>;
  speakers: Async<SpeakersRepo>;
  /** Each account's saved voices (migration 029). */
  savedVoices: Async<SavedVoicesRepo>;
}

/** Inside a transaction: its repositories, and a savepoint of it. */
export interface Tx {
  readonly repos: StoreRepos;
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export interface Store extends Tx {
  readonly dialect: Dialect;
  /** The time source rows are stamped with (the job engine uses the same one). */
  readonly clock: Clock;
  /**
   * A number that moves whenever another connection (a worker process, another node, `voxdesk keys revoke`) may have
   * committed since it was last read: caches keep a row while it stands still. SQLite: `PRAGMA data_version`;
   * PostgreSQL: a count of the change notifications received (LISTEN), so it moves on every node's commits.
   */
  othersVersion(): Promise<number>;
  /**
   * The same number read synchronously, for the per-request caches that must answer without a promise (the API key
   * check, service/auth/api-keys.ts), and `within(run)`: one read shared by the synchronous code of `run` (one
   * request's gates and route). SQLite: others-commits.ts; PostgreSQL: the change feed's count, kept in memory.
   */
  readonly othersNow: OthersCommits;
  /**
   * "Has anything changed since?" for read caches that must never serve stale rows: a stamp taken before a read,
   * and whether nothing was written since (by this process or any other).
   */
  readonly changes: { take(): Promise<ChangeToken>; unchanged(token: ChangeToken): Promise<boolean> };
  /** Resolves once what this process committed so far survives a power cut (SQLite: an fsync of the WAL). */
  flush(): Promise<void>;
  /**
   * Plays the role `name` that one node of a cluster may play at a time (the watch folders' owner): `gained` runs
   * when this node takes it, `lost` if it loses it (its database connection broke); the two never overlap. SQLite
   * has one node: the role is this process's at once. PostgreSQL: postgres/exclusive-role.ts.
   */
  claimRole(name: string, handlers: RoleHandlers): RoleClaim;
  close(): Promise<void>;
}

export interface RoleHandlers {
  gained(): Promise<void>;
  lost(): Promise<void>;
}

export interface RoleClaim {
  /** Gives the role up (the node is stopping); resolves once a running gained/lost is done. */
  release(): Promise<void>;
}
