/**
 * The routes of the local account (docs/design.md §3): the model manager, the settings, the spending cap, watch folders,
 * meeting capture and the browser session; other accounts get 404 from them. The spec's routes and their extensions
 * are in api-client.ts, whose ApiClient extends this.
 */
import type { Capture, CaptureList, CaptureRequest, CaptureSources } from './capture-protocol.js';
import type { OpenAiSettingsUpdate, OpenAiSettingsView } from './openai-names.js';
import type { BudgetSettings, WelcomeInfo } from './api-types.js';
import type { LanguageModelSettingsInfo } from './ai-types.js';
import type { Capability } from './products.js';
import type { WatchFolderInput, WatchFoldersSettings } from './watch-folder-types.js';
import type { ModelDownloadSettings, RemoteSettings, RetentionSettings } from './settings-types.js';
import { ApiClientBase, query } from './api-client-base.js';

/** One package of the model manager (`GET /v1/local/models`); fields the UI reads, others pass through. */
export interface LocalModel {
  id: string;
  name?: string;
  capability?: Capability;
  family?: string;
  languages?: string[];
  size_bytes?: number | null;
  licence?: string | null;
  /** e.g. not_installed | downloading | installed | failed | imported. */
  state: string;
  progress?: number | null;
  downloaded_bytes?: number | null;
  error_message?: string | null;
  /** Shipped inside the app (Silero VAD): installed from the first start, nothing to download, not removable. */
  built_in?: boolean;
  /** fast, medium or slow on a laptop CPU; null when not known (imports, packages added by URL). */
  speed_class?: 'fast' | 'medium' | 'slow' | null;
  /** The spec's family label the package serves (W-turbo, P3 …), or null. */
  spec_family?: string | null;
  /** A curated package whose checksum no published source confirms: why (installed only when the person accepts). */
  unconfirmed?: string | null;
  /** Installed: whether every file matched a published sha256 (false: installed unverified). */
  verified?: boolean | null;
  [key: string]: unknown;
}

/** POST /v1/local/models: a model added by URL (downloaded like a curated one, family detected unless given). */
export interface AddModelRequest {
  url: string;
  sha256: string;
  id?: string;
  name?: string;
  size_bytes?: number;
  family?: string;
  languages?: string[];
}

export interface SessionBootstrap {
  api_key: string;
  account_id?: string;
  data_dir?: string;
  [key: string]: unknown;
}

/** GET /v1/session: the account a key belongs to (data_dir for the local account only). */
export interface SessionInfo {
  account_id: string;
  account: string;
  data_dir: string | null;
}

export class LocalRoutesClient extends ApiClientBase {

  // Model manager (local service only).
  /** The first-start screen's offer for a language tag (navigator.language): GET /v1/local/welcome. */
  welcome(language?: string): Promise<WelcomeInfo> {
    return this.request('GET', `/v1/local/welcome${query({ language })}`);
  }
  async localModels(): Promise<LocalModel[]> {
    const body = await this.request<{ data: LocalModel[] } | LocalModel[]>('GET', '/v1/local/models');
    return Array.isArray(body) ? body : body.data;
  }
  /** `acceptUnconfirmed`: the person accepts installing a package whose checksum no published source confirms. */
  downloadModel(id: string, options: { acceptUnconfirmed?: boolean } = {}): Promise<LocalModel> {
    const body = options.acceptUnconfirmed ? { accept_unconfirmed: true } : undefined;
    return this.request('POST', `/v1/local/models/${encodeURIComponent(id)}/download`, body);
  }
  cancelDownload(id: string): Promise<LocalModel> {
    return this.request('DELETE', `/v1/local/models/${encodeURIComponent(id)}/download`);
  }
  removeModel(id: string): Promise<unknown> {
    return this.request('DELETE', `/v1/local/models/${encodeURIComponent(id)}`);
  }
  importModel(path: string): Promise<LocalModel> {
    return this.request('POST', '/v1/local/models/import', { path });
  }
  addModelFromUrl(body: AddModelRequest): Promise<LocalModel> {
    return this.request('POST', '/v1/local/models', body);
  }
  getModelSettings(): Promise<ModelDownloadSettings> {
    return this.request('GET', '/v1/settings/models');
  }
  /** An omitted field keeps its value; null or '' clears it (the environment's value applies again). */
  putModelSettings(body: { mirror?: string | null; ca_file?: string | null }): Promise<ModelDownloadSettings> {
    return this.request('PUT', '/v1/settings/models', body);
  }

  // Language-model actions on transcripts (docs/ai-actions.md).
  getLanguageModelSettings(): Promise<LanguageModelSettingsInfo> {
    return this.request('GET', '/v1/settings/language-model');
  }
  /** `api_key` omitted keeps the stored key; '' or null clears it. `base_url` null clears the settings. */
  putLanguageModelSettings(body: {
    base_url: string | null;
    model?: string | null;
    api_key?: string | null;
    context_tokens?: number | null;
    /** USD per million tokens of a hosted endpoint; null: free (docs/ai-actions.md). */
    price?: LanguageModelSettingsInfo['price'];
  }): Promise<LanguageModelSettingsInfo> {
    return this.request('PUT', '/v1/settings/language-model', body);
  }
  /** "Test connection": the endpoint's GET /models with these settings (the stored key when api_key is omitted). */
  testLanguageModel(body: { base_url: string; model: string; api_key?: string | null }): Promise<{ ok: boolean; models: string[]; model_listed: boolean }> {
    return this.request('POST', '/v1/settings/language-model/test', body);
  }

  // Settings and session.
  getRemoteSettings(): Promise<RemoteSettings> {
    return this.request('GET', '/v1/settings/remote');
  }
  /** `key` omitted keeps the stored key; an empty string clears it. */
  putRemoteSettings(body: { url: string | null; key?: string }): Promise<RemoteSettings> {
    return this.request('PUT', '/v1/settings/remote', body);
  }
  getRetentionSettings(): Promise<RetentionSettings> {
    return this.request('GET', '/v1/settings/retention');
  }
  /** An omitted field keeps its stored value. */
  putRetentionSettings(body: { recordings_hours?: number | null; job_history_days?: number | null }): Promise<RetentionSettings> {
    return this.request('PUT', '/v1/settings/retention', body);
  }
  /** GET /v1/settings/openai: what OpenAI's model and voice names mean here (local account only). */
  getOpenAiSettings(): Promise<OpenAiSettingsView> {
    return this.request('GET', '/v1/settings/openai');
  }

  putOpenAiSettings(body: OpenAiSettingsUpdate): Promise<OpenAiSettingsView> {
    return this.request('PUT', '/v1/settings/openai', body);
  }
  /** The monthly cap on hosted spending and where this month stands (local account). */
  getBudget(): Promise<BudgetSettings> {
    return this.request('GET', '/v1/settings/budget');
  }
  /** `monthly_usd` in dollars; null removes the cap. */
  putBudget(body: { monthly_usd: number | null }): Promise<BudgetSettings> {
    return this.request('PUT', '/v1/settings/budget', body);
  }
  /** The watch folders with their status (local account only). */
  getWatchFolders(): Promise<WatchFoldersSettings> {
    return this.request('GET', '/v1/settings/watch-folders');
  }
  /** Replaces the whole list ([] stops watching); answers like getWatchFolders. */
  putWatchFolders(folders: WatchFolderInput[]): Promise<WatchFoldersSettings> {
    return this.request('PUT', '/v1/settings/watch-folders', { folders });
  }
  /** Browser mode: trades the one-time login token of `serve --ui`'s address for a session key. */
  bootstrap(token: string): Promise<SessionBootstrap> {
    return this.request('POST', '/v1/session/bootstrap', { token });
  }
  session(): Promise<SessionInfo> {
    return this.request('GET', '/v1/session');
  }
  /** Meeting capture (local account only; docs/capture.md): what this machine can record, or why nothing. */
  captureSources(): Promise<CaptureSources> {
    return this.request('GET', '/v1/captures/sources');
  }
  /** Starts recording the microphone and the system's output; 409 conflict while one already runs. */
  startCapture(body: CaptureRequest): Promise<Capture> {
    return this.request('POST', '/v1/captures', body);
  }
  /** The running capture and the last ended ones. */
  listCaptures(): Promise<CaptureList> {
    return this.request('GET', '/v1/captures');
  }
  /** Stops it and waits for the last finals: the answer is done with its job_id. */
  stopCapture(id: string): Promise<Capture> {
    return this.request('POST', `/v1/captures/${encodeURIComponent(id)}/stop`);
  }
  /** ws(s) URL of a capture's live transcript socket, the key in `api_key` (browsers cannot set headers). */
  captureSocketUrl(capture: Pick<Capture, 'realtime_path'>): string {
    const url = new URL(this.url(capture.realtime_path));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (this.apiKey) url.searchParams.set('api_key', this.apiKey);
    return url.toString();
  }
}
