/**
 * Hosted-service forwarding as one object the service wires in: the remote ModelSource (cached hosted catalogue),
 * the remote runner for the job engine, and the endpoint settings (GET/PUT /v1/settings/remote).
 *
 *   const remote = createRemoteProvider({ repos, secrets, initial: { url: cliRemoteUrl, key: process.env.VOXDESK_REMOTE_KEY } });
 *   catalogue sources: [..., remote.source]; createJobService({..., runners: { remote: remote.jobRunner } });
 *   remote.start();
 *   the service's hosted-settings routes call view() and update(); on close, after the job engine: remote.stop().
 */
import { JobError } from '../common/errors.js';
import { isProduct } from '../common/products.js';
import type { JobRunner, Readiness } from '../jobs/engine/job-runner.js';
import type { RemoteBatchesRepo } from '../store/remote-batches-repo.js';
import type { RemoteJobsRepo } from '../store/remote-jobs-repo.js';
import type { SecretStore } from '../store/secrets/secret-store.js';
import type { Repositories } from '../store/repositories.js';
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
  /** The store's repositories (built once by the service): forwarding state, the cached catalogue, the endpoint. */
  repos: Pick<Repositories, 'settings' | 'remoteJobs' | 'remoteBatches' | 'remoteCatalogue'>;
  /** Where the hosted key is kept, sealed (store/secrets/open-secret-store.ts). */
  secrets: SecretStore;
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
  readonly jobsRepo: RemoteJobsRepo;
  readonly batchesRepo: RemoteBatchesRepo;
  readonly source: RemoteCatalogue;
  readonly runner: RemoteRunner;
  readonly connectivity: Connectivity;
  readonly options: RemoteOptions;
  /** The job engine's runner for models whose definition.engine is 'remote'. */
  readonly jobRunner: JobRunner;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(opts: RemoteProviderOptions) {
    const env = opts.env ?? process.env;
    const log = opts.log ?? createLog(textSink({ scopes: true })).child('remote');
    this.options = resolveRemoteOptions(opts.options);
    this.settingsStore = new RemoteSettingsStore(opts.repos.settings, opts.secrets, log);
    this.jobsRepo = opts.repos.remoteJobs;
    const url = opts.initial?.url ?? env.VOXDESK_REMOTE_URL ?? null;
    const key = opts.initial?.key ?? env.VOXDESK_REMOTE_KEY ?? null;
    if (url || key) {
      const stored = this.settingsStore.read();
      const next = url ? normaliseRemoteUrl(url) : stored.url;
      this.settingsStore.write({ url: next, key: keyAfterChange(stored, next, key || undefined) });
    }
    this.connectivity = new Connectivity(() => this.source.probe(), this.options);
    this.source = new RemoteCatalogue(this.settingsStore, opts.repos.remoteCatalogue, this.options, log, (error) => {
      if (!error) this.connectivity.ok();
      else if (isNetworkError(error)) this.connectivity.unreachable((error as Error).message);
    });
    const crashAt = env.VOXDESK_TEST_CRASH_POINT;
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

  /** Validates and stores new settings, then reloads the hosted catalogue (awaited, so the answer shows it). */
  async update(update: RemoteSettingsUpdate): Promise<RemoteSettingsView> {
    const stored = this.settingsStore.read();
    const url = update.url ? normaliseRemoteUrl(update.url) : null;
    const key = keyAfterChange(stored, url, update.key);
    this.settingsStore.write({ url, key });
    if (url !== stored.url) this.connectivity.reset();
    // Wait a little for the new catalogue so the answer can show it; a slow endpoint keeps loading in the background.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.source.reload(), new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTINGS_FETCH_WAIT_MS)))]);
    clearTimeout(timer);
    return this.view();
  }
}

export function createRemoteProvider(options: RemoteProviderOptions): RemoteProvider {
  return new RemoteProvider(options);
}
