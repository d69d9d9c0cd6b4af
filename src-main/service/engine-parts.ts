/**
 * What every process that runs jobs is made of — the API node (`voxdesk serve`, the desktop app) and the engine node
 * (`voxdesk worker`) alike: the store (open-store.ts), the accounts and the configured key, the sealed secrets, the
 * model manager, the hosted provider, the catalogue and the job engine. create-service.ts adds the HTTP API and the
 * sockets to it; create-worker.ts only a health and metrics port.
 *
 * On PostgreSQL the store's change notifications (LISTEN) drive this node: another node's commit wakes the job
 * engine (a job created on an API node starts on a worker within moments, without polling the queue) and the held
 * POSTs waiting for jobs that end elsewhere. Notifications that arrive while one such look runs are folded into one
 * more look after it.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ModelDefinition, ModelSource } from '../engines/model-definition.js';
import { CA_FILE_SETTING, MIRROR_SETTING } from '../models/downloads/download-source.js';
import { ModelManager } from '../models/model-manager.js';
import { modelManagerSource } from '../models/catalogue-source.js';
import { builtInModels } from '../models/packages/built-in-models.js';
import { definitionPaths } from '../models/definition-paths.js';
import { createJobService, type JobEngine } from '../jobs/engine/job-service.js';
import { createRemoteProvider, type RemoteProvider } from '../remote/remote-provider.js';
import { runnerSwitch, withAiModel } from '../remote/language-model/ai-model.js';
import { createAiRunner, type AiRunner } from '../remote/language-model/ai-runner.js';
import { LanguageModelSettings } from '../remote/language-model/language-model-settings.js';
import { createTranscripts, type Transcripts } from '../jobs/transcripts/transcripts.js';
import { ensurePrivateDir } from '../store/private-files.js';
import { folderFiles, type StoredFiles } from '../store/objects/stored-files.js';
import { openSecretStore } from '../store/secrets/open-secret-store.js';
import { clusterSealer } from '../store/secrets/cluster-key-cipher.js';
import { SharedSecrets } from '../store/secrets/shared-secrets.js';
import { ApiKeys } from './auth/api-keys.js';
import { BUILTIN_MODEL_SOURCES, FALLBACK_MODEL_SOURCES } from './catalogue/builtin-sources.js';
import { Catalogue } from './catalogue/catalogue.js';
import { livePricingFile, loadPricingFile, withClusterDefault } from './catalogue/pricing-file.js';
import { LOCAL_ACCOUNT, type ServiceConfig } from './config.js';
import { openStore, type OpenedStore } from './open-store.js';
import type { Log } from '../common/log.js';

export interface EngineParts {
  readonly opened: OpenedStore;
  readonly keys: ApiKeys;
  readonly localAccountId: string;
  readonly models: ModelManager;
  readonly remote: RemoteProvider;
  readonly catalogue: Catalogue;
  readonly jobs: JobEngine;
  /** Language-model actions on transcripts: each account's endpoint (its key sealed) and the runner of their jobs. */
  readonly languageModel: { settings: LanguageModelSettings; runner: AiRunner };
  /** Revisions and library search (jobs/transcripts): the API's, and the AI runner's clean-up edits (closed by the owner). */
  readonly transcripts: Transcripts;
  /** dataDir's or the storage dir's uploads folder (with object storage: in this node's cache of the bucket). */
  readonly uploadsDir: string;
  /** Where stored files are kept and read: the storage folder, or the S3 bucket through this node's cache. */
  readonly files: StoredFiles;
  /** With a bucket: fetches the packages a model's files are in before this node first uses it; else undefined. */
  readonly prepareModel: ((definition: ModelDefinition) => Promise<void>) | undefined;
  /** This node's id: PostgreSQL's (carried by its change notifications), else host and process id. */
  readonly nodeId: string;
}

/** Registers VOXDESK_API_KEY (or the desktop app's key); a revoked one stops the start with a message naming it. */
async function registerConfiguredKey(keys: ApiKeys, config: ServiceConfig): Promise<void> {
  await keys.registerKey(LOCAL_ACCOUNT, config.apiKey!, config.apiKeyName);
}

/** `run` once now, and once more after it for any number of calls that came while it ran. */
function coalesced(run: () => Promise<void>, log: Log): () => void {
  let running = false;
  let again = false;
  const go = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    run()
      .catch((error: Error) => log.info(`a change notification could not be followed: ${error.message}`))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          go();
        }
      });
  };
  return go;
}

/**
 * The storage folder, or the bucket (checked once here: an unreachable bucket or refused credentials stop the start
 * with what to fix, instead of failing the first job).
 */
async function openStoredFiles(config: ServiceConfig, opened: (() => unknown)[]): Promise<StoredFiles> {
  if (!config.objectStorage) return folderFiles(config.storageDir);
  // Loaded only for a bucket: the AWS SDK costs ~20 MB and a few hundred ms of start that the desktop never needs.
  const { s3Files } = await import('../store/objects/s3-files.js');
  const files = s3Files({ location: config.objectStorage.location, cacheDir: config.storageDir, cacheBytes: config.objectStorage.cacheBytes });
  opened.push(() => files.close());
  await files.check();
  return files;
}

/**
 * Builds the parts in order; each one that must be stopped is pushed onto `opened` (undone in reverse by a failed
 * start). `publicBaseUrl` is the API's address as known once it listens (download links in results).
 */
export async function createEngineParts(config: ServiceConfig, opened: (() => unknown)[], publicBaseUrl: () => string): Promise<EngineParts> {
  // The data dir and what is in it are private to the person (0700 folders, 0600 files; store/private-files.ts).
  ensurePrivateDir(config.dataDir);
  if (config.storageDir !== config.dataDir) mkdirSync(config.storageDir, { recursive: true, mode: 0o700 });
  const uploadsDir = join(config.storageDir, 'uploads');
  ensurePrivateDir(uploadsDir);
  // Where job runs write (the job engine's artifacts dir): made now, not by the first job's worker (6–15 ms then).
  ensurePrivateDir(join(config.storageDir, 'artifacts'));
  const files = await openStoredFiles(config, opened);
  // The private folder of the start-up warm-up job of earlier versions (a kill during it left it behind).
  rmSync(join(config.dataDir, 'warm-up'), { recursive: true, force: true });
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, checkpointInThread: true, log: config.log.child('store') });
  opened.push(() => store.close());

  const keys = new ApiKeys(store.store.repos.accounts, Date.now, store.store.othersNow, config.log.child('keys'));
  const localAccountId = await keys.ensureAccount(LOCAL_ACCOUNT);
  if (config.apiKey) await registerConfiguredKey(keys, config);

  // The node's own file holds the language-model settings and their secrets (open-store.ts); the model manager's rows
  // and hosted forwarding are in the store, shared by every node (the packages live in the storage dir).
  const local = store.local;
  const secrets = await openSecretStore({ dataDir: config.dataDir, repo: local.secrets, mode: config.secretStore, provided: config.secretCipher, log: config.log.child('secrets') });
  // The hosted key: sealed with this machine's ciphers on one machine, with the cluster's key in a cluster.
  const hostedSecrets = new SharedSecrets(store.store.repos.secrets, config.databaseUrl ? clusterSealer(config.secretsKey) : secrets.sealer);
  const models = await ModelManager.open({
    dataDir: config.storageDir,
    storedPackages: files.packages,
    store: store.store,
    log: config.log,
    ...(config.modelPackages ? { packages: config.modelPackages } : {}),
    ...(config.builtInModels ? { builtIn: builtInModels() } : {}),
  });
  opened.push(() => models.stop());
  // With a bucket, a package another node installed is fetched on this node's first use of it.
  const prepareModel = config.objectStorage ? (definition: ModelDefinition) => models.fetchPackagesOf(definitionPaths(definition)) : undefined;
  const ctx = {
    dataDir: config.storageDir,
    vadModel: () => models.supportModelPath('silero-vad'),
    punctuationModel: () => models.supportModelPath('punctuation'),
  };
  // Given on the command line: kept as the settings, like --remote-url, so the Models tab shows what is in force.
  if (config.modelMirror) await store.store.repos.settings.set(MIRROR_SETTING, config.modelMirror);
  if (config.caFile) await store.store.repos.settings.set(CA_FILE_SETTING, config.caFile);
  const remote = await createRemoteProvider({ repos: store.store.repos, secrets: hostedSecrets, log: config.log.child('remote'), ...(config.remoteUrl ? { initial: { url: config.remoteUrl } } : {}) });
  opened.push(() => remote.stop());
  const sources: ModelSource[] = [
    ...[...config.extraModelSources, ...BUILTIN_MODEL_SOURCES].map((factory) => factory(ctx)),
    modelManagerSource({ ...ctx, manager: models, log: config.log }),
    remote.source,
    ...FALLBACK_MODEL_SOURCES.map((factory) => factory(ctx)),
  ];
  const initialPricing = loadPricingFile(config.pricingFile);
  const pricingFile = config.pricingFile ? livePricingFile(config.pricingFile, initialPricing, config.log.child('pricing')) : initialPricing;
  // A cluster (a shared PostgreSQL database) serves other people: the spec's request fee unless the file says otherwise.
  const pricing = config.databaseUrl ? withClusterDefault(pricingFile) : pricingFile;
  const catalogue = new Catalogue(sources, pricing, config.log.child('catalogue'), {
    maxUploadBytes: config.maxUploadBytes,
  });

  // Language-model actions run as jobs through the plug-in runner, beside hosted forwarding (remote/language-model/).
  const languageModelSettings = new LanguageModelSettings(local.settings, secrets);
  const transcripts = createTranscripts(store.store, store.store.clock);
  opened.push(() => transcripts.close());
  const aiRunner = createAiRunner({ store: store.store, settings: languageModelSettings, transcripts, ...config.languageModelTimeouts });
  const jobs = createJobService({
    store: store.store,
    dataDir: config.storageDir,
    files,
    resolveModel: withAiModel((id) => catalogue.resolveForJobs(id)),
    refreshModels: async () => {
      await models.refresh();
      await remote.othersCommitted();
    },
    ...(prepareModel ? { prepareModel } : {}),
    ...(config.workers !== undefined ? { workers: config.workers } : {}),
    // Lapsed leases are looked for by the maintenance timer: at least once per lease, so a dead node's job waits
    // at most about two leases before another node takes it.
    ...(config.leaseSeconds !== undefined ? { leaseSeconds: config.leaseSeconds, maintenanceIntervalMs: Math.min(60_000, config.leaseSeconds * 1000) } : {}),
    runsJobs: config.runsJobs,
    publicBaseUrl,
    runners: { remote: runnerSwitch(remote.jobRunner, aiRunner) },
    workerLauncher: config.processLauncher,
    startWorkers: config.workerStart,
    idleWorkerExitMs: config.workerIdleExitMs,
    log: config.log.child('jobs'),
  });
  opened.push(() => jobs.shutdown(0));
  if (store.postgres) {
    const follow = coalesced(() => jobs.othersCommitted(), config.log);
    // Forwarding configured through another API node is in force here from its commit on.
    const followRemote = coalesced(() => remote.othersCommitted(), config.log);
    const unsubscribe = store.postgres.onCommit((own) => {
      if (own) return;
      follow();
      followRemote();
    });
    opened.push(unsubscribe);
  }
  const nodeId = store.postgres?.nodeId ?? `${hostname()}:${process.pid}`;
  return { opened: store, keys, localAccountId, models, remote, catalogue, jobs, uploadsDir, files, prepareModel, nodeId, languageModel: { settings: languageModelSettings, runner: aiRunner }, transcripts };
}
