/** The jobs table: one row type, statements prepared once. Status rules live in jobs/state-machine.ts. */
import { PAUSED, type WaitingCode } from '../common/errors.js';
import type { JobStatus } from '../common/job-states.js';
import type { JobProduct } from '../common/products.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

/** Hosted work held by the monthly spending cap (jobs/spending-cap.ts). */
const BUDGET_WAIT: WaitingCode = 'waiting_for_budget';

export interface JobRow {
  id: string;
  account_id: string;
  product: JobProduct;
  model_id: string;
  name: string | null;
  language: string | null;
  status: JobStatus;
  error_code: string | null;
  error_message: string | null;
  params_json: string;
  input_json: string;
  duration_seconds: string | null;
  result_json: string | null;
  progress: number | null;
  batch_id: string | null;
  attempts: number;
  cancel_requested: number;
  /** 1 while a running job is asked to stop after its current segment and wait, paused (migration 007). */
  pause_requested: number;
  claimed_by: string | null;
  /**
   * Until when the instance in claimed_by holds a running job (migration 024): it renews the lease while the job runs;
   * a lease that lapses (the node died) puts the job back in the queue, to continue after its last checkpoint.
   */
  lease_expires_at: string | null;
  /** What the job will cost (micro-dollars), priced when accepted: fee (not for batch items), usage, options. */
  estimated_usd_micro: number | null;
  /** The seconds that estimate is for (a text's length, a recording's probed length); null when not known before it runs. */
  estimated_seconds: number | null;
  /** The price it was accepted at: a PriceSnapshot as JSON (migration 010); null for jobs of earlier builds. */
  price_json: string | null;
  /** Hosted work: the estimate held against the monthly spending cap from its start until it ends (jobs/spending-cap.ts). */
  reserved_usd_micro: number | null;
  deadline_at: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  /** When the uploaded input files were deleted (upload retention); absent on rows being inserted. */
  input_purged_at?: string | null;
}

/** Columns a status change or a patch may rewrite. */
export type JobMutable = Pick<
  JobRow,
  | 'status'
  | 'error_code'
  | 'error_message'
  | 'duration_seconds'
  | 'result_json'
  | 'progress'
  | 'attempts'
  | 'cancel_requested'
  | 'pause_requested'
  | 'claimed_by'
  | 'lease_expires_at'
  | 'deadline_at'
  | 'reserved_usd_micro'
  | 'started_at'
  | 'finished_at'
  | 'updated_at'
>;

const MUTABLE_COLUMNS: ReadonlySet<string> = new Set<keyof JobMutable>([
  'status', 'error_code', 'error_message', 'duration_seconds', 'result_json', 'progress', 'attempts', 'cancel_requested',
  'pause_requested', 'claimed_by', 'lease_expires_at', 'deadline_at', 'reserved_usd_micro', 'started_at', 'finished_at', 'updated_at',
]);

/**
 * Rows are read as arrays (better-sqlite3's raw mode) and made into objects here: building a 29-property object in
 * JavaScript from one literal costs a third of what the driver's property-by-property object costs (~3 vs ~7-13 µs a
 * row), and the scheduler and the settle path read rows on every pass (bench/jobs-throughput.ts).
 */
const JOB_COLUMNS = `id, account_id, product, model_id, name, language, status, error_code, error_message, params_json, input_json, duration_seconds, result_json, progress, batch_id, attempts, cancel_requested, pause_requested, claimed_by, estimated_usd_micro, estimated_seconds, price_json, reserved_usd_micro, deadline_at, created_at, started_at, finished_at, updated_at, input_purged_at, lease_expires_at`;

/** Where status is in a raw row. */
const STATUS = 6;

/** Same order as JOB_COLUMNS. */
function toRow(r: unknown[]): JobRow {
  return {
    id: r[0],
    account_id: r[1],
    product: r[2],
    model_id: r[3],
    name: r[4],
    language: r[5],
    status: r[6],
    error_code: r[7],
    error_message: r[8],
    params_json: r[9],
    input_json: r[10],
    duration_seconds: r[11],
    result_json: r[12],
    progress: r[13],
    batch_id: r[14],
    attempts: r[15],
    cancel_requested: r[16],
    pause_requested: r[17],
    claimed_by: r[18],
    estimated_usd_micro: r[19],
    estimated_seconds: r[20],
    price_json: r[21],
    reserved_usd_micro: r[22],
    deadline_at: r[23],
    created_at: r[24],
    started_at: r[25],
    finished_at: r[26],
    updated_at: r[27],
    input_purged_at: r[28],
    lease_expires_at: r[29],
  } as JobRow;
}

export interface PageKey {
  created_at: string;
  id: string;
}

export interface JobPageQuery {
  accountId: string;
  product: JobProduct | null;
  status: JobStatus | null;
  after: PageKey | null;
  limit: number;
}

export interface JobsRepo {
  insert(row: JobRow): void;
  get(id: string): JobRow | undefined;
  /**
   * The row without its result (`result_json` is null, not read): a long transcription's result is megabytes, and
   * the transcript routes, which read the revisions instead, only need the rest.
   */
  getWithoutResult(id: string): JobRow | undefined;
  /** The language and duration of a job's result (read inside SQLite, not the whole result). */
  resultFacts(id: string): { language: string | null; duration: number | null };
  /**
   * Writes the given mutable columns (only those: the others keep their stored values) when the row still has
   * `expectedStatus`; false when it changed meanwhile.
   */
  write(id: string, expectedStatus: JobStatus, values: Partial<JobMutable>): boolean;
  /** Queued jobs in queue order, paused ones left out. */
  queued(limit: number): JobRow[];
  /** Whether any job is queued and not paused (without reading it). */
  anyQueued(): boolean;
  /** Queued jobs after `after` in queue order (created_at, id), `limit` at a time; paused ones left out. */
  queuedAfter(after: PageKey | null, limit: number): JobRow[];
  /** Queued jobs that carry no waiting code yet (just created or requeued). */
  queuedUnmarked(limit: number): JobRow[];
  /**
   * Moves whenever this connection inserts or writes a row that may be queued without a waiting code (never when
   * a row leaves that state): while it and dataVersion() stand still, a queuedUnmarked() that found nothing would
   * find nothing again.
   */
  unmarkedStamp(): number;
  running(): JobRow[];
  /** Renews the lease of these running jobs of `instanceId` until `untilIso`; answers the ids it still held. */
  renewLeases(instanceId: string, ids: readonly string[], untilIso: string): string[];
  /** Running jobs whose lease lapsed before `nowIso` (their instance stopped renewing it). */
  lapsedLeases(nowIso: string): JobRow[];
  /** Queued jobs past their deadline (paused ones and those waiting for the budget never are). */
  overdue(nowIso: string): JobRow[];
  ofBatch(batchId: string): JobRow[];
  page(query: JobPageQuery): JobRow[];
  countByStatus(accountId: string | null): { status: JobStatus; error_code: string | null; n: number }[];
  /** Finished jobs whose inputs are still on disk and finished before `beforeIso`. */
  inputsToPurge(beforeIso: string, limit: number): Pick<JobRow, 'id' | 'input_json'>[];
  markInputPurged(id: string, atIso: string): void;
  /**
   * SQLite's PRAGMA data_version of this connection: it moves on every commit made by another connection (another
   * instance, the CLI), never on this one's. Lets a pass skip re-reading rows nobody else can have changed.
   */
  dataVersion(): number;
}

/** JobsRepo.unmarkedStamp's count, one per connection. */
const unmarkedStamps = new WeakMap<Db, { n: number }>();

export function createJobsRepo(db: Db): JobsRepo {
  const insert = db.prepare(`INSERT INTO jobs (id, account_id, product, model_id, name, language, status, error_code,
      error_message, params_json, input_json, duration_seconds, result_json, progress, batch_id, attempts,
      cancel_requested, pause_requested, claimed_by, lease_expires_at, estimated_usd_micro, estimated_seconds, price_json,
      reserved_usd_micro, deadline_at, created_at, started_at, finished_at, updated_at)
    VALUES (@id, @account_id, @product, @model_id, @name, @language, @status, @error_code, @error_message,
      @params_json, @input_json, @duration_seconds, @result_json, @progress, @batch_id, @attempts, @cancel_requested,
      @pause_requested, @claimed_by, @lease_expires_at, @estimated_usd_micro, @estimated_seconds, @price_json, @reserved_usd_micro,
      @deadline_at, @created_at, @started_at, @finished_at, @updated_at)`);
  const get = db.prepare<[string], unknown[]>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`).raw(true);
  const getWithoutResult = db.prepare<[string], unknown[]>(`SELECT ${JOB_COLUMNS.replace('result_json', 'NULL AS result_json')} FROM jobs WHERE id = ?`).raw(true);
  const resultFacts = db.prepare<[string], { language: unknown; duration: unknown }>(
    "SELECT json_extract(result_json, '$.language') AS language, json_extract(result_json, '$.duration') AS duration FROM jobs WHERE id = ? AND json_valid(result_json)",
  );
  const inputsToPurge = db.prepare<[string, number], Pick<JobRow, 'id' | 'input_json'>>(`SELECT id, input_json FROM jobs
    WHERE input_purged_at IS NULL AND finished_at IS NOT NULL AND finished_at < ? ORDER BY finished_at LIMIT ?`);
  const markInputPurged = db.prepare('UPDATE jobs SET input_purged_at = ? WHERE id = ?');
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  // One UPDATE per set of columns a change writes (a waiting mark, a claim, a success…), each prepared on its first use
  // and kept. Setting only what changed matters: SQLite maintains only the indexes on columns in the SET list (or in
  // a partial index's WHERE), so a waiting mark leaves the queue index alone, and every index page an UPDATE touches
  // is one more page in the commit's WAL write (bench/jobs-throughput.ts).
  const writes = new Map<string, Statement>();
  function writeStatement(columns: string[]): Statement {
    const key = columns.join(',');
    let statement = writes.get(key);
    if (!statement) {
      for (const column of columns) if (!MUTABLE_COLUMNS.has(column)) throw new Error(`jobs.${column} is not a mutable column`);
      const set = columns.map((column) => `${column} = @${column}`).join(', ');
      statement = db.prepare(`UPDATE jobs SET ${set} WHERE id = @id AND status = @expected`);
      writes.set(key, statement);
    }
    return statement;
  }
  // A paused job is queued but not waiting for anything the scheduler can give: it is left alone until resumed.
  const queued = db.prepare<[number], unknown[]>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'queued' AND error_code IS NOT '${PAUSED}' ORDER BY created_at, id LIMIT ?`,
  ).raw(true);
  const anyQueued = db.prepare<[], number>(`SELECT 1 FROM jobs WHERE status = 'queued' AND error_code IS NOT '${PAUSED}' LIMIT 1`).pluck();
  // `(created_at, id) > (…)` as a row value: the index on (status, created_at, id) is searched from that key on (an
  // `@afterAt IS NULL OR …` form made SQLite read the whole queue on every pass).
  const queuedAfter = db.prepare<Record<string, unknown>, unknown[]>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'queued'
      AND error_code IS NOT '${PAUSED}' AND (created_at, id) > (@afterAt, @afterId)
    ORDER BY created_at, id LIMIT @limit`).raw(true);
  // Run on every scheduler pass: the partial index holds only the unmarked rows, so the pass does not read the whole
  // queue to find none (the planner picked jobs_queue and checked every queued row).
  const queuedUnmarked = db.prepare<[number], unknown[]>(
    `SELECT ${JOB_COLUMNS} FROM jobs INDEXED BY jobs_unmarked WHERE status = 'queued' AND error_code IS NULL ORDER BY created_at, id LIMIT ?`,
  ).raw(true);
  const running = db.prepare<[], unknown[]>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'running' ORDER BY created_at, id`).raw(true);
  const renewLease = db.prepare<[string, string, string]>("UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND claimed_by = ? AND status = 'running'");
  const lapsed = db.prepare<[string], unknown[]>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'running' AND lease_expires_at IS NOT NULL AND lease_expires_at < ? ORDER BY created_at, id`,
  ).raw(true);
  // Paused jobs do not expire (resuming starts a new queue window), and hosted work held by the monthly spending cap
  // keeps its place until the budget allows it: neither ever expires.
  const overdue = db.prepare<[string], unknown[]>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE status = 'queued' AND error_code IS NOT '${PAUSED}' AND error_code IS NOT '${BUDGET_WAIT}'
      AND deadline_at IS NOT NULL AND deadline_at <= ?`,
  ).raw(true);
  const ofBatch = db.prepare<[string], unknown[]>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE batch_id = ? ORDER BY created_at, id`).raw(true);
  const page = db.prepare<Record<string, unknown>, unknown[]>(`SELECT ${JOB_COLUMNS} FROM jobs
    WHERE account_id = @accountId
      AND (@product IS NULL OR product = @product)
      AND (@status IS NULL OR status = @status)
      AND (@afterAt IS NULL OR created_at < @afterAt OR (created_at = @afterAt AND id < @afterId))
    ORDER BY created_at DESC, id DESC LIMIT @limit`).raw(true);
  // An OR, not an IN: the partial index jobs_active (migration 020) is used only for a WHERE that implies its own.
  const counts = db.prepare<Record<string, unknown>, { status: JobStatus; error_code: string | null; n: number }>(
    `SELECT status, error_code, COUNT(*) AS n FROM jobs
     WHERE (status = 'queued' OR status = 'running') AND (@accountId IS NULL OR account_id = @accountId)
     GROUP BY status, error_code`,
  );

  // Per connection, not per repo: two repos on one connection see each other's writes and no data_version move.
  let stamp = unmarkedStamps.get(db);
  if (!stamp) unmarkedStamps.set(db, (stamp = { n: 0 }));
  const unmarked = stamp;

  return {
    insert: (row) => {
      insert.run(row);
      if (row.status === 'queued' && row.error_code === null) unmarked.n++;
    },
    get: (id) => {
      const raw = get.get(id);
      return raw ? toRow(raw) : undefined;
    },
    getWithoutResult: (id) => {
      const raw = getWithoutResult.get(id);
      return raw ? toRow(raw) : undefined;
    },
    resultFacts: (id) => {
      const facts = resultFacts.get(id);
      return {
        language: typeof facts?.language === 'string' ? facts.language : null,
        duration: typeof facts?.duration === 'number' ? facts.duration : null,
      };
    },
    write: (id, expected, values) => {
      const columns = Object.keys(values).filter((column) => values[column as keyof JobMutable] !== undefined);
      if (columns.length === 0) return get.get(id)?.[STATUS] === expected;
      if (values.status === 'queued' || (values.status === undefined && values.error_code === null)) unmarked.n++;
      return writeStatement(columns).run({ ...values, id, expected }).changes === 1;
    },
    queued: (limit) => queued.all(limit).map(toRow),
    anyQueued: () => anyQueued.get() !== undefined,
    queuedAfter: (after, limit) => (after ? queuedAfter.all({ afterAt: after.created_at, afterId: after.id, limit }) : queued.all(limit)).map(toRow),
    queuedUnmarked: (limit) => queuedUnmarked.all(limit).map(toRow),
    unmarkedStamp: () => unmarked.n,
    running: () => running.all().map(toRow),
    renewLeases: (instanceId, ids, untilIso) => db.transaction(() => ids.filter((id) => renewLease.run(untilIso, id, instanceId).changes === 1))(),
    lapsedLeases: (nowIso) => lapsed.all(nowIso).map(toRow),
    overdue: (nowIso) => overdue.all(nowIso).map(toRow),
    ofBatch: (batchId) => ofBatch.all(batchId).map(toRow),
    page: (q) =>
      page
        .all({
          accountId: q.accountId,
          product: q.product,
          status: q.status,
          afterAt: q.after?.created_at ?? null,
          afterId: q.after?.id ?? null,
          limit: q.limit,
        })
        .map(toRow),
    countByStatus: (accountId) => counts.all({ accountId }),
    inputsToPurge: (beforeIso, limit) => inputsToPurge.all(beforeIso, limit),
    markInputPurged: (id, atIso) => void markInputPurged.run(atIso, id),
    dataVersion: () => dataVersion.get()!,
  };
}
