/**
 * What the PostgreSQL repositories of one store share, whether they run on the pool or inside a transaction: the
 * clock, the count of this store's writes, the other nodes' commits (the change feed), and the few things a
 * repository remembers between calls (the key matches of accounts-repo.ts, the unmarked-queue stamp of jobs-repo.ts,
 * the tables that reference jobs and batches in history-repo.ts).
 */
import type { Clock } from '../clock.js';
import type { KeyMatch } from '../accounts-repo.js';
import type { WriteCounter } from './sql.js';

export interface PgShared {
  readonly clock: Clock;
  readonly writes: WriteCounter;
  /** Other nodes' commits seen (change-feed.ts). */
  othersVersion(): number;
  /** Key matches remembered while no other node committed (accounts-repo.ts). */
  readonly keyMatches: { version: number; matches: Map<string, KeyMatch> };
  /** JobsRepo.unmarkedStamp's count. */
  readonly unmarked: { n: number };
  /** DELETE statements for the rows that reference a job or a batch, found once from the catalogue. */
  references: Promise<{ jobs: string[]; batches: string[] }> | null;
}

/** Advisory lock namespaces (the first key of `pg_advisory_xact_lock(int, int)`): one per kind of rule. */
export const LOCK_SPACE = {
  /** An account's open batches (BatchesRepo.lockAccount). */
  accountBatches: 0x76780001,
  /** The monthly spending cap's check-then-reserve (SpendingRepo.lockForReservation). */
  reservation: 0x76780002,
  /** An idempotency key's find-then-insert (IdempotencyRepo.find). */
  idempotencyKey: 0x76780003,
  /** The hosted catalogue's delete-then-insert (RemoteCatalogueRepo.replace). */
  remoteCatalogue: 0x76780004,
} as const;
