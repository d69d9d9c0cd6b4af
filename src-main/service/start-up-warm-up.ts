/**
 * One request through the whole HTTP stack right after the service listens, so the first person's request does not
 * pay for it. V8 compiles a function when it first runs and runs it slowly until it has run a few times: the first
 * POST after start spent 10–25 ms more than the next ones before its job existed (Node's HTTP parser, the Hono adapter,
 * CORS, authentication, body reading, the product route, the catalogue, params validation, the error answer), which
 * made the first text-to-speech job 1.5–2.6× a warm one (bench/tts-rtf.ts, tts-job).
 *
 * The request is a real POST over loopback to the listening socket, with a session key that exists only for it, asking
 * the default text-to-speech model for a job with a parameter no model accepts, so it stops at params validation: no
 * job, no ledger row, no event, nothing written. A model id that is unknown (a service without eSpeak) only stops it
 * earlier. createService sends it in the background once the workers are ready, unless a job already runs; it takes
 * at most WARM_UP_TIMEOUT_MS, and a job that arrives meanwhile is served beside it (it holds no lock). Cost: +0.35 MB
 * of the service's heap after a full GC (22.37 → 22.72 MB, three starts each), for the compiled code and its type
 * feedback.
 */
import { request } from 'node:http';

/** The longest the warm-up request may take before it is abandoned. Default 5 s. */
export const WARM_UP_TIMEOUT_MS = 5_000;

/** A params field no model's schema has: the job is refused at validation, after every step before it. */
export const WARM_UP_PARAM = 'voxdesk_start_up_warm_up';

export interface WarmUpOptions {
  /** Where the service listens (its own address). */
  host: string;
  port: number;
  /** A key valid for the warm-up only; `release` is called when it is done. */
  key: string;
  release: () => void;
  /** The model the request names (the built-in text-to-speech model). */
  modelId: string;
  signal: AbortSignal;
  timeoutMs?: number;
}

/** How the warm-up request was answered: its HTTP status and error code (status 0: it failed or was abandoned). */
export interface WarmUpResult {
  status: number;
  code: string | null;
}

/** Sends the warm-up request and resolves with its answer; never rejects. */
export function warmUpHttp(options: WarmUpOptions): Promise<WarmUpResult> {
  const body = JSON.stringify({ model: options.modelId, text: 'Warm-up.', params: { [WARM_UP_PARAM]: true } });
  const failed: WarmUpResult = { status: 0, code: null };
  return new Promise<WarmUpResult>((resolve) => {
    const req = request(
      {
        host: options.host,
        port: options.port,
        method: 'POST',
        path: '/v1/text-to-speech',
        headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' },
        timeout: options.timeoutMs ?? WARM_UP_TIMEOUT_MS,
        signal: options.signal,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, code: errorCode(text) }));
        res.on('error', () => resolve(failed));
      },
    );
    req.on('timeout', () => req.destroy(new Error('warm-up timed out')));
    req.on('error', () => resolve(failed));
    req.end(body);
  }).finally(options.release);
}

function errorCode(text: string): string | null {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}
