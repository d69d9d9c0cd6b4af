/**
 * Typed fetch client of the Voxdesk API (spec + docs/design.md §3 extensions). Pure: no node imports, so the renderer
 * and the hosted-forwarding provider share it. Every non-2xx answer becomes an ApiClientError carrying the
 * service's `error.code`, so callers branch on codes, never on messages.
 */
import type { Capture, CaptureList, CaptureRequest, CaptureSources } from './capture-protocol.js';
import { DICTATION_PATH } from './dictation-protocol.js';
import type { OpenAiSettingsUpdate, OpenAiSettingsView } from './openai-names.js';
import type {
  Batch,
  BudgetSettings,
  CatalogueRecord,
  Health,
  Job,
  ListResponse,
  QueueSummary,
  Quote,
  SavedVoice,
  SegmentList,
  UsageGroupBy,
  UsageReport,
  WelcomeInfo,
} from './api-types.js';
import type { AiActionName, AiActionProgress, LanguageModelSettingsInfo } from './ai-types.js';
import type { Capability, JobProduct, Product } from './products.js';
import type { JobStatus } from './job-states.js';
import type { TranscriptFormat } from './transcript-formats.js';
import type { SearchList, TranscriptRevision } from './transcript-types.js';
import type { WatchFolderInput, WatchFoldersSettings } from './watch-folder-types.js';
import type { ModelDownloadSettings, RemoteSettings, RetentionSettings } from './settings-types.js';

export interface ApiClientOptions {
  /** Service origin, e.g. `http://127.0.0.1:8750` (no trailing `/v1`). */
  baseUrl: string;
  /** Bearer key; null for the public catalogue routes only. */
  apiKey: string | null;
  /** Injected fetch (default: the global one). */
  fetch?: typeof fetch;
}

export class ApiClientError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiClientError';
    this.code = code;
    this.status = status;
  }
}

export type { TranscriptFormat };

export interface ListJobsQuery {
  product?: Product;
  status?: JobStatus;
  limit?: number;
  cursor?: string | null;
}

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

export interface AudioFileUpload {
  file: Blob;
  /** File name sent with the part (the Blob may be a File already carrying one). */
  filename: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  idempotencyKey?: string;
  /** A Range header (downloads). */
  range?: string;
}

function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The multipart body of a one-recording job (speech to text, stem separation): the spec's parts in its order. */
function oneRecordingForm(upload: AudioFileUpload, fields: { model: string; params?: Record<string, unknown>; name?: string }): FormData {
  const form = new FormData();
  form.append('model', fields.model);
  if (fields.params && Object.keys(fields.params).length) form.append('params', JSON.stringify(fields.params));
  if (fields.name) form.append('name', fields.name);
  form.append('file', upload.file, upload.filename);
  return form;
}

export class ApiClient {
  readonly baseUrl: string;
  apiKey: string | null;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Absolute URL of a path under the service (artifact URLs may already be absolute). */
  url(path: string): string {
    if (/^https?:\/\//.test(path)) return path;
    return `${this.baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  /** ws(s) URL of the live text-to-speech socket; browsers cannot set headers, so the key rides in `api_key`. */
  /** `voice` (and the other query settings of the live route: language, speaker, pitch) pick the session's voice. */
  realtimeUrl(modelId: string, settings: Record<string, string> = {}): string {
    return this.socketUrl('/v1/text-to-speech/realtime', modelId, settings);
  }

  /** ws(s) URL of the live dictation socket (common/dictation-protocol.ts), the key in `api_key` like realtimeUrl. */
  dictationUrl(modelId: string): string {
    return this.socketUrl(DICTATION_PATH, modelId);
  }

  /**
   * URL of a transcription's recording (GET /v1/speech-to-text/{id}/audio) for an `<audio src>`: media elements cannot
   * send headers, so the key rides in `api_key` (that route alone takes it; its answers are no-store, no-referrer).
   */
  recordingUrl(jobId: string): string {
    const url = new URL(this.url(`/v1/speech-to-text/${encodeURIComponent(jobId)}/audio`));
    if (this.apiKey) url.searchParams.set('api_key', this.apiKey);
    return url.toString();
  }

  /** Why a recording cannot be played: the route's error (one byte is asked for, so nothing large is fetched). */
  async recordingProblem(jobId: string): Promise<ApiClientError | null> {
    try {
      const response = await this.raw('GET', `/v1/speech-to-text/${encodeURIComponent(jobId)}/audio`, undefined, { range: 'bytes=0-0' });
      await response.body?.cancel();
      return null;
    } catch (error) {
      if (error instanceof ApiClientError) return error;
      throw error;
    }
  }

  private socketUrl(path: string, modelId: string, settings: Record<string, string> = {}): string {
    const http = new URL(this.url(path));
    http.protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
    http.searchParams.set('model', modelId);
    for (const [name, value] of Object.entries(settings)) http.searchParams.set(name, value);
    if (this.apiKey) http.searchParams.set('api_key', this.apiKey);
    return http.toString();
  }

  async request<T>(method: string, path: string, body?: BodyInit | object, options: RequestOptions = {}): Promise<T> {
    const response = await this.raw(method, path, body, options);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  /** The Response of a successful call (for downloads); throws ApiClientError otherwise. */
  async raw(method: string, path: string, body?: BodyInit | object, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (options.range) headers.range = options.range;
    let payload: BodyInit | undefined;
    if (body instanceof FormData || body instanceof Blob || typeof body === 'string') payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path), { method, headers, body: payload, signal: options.signal });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiClientError('network_error', `The service at ${this.baseUrl} cannot be reached.`, 0, { cause });
    }
    if (!response.ok) throw await ApiClient.errorFrom(response);
    return response;
  }

  static async errorFrom(response: Response): Promise<ApiClientError> {
    let code = `http_${response.status}`;
    let message = `The service answered ${response.status} ${response.statusText}.`;
    try {
      const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
      if (typeof body.error?.code === 'string') code = body.error.code;
      if (typeof body.error?.message === 'string') message = body.error.message;
    } catch {
      // Not a JSON error body (e.g. a proxy page): the status line is all we know.
    }
    return new ApiClientError(code, message, response.status);
  }

  // Catalogue (public).
  async listModels(q: { capability?: Capability; include_unavailable?: boolean } = {}): Promise<CatalogueRecord[]> {
    const list = await this.request<ListResponse<CatalogueRecord>>('GET', `/v1/models${query(q)}`);
    return list.data;
  }
  getModel(id: string): Promise<CatalogueRecord> {
    return this.request('GET', `/v1/models/${encodeURIComponent(id)}`);
  }
  quote(id: string, seconds: number, options: readonly string[] = []): Promise<Quote> {
    const q = query({ seconds, options: options.length ? options.join(',') : undefined });
    return this.request('GET', `/v1/models/${encodeURIComponent(id)}/quote${q}`);
  }

  // Speech to text. Parts in the spec's order: model first, then params, name, file.
  transcribe(
    upload: AudioFileUpload,
    fields: { model: string; params?: Record<string, unknown>; name?: string },
    options: RequestOptions = {},
  ): Promise<Job> {
    return this.request('POST', '/v1/speech-to-text', oneRecordingForm(upload, fields), options);
  }
  transcribeBatch(
    uploads: readonly AudioFileUpload[],
    fields: { model: string; params?: Record<string, unknown> },
    options: RequestOptions = {},
  ): Promise<Batch> {
    const form = new FormData();
    form.append('model', fields.model);
    form.append('params', JSON.stringify(fields.params ?? {}));
    for (const upload of uploads) form.append('file', upload.file, upload.filename);
    return this.request('POST', '/v1/speech-to-text/batch', form, options);
  }
  // Stem separation: one recording → one artifact per stem (result.stems names them). Same parts as transcribe.
  separate(
    upload: AudioFileUpload,
    fields: { model: string; params?: Record<string, unknown>; name?: string },
    options: RequestOptions = {},
  ): Promise<Job> {
    return this.request('POST', '/v1/stem-separation', oneRecordingForm(upload, fields), options);
  }
  exportTranscript(jobId: string, format: TranscriptFormat): Promise<Response> {
    return this.raw('GET', `/v1/speech-to-text/${encodeURIComponent(jobId)}/export${query({ format })}`);
  }

  // Text to speech.
  speak(
    body: { model: string; text: string; params?: Record<string, unknown>; name?: string },
    options: RequestOptions = {},
  ): Promise<Job> {
    return this.request('POST', '/v1/text-to-speech', body, options);
  }
  /** Speaks `text` in a cloned voice the account saved (POST /v1/voice-cloning with voice_id, docs/voices.md). */
  speakInSavedVoice(body: { model: string; voiceId: string; text: string; params?: Record<string, unknown>; name?: string }, options: RequestOptions = {}): Promise<Job> {
    const form = new FormData();
    form.append('model', body.model);
    if (body.params && Object.keys(body.params).length) form.append('params', JSON.stringify(body.params));
    if (body.name) form.append('name', body.name);
    form.append('voice_id', body.voiceId);
    form.append('text', body.text);
    return this.request('POST', '/v1/voice-cloning', form, options);
  }
  speakBatch(
    body: { model: string; params?: Record<string, unknown>; items: { text: string; name?: string }[] },
    options: RequestOptions = {},
  ): Promise<Batch> {
    return this.request('POST', '/v1/text-to-speech/batch', body, options);
  }

  // Voices (docs/voices.md): design, and the account's saved voices.
  designVoice(
    body: { model: string; text: string; description?: string; params?: Record<string, unknown>; save_as?: string; name?: string },
    options: RequestOptions = {},
  ): Promise<Job> {
    return this.request('POST', '/v1/voice-design', body, options);
  }
  async listVoices(): Promise<SavedVoice[]> {
    return (await this.request<ListResponse<SavedVoice>>('GET', '/v1/voices')).data;
  }
  renameVoice(id: string, name: string): Promise<SavedVoice> {
    return this.request('PATCH', `/v1/voices/${encodeURIComponent(id)}`, { name });
  }
  deleteVoice(id: string): Promise<{ id: string; deleted: true }> {
    return this.request('DELETE', `/v1/voices/${encodeURIComponent(id)}`);
  }
  /** Saves a cloned voice from a recording sent in this request (the consent rule: only the account's own upload). */
  cloneVoice(voice: { name: string; referenceText?: string; audio: Blob; filename: string }, options: RequestOptions = {}): Promise<SavedVoice> {
    const form = new FormData();
    form.append('name', voice.name);
    if (voice.referenceText) form.append('reference_text', voice.referenceText);
    form.append('audio', voice.audio, voice.filename);
    return this.request('POST', '/v1/voices', form, options);
  }

  // Jobs and batches.
  getJob(product: JobProduct, id: string): Promise<Job> {
    return this.request('GET', `/v1/${product}/${encodeURIComponent(id)}`);
  }
  getBatch(product: Product, id: string): Promise<Batch> {
    return this.request('GET', `/v1/${product}/batch/${encodeURIComponent(id)}`);
  }
  cancelJob(product: JobProduct, id: string): Promise<Job> {
    return this.request('POST', `/v1/${product}/${encodeURIComponent(id)}/cancel`);
  }
  retryJob(product: JobProduct, id: string): Promise<Job> {
    return this.request('POST', `/v1/${product}/${encodeURIComponent(id)}/retry`);
  }
  /** A transcription's segments committed after index `after` (omitted: from the first), as they are recognised. */
  listSegments(id: string, after?: number | null, limit?: number): Promise<SegmentList> {
    return this.request('GET', `/v1/speech-to-text/${encodeURIComponent(id)}/segments${query({ after, limit })}`);
  }
  /** The editable transcript of a succeeded transcription: its latest revision, or revision `revision`. */
  getTranscript(id: string, revision?: number): Promise<TranscriptRevision> {
    return this.request('GET', `/v1/speech-to-text/${encodeURIComponent(id)}/transcript${query({ revision })}`);
  }
  /** Library search over the key's transcripts (quoted phrases, prefix*, plain words), best first. */
  search(q: string, limit?: number, cursor?: string): Promise<SearchList> {
    return this.request('GET', `/v1/search${query({ q, limit, cursor })}`);
  }
  /** Stops a queued or running transcription after its current segment; it waits queued with error_code `paused`. */
  pauseJob(id: string): Promise<Job> {
    return this.request('POST', `/v1/speech-to-text/${encodeURIComponent(id)}/pause`);
  }
  resumeJob(id: string): Promise<Job> {
    return this.request('POST', `/v1/speech-to-text/${encodeURIComponent(id)}/resume`);
  }
  cancelBatch(product: Product, id: string): Promise<Batch> {
    return this.request('POST', `/v1/${product}/batch/${encodeURIComponent(id)}/cancel`);
  }
  listJobs(q: ListJobsQuery = {}): Promise<{ data: Job[]; next_cursor: string | null }> {
    return this.request('GET', `/v1/jobs${query({ ...q })}`);
  }
  listBatches(q: ListJobsQuery = {}): Promise<{ data: Batch[]; next_cursor: string | null }> {
    return this.request('GET', `/v1/batches${query({ ...q })}`);
  }
  queue(): Promise<QueueSummary> {
    return this.request('GET', '/v1/queue');
  }

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
  /** Starts an action on a transcription; answers at once with its queued job (wait=false). */
  startAiAction(jobId: string, body: { action: AiActionName; language?: string; question?: string }): Promise<Job> {
    return this.request('POST', `/v1/speech-to-text/${encodeURIComponent(jobId)}/ai?wait=false`, body);
  }
  /** The transcription's finished actions, newest first. */
  listAiActions(jobId: string): Promise<{ data: Job[] }> {
    return this.request('GET', `/v1/speech-to-text/${encodeURIComponent(jobId)}/ai`);
  }
  /** An action's job with the text streamed so far. */
  getAiAction(jobId: string, aiJobId: string): Promise<AiActionProgress & { job: Job }> {
    return this.request('GET', `/v1/speech-to-text/${encodeURIComponent(jobId)}/ai/${encodeURIComponent(aiJobId)}`);
  }
  exportAiAction(jobId: string, aiJobId: string, format: 'md' | 'docx'): Promise<Response> {
    return this.raw('GET', `/v1/speech-to-text/${encodeURIComponent(jobId)}/ai/${encodeURIComponent(aiJobId)}/export?format=${format}`);
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
  /** GET /v1/settings/openai: what OpenAI's model and voice names mean here (local account only). */
  getOpenAiSettings(): Promise<OpenAiSettingsView> {
    return this.request('GET', '/v1/settings/openai');
  }

  putOpenAiSettings(body: OpenAiSettingsUpdate): Promise<OpenAiSettingsView> {
    return this.request('PUT', '/v1/settings/openai', body);
  }

  putRetentionSettings(body: { recordings_hours?: number | null; job_history_days?: number | null }): Promise<RetentionSettings> {
    return this.request('PUT', '/v1/settings/retention', body);
  }
  /** The monthly cap on hosted spending and where this month stands (local account). */
  getBudget(): Promise<BudgetSettings> {
    return this.request('GET', '/v1/settings/budget');
  }
  /** `monthly_usd` in dollars; null removes the cap. */
  putBudget(body: { monthly_usd: number | null }): Promise<BudgetSettings> {
    return this.request('PUT', '/v1/settings/budget', body);
  }
  /** The key's charges from the ledger; `from`/`to` are days (`2026-06-01`), months or ISO times; `to` is taken in whole. */
  usage(q: { from?: string; to?: string; group_by?: UsageGroupBy } = {}): Promise<UsageReport> {
    return this.request('GET', `/v1/usage${query({ ...q })}`);
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
  /** Sent with this client's key, so the answer carries the queue counts (GET /v1/health). */
  health(): Promise<Health> {
    return this.request('GET', '/v1/health');
  }
}
