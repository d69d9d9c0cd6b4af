/**
 * Creating jobs and batches: validation that needs the store, idempotency keys, and the inserts, in one transaction.
 * Across nodes: an idempotency key is unique per account in the store (a second node replaying the same request
 * conflicts on the insert and reads the first one's), and the two open batches per account are counted under the
 * store's per-account lock (`batches.lockAccount`).
 */
import { ApiError } from '../../common/errors.js';
import { MAX_BATCH_ITEMS, MAX_OPEN_BATCHES } from '../../common/limits.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { IDEMPOTENCY_TTL_MS } from '../../store/idempotency-repo.js';
import { isoAt } from '../../store/clock.js';
import { newId } from '../../store/ids.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { StoreRepos } from '../../store/store.js';
import { holdsBatches } from './batch-hold.js';
import { batchEstimate, estimatedSecondsOf, priceSnapshot } from '../money/billing.js';
import { nowIso, type JobCore } from './job-core.js';
import { defaultJobName } from './job-name.js';
import { dropKept, keepInput } from './stored-input.js';
import { newJobRow } from './job-rows.js';
import { inputWithHotwords, takesHotwords } from '../transcripts/vocabulary-revision.js';
import type { AlongWithJob, Idempotency, NewBatch, NewJob } from './job-service-types.js';

export interface JobInsert {
  idem?: Idempotency;
  /**
   * A retried job whose committed segments (checkpoints) the new job starts from, with its measured duration and
   * progress, in the same transaction.
   */
  continues?: JobRow;
}

/** `row`: the job as inserted (not for a replay). */
export type Inserted = { id: string; replayed: boolean; row?: JobRow };

export interface Intake {
  insertJob(job: NewJob, how?: JobInsert): Promise<Inserted>;
  /** With the caller's writes in the same transaction (JobService.createJobAlong); null when `along.before` declined. */
  insertJobAlong(job: NewJob, along: AlongWithJob): Promise<Inserted | null>;
  insertBatch(batch: NewBatch, idem?: Idempotency): Promise<{ id: string; replayed: boolean }>;
}

export function createIntake(core: JobCore): Intake {
  const { options, machine } = core;
  const { clock, resolveModel } = options;
  const now = (): string => nowIso(core);

  async function checkAccount(repos: StoreRepos, accountId: string): Promise<void> {
    if (!(await repos.accounts.getAccount(accountId))) throw new ApiError('unauthorized', `account ${accountId} does not exist`);
  }

  /** The model's resolved catalogue definition: its price is the one the job or batch is accepted at. */
  function checkModel(modelId: string): ModelDefinition {
    const definition = resolveModel(modelId);
    if (!definition) throw new ApiError('model_unavailable', `model ${modelId} is not in the catalogue`);
    return definition;
  }

  /** Inside a tx: the resource an idempotency key already names, or undefined; throws 409 on a different request. */
  async function replayOf(repos: StoreRepos, accountId: string, type: 'job' | 'batch', idem: Idempotency | undefined): Promise<string | undefined> {
    if (!idem) return undefined;
    const found = await repos.idempotency.find(accountId, idem.key, now());
    if (!found) return undefined;
    if (found.request_hash !== idem.requestHash || found.resource_type !== type) {
      throw new ApiError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request in the last 24 hours; use a new key.',
      );
    }
    return found.resource_id;
  }

  async function rememberKey(repos: StoreRepos, accountId: string, type: 'job' | 'batch', id: string, idem: Idempotency | undefined): Promise<void> {
    if (!idem) return;
    await repos.idempotency.insert({
      account_id: accountId,
      key: idem.key,
      request_hash: idem.requestHash,
      resource_type: type,
      resource_id: id,
      created_at: now(),
      expires_at: isoAt(clock, IDEMPOTENCY_TTL_MS),
    });
  }

  /** The input a job runs on: the request's, with the account's hotwords for a model that takes them (vocabulary-revision.ts). */
  async function withVocabulary(repos: StoreRepos, accountId: string, product: string, definition: ModelDefinition, params: Record<string, unknown>, input: EngineInput): Promise<EngineInput> {
    if (product !== 'speech-to-text' || !takesHotwords(definition)) return input;
    return inputWithHotwords(input, params, definition, await repos.vocabulary.get(accountId));
  }

  function insertJob(job: NewJob, how: JobInsert = {}): Promise<Inserted> {
    return insert(job, how, undefined) as Promise<Inserted>;
  }

  /**
   * Input files go to storage before the transaction (a transaction awaits only the store); a request that inserted
   * nothing (a replay, a declined `along`, a refusal) deletes what it put there.
   */
  async function withKeptInputs<T>(inputs: readonly EngineInput[], insertRows: (stored: EngineInput[]) => Promise<T>, insertedNothing: (result: T) => boolean): Promise<T> {
    if (options.files.kind === 'folder') return insertRows([...inputs]);
    const stored: EngineInput[] = [];
    const kept: string[] = [];
    try {
      for (const input of inputs) {
        const one = await keepInput(options.files, input);
        stored.push(one.input);
        kept.push(...one.kept);
      }
    } catch (error) {
      await dropKept(options.files, kept);
      throw new ApiError('upstream_unavailable', `the upload could not be stored in the storage bucket (${(error as Error).message}); try again`, { cause: error });
    }
    let result: T;
    try {
      result = await insertRows(stored);
    } catch (error) {
      await dropKept(options.files, kept);
      throw error;
    }
    if (insertedNothing(result)) await dropKept(options.files, kept);
    return result;
  }

  function insert(job: NewJob, how: JobInsert, along: AlongWithJob | undefined): Promise<Inserted | null> {
    return withKeptInputs([job.input], ([input]) => insertRow({ ...job, input: input! }, how, along), (inserted) => !inserted || inserted.replayed);
  }

  function insertRow(job: NewJob, { idem, continues }: JobInsert, along: AlongWithJob | undefined): Promise<Inserted | null> {
    return machine.tx(async (tx) => {
      const { repos } = tx;
      if (along && !(await along.before(repos))) return null;
      const replay = await replayOf(repos, job.accountId, 'job', idem);
      if (replay) return { id: replay, replayed: true };
      await checkAccount(repos, job.accountId);
      const definition = checkModel(job.modelId);
      const input = await withVocabulary(repos, job.accountId, job.product, definition, job.params, job.input);
      const named = { ...job, input, name: job.name ?? defaultJobName(job.product, job.input) };
      const row = newJobRow(core, named, null, priceSnapshot(definition));
      const checkpoint = continues && (await repos.segments.count(continues.id)) > 0;
      if (continues && checkpoint) Object.assign(row, { duration_seconds: continues.duration_seconds, progress: continues.progress });
      await repos.jobs.insert(row);
      if (continues && checkpoint) await repos.segments.copy(continues.id, row.id, now());
      await rememberKey(repos, job.accountId, 'job', row.id, idem);
      await along?.after(repos, row.id);
      tx.touch(row, null);
      return { id: row.id, replayed: false, row };
    });
  }

  async function insertBatch(batch: NewBatch, idem?: Idempotency): Promise<{ id: string; replayed: boolean }> {
    if (batch.items.length === 0) throw new ApiError('invalid_request', 'a batch needs at least one item');
    if (batch.items.length > MAX_BATCH_ITEMS) {
      throw new ApiError('too_many_items', `a batch holds at most ${MAX_BATCH_ITEMS} items, got ${batch.items.length}`);
    }
    return withKeptInputs(
      batch.items.map((item) => item.input),
      (inputs) => insertBatchRows({ ...batch, items: batch.items.map((item, i) => ({ ...item, input: inputs[i]! })) }, idem),
      (inserted) => inserted.replayed,
    );
  }

  function insertBatchRows(batch: NewBatch, idem?: Idempotency): Promise<{ id: string; replayed: boolean }> {
    return machine.tx(async (tx) => {
      const { repos } = tx;
      const replay = await replayOf(repos, batch.accountId, 'batch', idem);
      if (replay) return { id: replay, replayed: true };
      await checkAccount(repos, batch.accountId);
      const definition = checkModel(batch.modelId);
      const price = priceSnapshot(definition);
      const itemSeconds = batch.items.map((item) => estimatedSecondsOf(item.estimatedSeconds, item.input));
      await repos.batches.lockAccount(batch.accountId);
      if ((await repos.batches.countOpen(batch.accountId)) >= MAX_OPEN_BATCHES) {
        throw new ApiError('too_many_open_batches', `An account may have ${MAX_OPEN_BATCHES} open batches at a time; wait for one to complete.`);
      }
      const at = clock();
      const id = newId('bat', at.getTime());
      await repos.batches.insert({
        id,
        account_id: batch.accountId,
        product: batch.product,
        model_id: batch.modelId,
        params_json: JSON.stringify(batch.params),
        status: 'open',
        file_count: batch.items.length,
        language: batch.language,
        pending_code: null,
        pending_message: null,
        price_json: JSON.stringify(price),
        estimated_usd_micro: batchEstimate(price.pricing, batch.params, itemSeconds),
        reserved_usd_micro: null,
        reserved_at: null,
        created_at: at.toISOString(),
        finished_at: null,
      });
      // A batch the runner places as a whole (a hosted batch) keeps its items pending until then (batch-hold.ts).
      const held = holdsBatches(options, definition);
      const vocabulary = takesHotwords(definition) ? await repos.vocabulary.get(batch.accountId) : undefined;
      for (const [position, unnamed] of batch.items.entries()) {
        const item = { ...unnamed, name: unnamed.name ?? defaultJobName(batch.product, unnamed.input) };
        const estimatedSeconds = itemSeconds[position]!;
        if (held) {
          await repos.batches.insertItem({ batch_id: id, position, name: item.name, job_id: null, pending_input_json: JSON.stringify(item.input), estimated_seconds: estimatedSeconds });
          continue;
        }
        const row = newJobRow(
          core,
          { accountId: batch.accountId, product: batch.product, modelId: batch.modelId, name: item.name, language: batch.language, params: batch.params, input: batch.product === 'speech-to-text' ? inputWithHotwords(item.input, batch.params, definition, vocabulary) : item.input, estimatedSeconds },
          id,
          price,
        );
        await repos.jobs.insert(row);
        await repos.batches.insertItem({ batch_id: id, position, name: item.name, job_id: row.id, pending_input_json: null, estimated_seconds: estimatedSeconds });
        tx.touch(row.id, null);
      }
      tx.touch(null, id);
      await rememberKey(repos, batch.accountId, 'batch', id, idem);
      return { id, replayed: false };
    });
  }

  return { insertJob, insertJobAlong: (job, along) => insert(job, {}, along), insertBatch };
}
