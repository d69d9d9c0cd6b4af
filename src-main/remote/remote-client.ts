/**
 * Typed client of a hosted instance of the API, for Node. It reuses the shared ApiClient (common/api-client.ts)
 * for the wire and adds what forwarding needs: files streamed from disk (fs.openAsBlob, never whole in memory),
 * a submission timeout longer than the hosted hold, short timeouts elsewhere, Idempotency-Key on every
 * submission, artifact downloads, and errors sorted into network / server / rejected (RemoteError).
 */
import { createWriteStream, openAsBlob, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ApiClient, ApiClientError } from '../common/api-client.js';
import type { Batch, CatalogueRecord, Job } from '../common/api-types.js';
import type { Product } from '../common/products.js';
import { PRIVATE_FILE_MODE } from '../store/private-files.js';
import { SNIFF_BYTES } from '../common/audio-sniff.js';
import { RemoteError, kindOfStatus } from './remote-errors.js';
import type { RemoteOptions } from './remote-options.js';

export interface RemoteEndpoint {
  /** Origin of the hosted service, e.g. `https://api.example.com` (no `/v1`). */
  url: string;
  /** The user's key on the hosted service; null when only the public catalogue is used. */
  key: string | null;
}

/** One forwarded job, in the shape of the product's POST (spec part order for multipart). */
export interface RemoteSubmission {
  product: Product;
  /** The hosted catalogue id (without the local `remote:` prefix). */
  model: string;
  params: Record<string, unknown>;
  name: string | null;
  text?: string;
  /** Audio products: the uploaded file on local disk, streamed as part `file`. */
  filePath?: string;
  fileName?: string;
  /** voice-cloning / voice-conversion: the voice's recording, streamed as part `reference_audio`. */
  referencePath?: string;
  /** voice-cloning / voice-continuation: the words said in the recording, sent as part `reference_text`. */
  referenceText?: string;
}

/** One forwarded batch: every item shares model and params (spec); files in the spec's part order. */
export interface RemoteBatchSubmission {
  product: Product;
  model: string;
  params: Record<string, unknown>;
  items: RemoteBatchItem[];
  /** voice-cloning / voice-conversion: the voice shared by every item (text or recording), streamed as part `reference_audio`. */
  referencePath?: string;
  /** voice-cloning: the words said in the reference, sent as part `reference_text`. */
  referenceText?: string;
}

export interface RemoteBatchItem {
  name: string | null;
  text?: string;
  /** voice-design: the voice description of the item. */
  description?: string;
  filePath?: string;
  fileName?: string;
}

type Timeouts = Pick<RemoteOptions, 'requestTimeoutMs' | 'submitTimeoutMs'>;

/** Artifacts up to this size (declared by Content-Length; 256 KiB, a few seconds of speech) are downloaded in one piece. */
export const SMALL_ARTIFACT_BYTES = 256 * 1024;

export class RemoteClient {
  private readonly api: ApiClient;

  constructor(
    readonly endpoint: RemoteEndpoint,
    private readonly timeouts: Timeouts,
  ) {
    this.api = new ApiClient({ baseUrl: endpoint.url, apiKey: endpoint.key });
  }

  /** Public catalogue, unavailable rows included (they are announced models the user may want to see). */
  listModels(signal?: AbortSignal): Promise<CatalogueRecord[]> {
    return this.call(this.timeouts.requestTimeoutMs, signal, async (s) => {
      const body = await this.api.request<{ data?: unknown } | unknown[]>('GET', '/v1/models?include_unavailable=true', undefined, { signal: s });
      const rows = Array.isArray(body) ? body : (body as { data?: unknown }).data;
      if (!Array.isArray(rows)) throw new RemoteError('server', 'invalid_catalogue', 'the hosted catalogue is not a list of models', 200);
      return rows as CatalogueRecord[];
    });
  }

  /** Creates (or, for a replayed Idempotency-Key, returns) the hosted job; the hosted side may hold the call. */
  submit(submission: RemoteSubmission, idempotencyKey: string, signal?: AbortSignal): Promise<Job> {
    return this.call(this.timeouts.submitTimeoutMs, signal, async (s) => {
      const body = await buildBody(submission);
      return this.api.request<Job>('POST', `/v1/${submission.product}`, body, { signal: s, idempotencyKey });
    });
  }

  /** Creates (or, for a replayed Idempotency-Key, returns) the hosted batch; batch POSTs answer at once. */
  submitBatch(submission: RemoteBatchSubmission, idempotencyKey: string, signal?: AbortSignal): Promise<Batch> {
    return this.call(this.timeouts.submitTimeoutMs, signal, async (s) => {
      const body = await buildBatchBody(submission);
      return this.api.request<Batch>('POST', `/v1/${submission.product}/batch`, body, { signal: s, idempotencyKey });
    });
  }

  getBatch(product: Product, batchId: string, signal?: AbortSignal): Promise<Batch> {
    return this.call(this.timeouts.requestTimeoutMs, signal, (s) =>
      this.api.request<Batch>('GET', `/v1/${product}/batch/${encodeURIComponent(batchId)}`, undefined, { signal: s }),
    );
  }

  /** Batch cancel extension; a hosted service without it (404/405) answers undefined: cancel the items instead. */
  async cancelBatch(product: Product, batchId: string): Promise<Batch | undefined> {
    try {
      return await this.call(this.timeouts.requestTimeoutMs, undefined, (s) =>
        this.api.request<Batch>('POST', `/v1/${product}/batch/${encodeURIComponent(batchId)}/cancel`, undefined, { signal: s }),
      );
    } catch (error) {
      if (error instanceof RemoteError && (error.status === 404 || error.status === 405)) return undefined;
      throw error;
    }
  }

  getJob(product: Product, jobId: string, signal?: AbortSignal): Promise<Job> {
    return this.call(this.timeouts.requestTimeoutMs, signal, (s) =>
      this.api.request<Job>('GET', `/v1/${product}/${encodeURIComponent(jobId)}`, undefined, { signal: s }),
    );
  }

  /** Cancel extension; a hosted service without it (404/405) is not an error: undefined. */
  async cancelJob(product: Product, jobId: string): Promise<Job | undefined> {
    try {
      return await this.call(this.timeouts.requestTimeoutMs, undefined, (s) =>
        this.api.request<Job>('POST', `/v1/${product}/${encodeURIComponent(jobId)}/cancel`, undefined, { signal: s }),
      );
    } catch (error) {
      if (error instanceof RemoteError && (error.status === 404 || error.status === 405)) return undefined;
      throw error;
    }
  }

  /**
   * Streams an artifact link (no key needed) to `destPath` through a temporary file: no redirect is followed and at
   * most `maxBytes` are taken (hosted-artifact.ts). Returns its size and first bytes (to choose its content type).
   */
  download(url: string, destPath: string, maxBytes: number, signal?: AbortSignal): Promise<{ bytes: number; head: Buffer }> {
    return this.call(this.timeouts.submitTimeoutMs, signal, async (s) => {
      // Artifact links need no key (docs/design.md §3): never send the key along.
      const response = await fetch(url, { signal: s, redirect: 'manual' });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new RemoteError('rejected', 'remote_failed', `the hosted artifact ${url} redirects elsewhere (${response.status}); redirects are not followed`, response.status);
      }
      if (!response.ok) throw await ApiClient.errorFrom(response);
      if (!response.body) throw new RemoteError('server', 'empty_artifact', `the hosted artifact ${url} has no body`, response.status);
      const tooLarge = (): RemoteError =>
        new RemoteError('rejected', 'remote_failed', `the hosted artifact ${url} is larger than ${maxBytes} bytes, the most Voxdesk downloads`, response.status);
      if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
        await response.body.cancel();
        throw tooLarge();
      }
      const partial = `${destPath}.part`;
      const declared = Number(response.headers.get('content-length') ?? Number.NaN);
      if (declared <= SMALL_ARTIFACT_BYTES) {
        // A short clip (the usual TTS answer) is taken whole and written at once: the stream pipeline below cost an
        // open, writes and a close on the thread pool plus web-stream hops, a few ms of every forwarded job.
        const body = Buffer.from(await response.arrayBuffer());
        if (body.length > maxBytes) throw tooLarge();
        try {
          writeFileSync(partial, body, { mode: PRIVATE_FILE_MODE });
          renameSync(partial, destPath);
        } catch (error) {
          rmSync(partial, { force: true });
          throw error;
        }
        return { bytes: body.length, head: body.subarray(0, SNIFF_BYTES) };
      }
      let bytes = 0;
      const heads: Buffer[] = [];
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > maxBytes) return done(tooLarge());
          if (bytes - chunk.length < SNIFF_BYTES) heads.push(chunk.subarray(0, SNIFF_BYTES));
          done(null, chunk);
        },
      });
      try {
        await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), counted, createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
        await rename(partial, destPath);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { bytes, head: Buffer.concat(heads).subarray(0, SNIFF_BYTES) };
    });
  }

  /**
   * Runs one call with its timeout and turns every failure into a RemoteError (an abort by the caller stays). One
   * controller per call, its timer cleared when the call ends: `AbortSignal.timeout` + `AbortSignal.any` left a
   * timer of up to the submission timeout behind every call and cost more to make (a forwarded job makes two calls).
   */
  private async call<T>(timeoutMs: number, signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`the call did not end within ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    timer.unref(); // as AbortSignal.timeout: a pending call alone does not keep the process up
    const onAbort = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await run(controller.signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw toRemoteError(error, this.endpoint.url, timedOut ? timeoutMs : null);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function toRemoteError(error: unknown, url: string, timedOutAfterMs: number | null): RemoteError {
  if (error instanceof RemoteError) return error;
  if (timedOutAfterMs !== null) {
    return new RemoteError('network', 'network_timeout', `the hosted service at ${url} did not answer within ${timedOutAfterMs} ms`, 0, { cause: error });
  }
  if (error instanceof ApiClientError) {
    const kind = kindOfStatus(error.status);
    const message = error.status === 0 ? `the hosted service at ${url} cannot be reached (${causeText(error)})` : error.message;
    return new RemoteError(kind, error.code, message, error.status, { cause: error });
  }
  // A reset in the middle of a body, a broken JSON answer from a dying process: treat like a lost connection.
  return new RemoteError('network', 'network_error', `the connection to ${url} failed: ${causeText(error)}`, 0, { cause: error });
}

function causeText(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'network_error') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

async function buildBody(s: RemoteSubmission): Promise<FormData | object> {
  if (!s.filePath && !s.referencePath) {
    const body: Record<string, unknown> = { model: s.model, text: s.text ?? '', params: s.params };
    if (s.product === 'voice-design') body.description = s.text ?? '';
    if (s.name !== null) body.name = s.name;
    return body;
  }
  // Spec order: model first, then params, name, then the files (text after the reference, as the service reads it).
  const form = new FormData();
  form.append('model', s.model);
  form.append('params', JSON.stringify(s.params));
  if (s.name !== null) form.append('name', s.name);
  // Zero-shot voices (docs/voice-cloning.md): the recording is reference_audio (cloning) or audio (continuation).
  if (s.referencePath) form.append('reference_audio', await openAsBlob(s.referencePath), 'reference.wav');
  if (s.filePath) form.append(s.product === 'voice-continuation' ? 'audio' : 'file', await openAsBlob(s.filePath), s.fileName ?? 'audio');
  if (s.referenceText !== undefined) form.append('reference_text', s.referenceText);
  if (s.text !== undefined) form.append('text', s.text);
  return form;
}

/** JSON items for text products; otherwise multipart: model, params, then the files (texts after the reference). */
async function buildBatchBody(s: RemoteBatchSubmission): Promise<FormData | object> {
  if (!s.referencePath && s.items.every((item) => !item.filePath)) {
    const items = s.items.map((item) => {
      const out: Record<string, unknown> = { text: item.text ?? '' };
      if (s.product === 'voice-design') out.description = item.description ?? item.text ?? '';
      if (item.name !== null) out.name = item.name;
      return out;
    });
    return { model: s.model, params: s.params, items };
  }
  const form = new FormData();
  form.append('model', s.model);
  form.append('params', JSON.stringify(s.params));
  if (s.referencePath) {
    form.append('reference_audio', await openAsBlob(s.referencePath), 'reference.wav');
    if (s.referenceText !== undefined) form.append('reference_text', s.referenceText);
    // voice-cloning: the texts to say; voice-conversion: the recordings to re-voice (below).
    if (s.product === 'voice-cloning') {
      for (const item of s.items) form.append('text', item.text ?? '');
      return form;
    }
  }
  for (const item of s.items) {
    if (!item.filePath) throw new Error('a batch item of an audio product has no file');
    form.append('file', await openAsBlob(item.filePath), item.fileName ?? 'audio');
  }
  return form;
}
