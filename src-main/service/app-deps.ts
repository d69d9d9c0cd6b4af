/** What the Hono app needs from the running service; built by createService, also by tests. */
import type { ModelManager } from '../models/model-manager.js';
import type { RemoteProvider } from '../remote/remote-provider.js';
import type { JobService } from '../jobs/engine/job-service-types.js';
import type { Transcripts } from '../jobs/transcripts/transcripts.js';
import type { Durability } from '../store/durability.js';
import type { Store } from '../store/store.js';
import type { WatchService } from '../watch/watch-service.js';
import type { ApiKeys, KeyOwner } from './auth/api-keys.js';
import type { FailedAuthLimiter } from './auth/failed-auth-limiter.js';
import type { Origins } from './auth/origins.js';
import type { Catalogue } from './catalogue/catalogue.js';
import type { ExportRenderer } from './exports/export-renderer.js';
import type { ServiceConfig } from './config.js';
import type { NodeMetrics } from './ops/metrics.js';
import type { ParamsValidator } from './params/params-validator.js';
import type { CaptureService } from './capture/capture-service.js';
import type { UploadBudget } from './uploads/upload-budget.js';
import type { AiRunner } from '../remote/language-model/ai-runner.js';
import type { LanguageModelSettings } from '../remote/language-model/language-model-settings.js';
import type { StoredFiles } from '../store/objects/stored-files.js';

export interface AppDeps {
  config: ServiceConfig;
  /** The job store (store/store.ts): what the job engine and the routes read and write through. */
  store: Store;
  /** This node's id (PostgreSQL: the one its change notifications carry), shown by /v1/health and /metrics. */
  nodeId: string;
  /** The node's Prometheus figures (GET /metrics). */
  metrics: NodeMetrics;
  /** Makes what this connection committed durable before an answer acknowledges it (store/durability.ts). */
  durability: Durability;
  jobs: JobService;
  /** Revisions, search and the latest revision as the exports take it (the export route and the watch folders). */
  transcripts: Transcripts;
  /** Lays exports out off the service's thread (exports/export-renderer.ts). */
  exports: ExportRenderer;
  catalogue: Catalogue;
  /** The model manager (/v1/local/models). */
  models: ModelManager;
  /** Hosted-service forwarding (/v1/settings/remote). */
  remote: RemoteProvider;
  /** Watch folders (/v1/settings/watch-folders). */
  watch: WatchService;
  validator: ParamsValidator;
  keys: ApiKeys;
  origins: Origins;
  /** Keys valid only for this process: the browser UI's session key (see routes/session-routes.ts). */
  sessionKeys: Map<string, KeyOwner>;
  /** Failed key and login-token checks per client address (auth/failed-auth-limiter.ts). */
  limiter: FailedAuthLimiter;
  /** dataDir/uploads: each request's files go to a fresh directory under it. */
  uploadsDir: string;
  /** Where stored files are read: the storage folder, or the bucket through this node's cache (store/objects/). */
  files: StoredFiles;
  /** Per-account upload limits; uploads go to uploadsDir/<account id>/ (uploads/upload-budget.ts). */
  uploads: UploadBudget;
  /** Where this service answers on loopback once it listens (`http://127.0.0.1:PORT`): the MCP endpoint's tools call it. */
  selfUrl: () => string;
  /** Meeting capture (/v1/captures, the local account's). */
  captures: CaptureService;
  /** Language-model actions (/v1/settings/language-model, /v1/speech-to-text/{id}/ai): settings and the runner. */
  languageModel: { settings: LanguageModelSettings; runner: AiRunner };
  /** Aborted when the service shuts down: held POSTs answer at once with the job as it stands. */
  closing: AbortSignal;
}
