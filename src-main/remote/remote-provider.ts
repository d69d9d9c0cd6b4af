/**
 * Hosted-service forwarding as one object the service wires in: the remote ModelSource (cached hosted catalogue),
 * the remote runner for the job engine, and the endpoint settings (GET/PUT /v1/settings/remote). Everything it keeps
 * is in the shared store (store.ts) — the settings, the sealed key, the remote jobs, batches and catalogue rows — so in
 * a cluster forwarding configured through any API node is in force on every node, and a forwarded job claimed by any
 * worker follows the hosted job its row names.
 *
 *   const remote = await createRemoteProvider({ repos: store.repos, secrets, initial: { url: cliRemoteUrl } });
 *   catalogue sources: [..., remote.source]; createJobService({..., runners: { remote: remote.jobRunner } });
 *   remote.start(); on another node's commit: remote.othersCommitted();
 *   the service's hosted-settings routes call view() and update(); on close, after the job engine: remote.stop().
 */
import { ApiError, JobError } from '../common/errors.js';
import { isProduct } from '../common/products.js';
import type { JobRunner, Readiness } from '../jobs/engine/job-runner.js';
import type { RemoteBatchesRepo } from '../store/remote-batches-repo.js';
import type { RemoteJobsRepo } from '../store/remote-jobs-repo.js';
import type { SharedSecrets } from '../store/secrets/shared-secrets.js';
import type { Async, StoreRepos } from '../store/store.js';
import { Connectivity, type ConnectivityState } from './connectivity.js';
import { isNetworkError } from './remote-errors.js';
import { RemoteCatalogue, type CatalogueState } from './remote-catalogue.js';
import { resolveRemoteOptions, type RemoteOptions } from './remote-options.js';
import { RemoteRunner } from './remote-runner.js';
import { RemoteSettingsStore, normaliseRemoteUrl } from './remote-settings-store.js';
import type { Log } from '../common/log.js';
import { createLog } from '../common/log.js';
import { textSink } from '../common/log-sinks.js';

/** How long PUT /v1/settings/remote waits for the new hosted catalogue before answering. Default 5000 ms. */
export const SETTINGS_FETCH_WAIT_MS = 5_000;

export interface RemoteProviderOptions {
  /** The shared store's repositories: forwarding state, the cached catalogue, the endpoint. */
  repos: Pick<StoreRepos, 'settings' | 'remoteJobs' | 'remoteBatches' | 'remoteCatalogue'>;
  /** Where the hosted key is kept, sealed (store/secrets/shared-secrets.ts; a cluster's: cluster-key-cipher.ts). */
  secrets: SharedSecrets;
  /**
   * Endpoint given at start-up (`voxdesk serve --remote-url URL` with VOXDESK_REMOTE_KEY). Stored in the settings
   * when given, so it also holds for later starts. Default: $VOXDESK_REMOTE_URL / $VOXDESK_REMOTE_KEY when set,
   * else whatever the settings hold.
   */
  initial?: { url?: string | null; key?: string | null };
  /** Intervals and timeouts; defaults in remote-options.ts. */
  options?: Partial<RemoteOptions>;
  /** Diagnostics (never stdout). Default: stderr. */
  log?: Log;
  /** Environment read for the defaults above and the crash-test hook. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** What GET /v1/settings/remote answers: never the key itself. */
export interface RemoteSettingsView {
  url: string | null;
  key_set: boolean;
  reachable: boolean | null;
  last_error: string | null;
  catalogue: { fetched_at: string | null; models: number; last_error: string | null };
}

export interface RemoteSettingsUpdate {
  url: string | null;
  /**
   * Omitted keeps the stored key while the URL stays the same, and clears it when the URL changes: the key was given
   * for one service and is never sent to another without being given again. '' or null clears it.
   */
  key?: string | null;
}

/** The key to keep after a change of endpoint: a key given now, else the stored one only for the same URL. */
export function keyAfterChange(stored: { url: string | null; key: string | null }, url: string | null, given: string | null | undefined): string | null {
  if (given !== undefined) return given || null;
  return url === stored.url ? stored.key : null;
}

export class RemoteProvider {
  readonly settingsStore: RemoteSettingsStore;
  readonly jobsRepo: Async<RemoteJobsRepo>;
  readonly batchesRepo: Async<RemoteBatchesRepo>;
  readonly source: RemoteCatalogue;
  readonly runner: RemoteRunner;
  readonly connectivity: Connectivity;
  readonly options: RemoteOptions;
  /** The job engine's runner for models whose definition.engine is 'remote'. */
  readonly jobRunner: JobRunner;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(opts: RemoteProviderOptions) {
    const log = opts.log ?? createLog(textSink({ scopes: true })).child('remote');
    this.options = resolveRemoteOptions(opts.options);
    this.settingsStore = new RemoteSettingsStore(opts.repos.settings, opts.secrets, log);
    this.jobsRepo = opts.repos.remoteJobs;
    this.connectivity = new Connectivity(() => this.source.probe(), this.options);
    this.source = new RemoteCatalogue(this.settingsStore, opts.repos.remoteCatalogue, this.options, log, (error) => {
      if (!error) this.connectivity.ok();
      else if (isNetworkError(error)) this.connectivity.unreachable((error as Error).message);
    });
    const crashAt = (opts.env ?? process.env).VOXDESK_TEST_CRASH_POINT;
    this.batchesRepo = opts.repos.remoteBatches;
    this.runner = new RemoteRunner({
      endpoint: () => this.settingsStore.endpoint(),
      jobs: this.jobsRepo,
      batches: this.batchesRepo,
      connectivity: this.connectivity,
      options: this.options,
      log,
      // Crash tests only: SIGKILL ourselves at the named point (no cleanup may run, as in a real power cut).
      crashPoint: crashAt ? (name) => name === crashAt && process.kill(process.pid, 'SIGKILL') : undefined,
    });
    this.jobRunner = {
      concurrency: this.options.concurrency,
      readiness: (_definition, job): Readiness => {
        if (this.connectivity.state().reachable === false) return 'waiting_for_network';
        return job?.batchId ? this.runner.batchReadiness(job.batchId) : null;
      },
      run: (task, ctx) => {
        const hosted = task.definition.engineConfig.remoteModelId;
        const product = task.product;
        if (!isProduct(product)) throw new JobError('model_unavailable', `${product} jobs are not forwarded to the hosted service`);
        return this.runner.run({ ...task, product, name: null, remoteModelId: typeof hosted === 'string' ? hosted : undefined }, ctx);
      },
      // Batches on hosted models are held pending until the hosted service accepts them as one batch.
      placeBatch: (batch, signal) => this.runner.placeBatch(batch, signal),
    };
  }

  /**
   * Reads what is stored (settings, key, cached catalogue) and applies the endpoint given at start-up. A key given at
   * start-up that this node cannot seal (a cluster node without its sealing key) stops the start with the reason.
   */
  async open(opts: Pick<RemoteProviderOptions, 'initial' | 'env'>): Promise<void> {
    const env = opts.env ?? process.env;
    await this.settingsStore.load();
    const url = opts.initial?.url ?? env.VOXDESK_REMOTE_URL ?? null;
    const key = opts.initial?.key ?? env.VOXDESK_REMOTE_KEY ?? null;
    if (url || key) {
      const stored = this.settingsStore.read();
      const next = url ? normaliseRemoteUrl(url) : stored.url;
      const kept = !key && next === stored.url;
      const refusal = key ? this.settingsStore.sealRefusal : null;
      if (refusal) throw new Error(`VOXDESK_REMOTE_KEY: ${refusal}`);
      await this.settingsStore.write({ url: next, key: kept ? undefined : keyAfterChange(stored, next, key || undefined) });
    }
    await this.source.loadCache();
  }

  /**
   * Another node committed something: when the forwarding settings changed there (another API node's PUT), this node
   * follows — the catalogue is read again (the rows the other node cached, then a fetch of its own) and the
   * connectivity of the old endpoint forgotten. Costs one settings read when nothing changed.
   */
  async othersCommitted(): Promise<void> {
    const before = this.settingsStore.read().url;
    if (!(await this.settingsStore.load())) return;
    if (this.settingsStore.read().url !== before) this.connectivity.reset();
    await this.source.loadCache();
    void this.source.refresh();
  }

  start(): void {
    this.source.start();
    this.sweepTimer = setInterval(() => void this.cancelOrphanBatches(), this.options.orphanSweepMs);
    this.sweepTimer.unref();
  }

  /** Call after the job engine stopped (its grace period lets forwarded batch items finish). */
  stop(): void {
    this.source.stop();
    this.connectivity.stop();
    this.runner.stop();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /** Cancels hosted batches whose local items all ended while queued here (also run every orphanSweepMs). */
  async cancelOrphanBatches(): Promise<void> {
    if (this.connectivity.state().reachable === false || this.sweeping) return;
    this.sweeping = true;
    try {
      await this.runner.cancelOrphanBatches();
    } finally {
      this.sweeping = false;
    }
  }

  view(): RemoteSettingsView {
    const { url, key } = this.settingsStore.read();
    const reach: ConnectivityState = this.connectivity.state();
    const catalogue: CatalogueState = this.source.state();
    return {
      url,
      key_set: Boolean(key),
      reachable: reach.reachable,
      last_error: this.settingsStore.keyProblem ?? reach.lastError,
      catalogue: { fetched_at: catalogue.fetchedAt, models: catalogue.models, last_error: catalogue.lastError },
    };
  }

  /**
   * Validates and stores new settings, then reloads the hosted catalogue (awaited, so the answer shows it). A key
   * this node cannot seal (a cluster node without its sealing key) is refused with 409 `conflict` saying what to set.
   */
  async update(update: RemoteSettingsUpdate): Promise<RemoteSettingsView> {
    await this.settingsStore.load();
    const stored = this.settingsStore.read();
    const url = update.url ? normaliseRemoteUrl(update.url) : null;
    const key = keyAfterChange(stored, url, update.key);
    const refusal = key ? this.settingsStore.sealRefusal : null;
    if (refusal) throw new ApiError('conflict', `the hosted key cannot be stored: ${refusal}`);
    // Kept as it is (not written again) when the URL stays and no key is given: one this node cannot open stays too.
    const kept = update.key === undefined && url === stored.url;
    await this.settingsStore.write({ url, key: kept ? undefined : key });
    if (url !== stored.url) this.connectivity.reset();
    // Wait a little for the new catalogue so the answer can show it; a slow endpoint keeps loading in the background.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.source.reload(), new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTINGS_FETCH_WAIT_MS)))]);
    clearTimeout(timer);
    return this.view();
  }
}

/** A provider with what is stored read (RemoteProvider.open); throws what open throws. */
export async function createRemoteProvider(options: RemoteProviderOptions): Promise<RemoteProvider> {
  const provider = new RemoteProvider(options);
  await provider.open(options);
  return provider;
}
