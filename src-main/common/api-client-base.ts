/**
 * The transport of the typed Voxdesk API client (api-client.ts): the service's origin and key, one way to send a
 * request and to turn a non-2xx answer into an ApiClientError carrying the service's `error.code`, so callers branch
 * on codes, never on messages. Pure: no node imports (the renderer and the hosted-forwarding provider share it).
 */
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

export interface RequestOptions {
  signal?: AbortSignal;
  idempotencyKey?: string;
  /** A Range header (downloads). */
  range?: string;
  /**
   * false: a single-item POST answers with its queued job at once (`?wait=false`) instead of holding until the job
   * ends, for a caller that follows the job itself (its progress, its Cancel).
   */
  wait?: boolean;
}

/** `?a=1&b=2` of the values given, leaving out the unset ones ('' too); '' when none is set. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export class ApiClientBase {
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

  protected socketUrl(path: string, modelId: string, settings: Record<string, string> = {}): string {
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
      const url = options.wait === false ? `${this.url(path)}${path.includes('?') ? '&' : '?'}wait=false` : this.url(path);
      response = await this.fetchImpl(url, { method, headers, body: payload, signal: options.signal });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiClientError('network_error', `The service at ${this.baseUrl} cannot be reached.`, 0, { cause });
    }
    if (!response.ok) throw await ApiClientBase.errorFrom(response);
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
}
