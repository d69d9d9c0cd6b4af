/**
 * Typed fetch client of the Voxdesk API (spec + docs/design.md §3 extensions). Pure: no node imports, so the renderer
 * and the hosted-forwarding provider share it. Every non-2xx answer becomes an ApiClientError carrying the
 * service's `error.code`, so callers branch on codes, never on messages. Three files, one class: the transport
 * (api-client-base.ts), the local account's routes (local-routes-client.ts), and here the spec's routes.
 */
import { DICTATION_PATH } from './dictation-protocol.js';
import type {
  Batch,
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
} from './api-types.js';
import type { AiActionName, AiActionProgress } from './ai-types.js';
import type { Capability, JobProduct, Product } from './products.js';
import type { JobStatus } from './job-states.js';
import type { TranscriptFormat } from './transcript-formats.js';
import type { SearchList, TranscriptRevision } from './transcript-types.js';
import { ApiClientError, query, type RequestOptions } from './api-client-base.js';
import { LocalRoutesClient } from './local-routes-client.js';

export type { TranscriptFormat };
export { ApiClientError, type ApiClientOptions, type RequestOptions } from './api-client-base.js';
export type { AddModelRequest, LocalModel, SessionBootstrap, SessionInfo } from './local-routes-client.js';

export interface ListJobsQuery {
  product?: Product;
  status?: JobStatus;
  limit?: number;
  cursor?: string | null;
}

export interface AudioFileUpload {
  file: Blob;
  /** File name sent with the part (the Blob may be a File already carrying one). */
  filename: string;
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

/** The Voxdesk API: the spec's routes and their extensions here, the local account's in local-routes-client.ts. */
export class ApiClient extends LocalRoutesClient {

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
  /** Starts an action on a transcription; answers at once with its queued job. */
  startAiAction(jobId: string, body: { action: AiActionName; language?: string; question?: string }): Promise<Job> {
    return this.request('POST', `/v1/speech-to-text/${encodeURIComponent(jobId)}/ai`, body, { wait: false });
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
  /** The key's charges from the ledger; `from`/`to` are days (`2026-06-01`), months or ISO times; `to` is taken in whole. */
  usage(q: { from?: string; to?: string; group_by?: UsageGroupBy } = {}): Promise<UsageReport> {
    return this.request('GET', `/v1/usage${query({ ...q })}`);
  }
  /** Sent with this client's key, so the answer carries the queue counts (GET /v1/health). */
  health(): Promise<Health> {
    return this.request('GET', '/v1/health');
  }
}
