/**
 * Downloads one file into a `.part` file over HTTP(S), resuming with `Range` after a dropped connection or a restart
 * (If-Range with the ETag when the server gave one; a 200 answer to a range request restarts the file cleanly),
 * following redirects and retrying transient failures with exponential backoff. Requests go through the proxy the
 * environment names and trust the extra CA file of a DownloadNetwork; every error names the host that failed (and
 * the proxy used), so the caller can suggest a mirror, a proxy or a CA file.
 *
 * What a server may make the downloader do is bounded: it never writes more than the file's declared size (or
 * UNDECLARED_MAX_BYTES when none was declared), and a redirect may not downgrade https to http nor lead from a
 * public host to this machine or its private network (a model URL must not become a way to reach the LAN).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open as openFile, stat, truncate, type FileHandle } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { DownloadNetwork } from './download-network.js';
import { isPrivateHost, publicOnlyLookup } from './private-hosts.js';
import { PackageError } from '../../common/errors.js';

/** Node's codes for a certificate that cannot be verified (a TLS-inspecting proxy, a private CA): not transient. */
const TLS_TRUST_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface FetchOptions {
  url: string;
  partPath: string;
  /** ETag of the response that wrote the bytes already in partPath (sent as If-Range). */
  etag: string | null;
  /**
   * The file's declared size when known: a part file already this long is not fetched again, and a server that
   * sends more is cut off (the download fails; nothing past the size is written).
   */
  expectedSize: number | null;
  signal: AbortSignal;
  /** Bytes in the part file so far, the file's total when known, and the current validator. */
  onProgress: (bytesDone: number, bytesTotal: number | null, etag: string | null) => void;
  /** Attempts after a transient failure without progress. Default 4. */
  retries?: number;
  /** First backoff delay, doubled each time up to 15 s. Default 500 ms. */
  backoffMs?: number;
  /** A connection silent this long is dropped and resumed. Default 30 s. */
  idleTimeoutMs?: number;
  /** Proxy and CA settings. Default: a direct connection trusting Node's roots. */
  network?: DownloadNetwork;
}

const MAX_REDIRECTS = 5;
/** The most a download without a declared size may write: 16 GiB, past the largest model of any family. */
export const UNDECLARED_MAX_BYTES = 16 * 1024 ** 3;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled(): PackageError {
  return new PackageError('cancelled', 'the download was cancelled');
}

async function partSize(path: string): Promise<number> {
  return (await stat(path).catch(() => null))?.size ?? 0;
}

interface OpenResult {
  res: http.IncomingMessage;
  url: string;
  host: string;
  /** ' through the proxy …' or ''. */
  via: string;
}

/** Why a redirect from `from` to `to` is refused, or null when it may be followed. */
export function refusedRedirect(from: URL, to: URL, origin: URL): string | null {
  if (from.protocol === 'https:' && to.protocol !== 'https:') return `${from.host} redirected from https to ${to.protocol.replace(':', '')} (${to.host}); a download never leaves TLS`;
  if (to.protocol !== 'https:' && to.protocol !== 'http:') return `${from.host} redirected to an unsupported scheme ${to.protocol}`;
  if (!isPrivateHost(origin.hostname) && isPrivateHost(to.hostname)) {
    return `${from.host} redirected to ${to.host}, an address on this machine or its private network; a download from a public host is not sent there`;
  }
  return null;
}

function open(url: string, headers: Record<string, string>, opts: FetchOptions, redirects = 0): Promise<OpenResult> {
  const { signal } = opts;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return reject(new PackageError('download_failed', `not a valid URL: ${url}`));
    }
    const client = parsed.protocol === 'https:' ? https : parsed.protocol === 'http:' ? http : null;
    if (!client) return reject(new PackageError('download_failed', `unsupported URL scheme ${parsed.protocol} (${url})`));
    const network = opts.network?.requestOptions(parsed) ?? { proxy: null };
    const via = network.proxy ? ` through the proxy ${network.proxy}` : '';
    const host = parsed.host;
    const req = client.get(
      parsed,
      {
        headers: { 'user-agent': 'voxdesk-model-manager', ...headers },
        signal,
        ...(network.agent ? { agent: network.agent } : {}),
        ...(network.ca ? { ca: network.ca } : {}),
        // A download that starts at a public host never connects to a private address, whatever a name resolves to.
        ...(!network.proxy && !isPrivateHost(new URL(opts.url).hostname) ? { lookup: publicOnlyLookup } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          if (redirects >= MAX_REDIRECTS) return reject(new PackageError('download_failed', `too many redirects from ${url}`, { host }));
          let next: URL;
          try {
            next = new URL(res.headers.location, parsed);
          } catch {
            return reject(new PackageError('download_failed', `${host} redirected to an invalid address (${res.headers.location})`, { host, problem: 'http' }));
          }
          const refused = refusedRedirect(parsed, next, new URL(opts.url));
          if (refused) return reject(new PackageError('download_failed', refused, { host, problem: 'http' }));
          open(next.toString(), headers, opts, redirects + 1).then(resolve, reject);
          return;
        }
        if (status === 407) {
          res.resume();
          return reject(
            new PackageError('download_failed', `the proxy ${network.proxy ?? ''} asks for credentials (HTTP 407) to reach ${host}: put them in the proxy URL (http://user:password@proxy:port)`, { host, problem: 'proxy_auth' }),
          );
        }
        resolve({ res, url, host, via });
      },
    );
    req.setTimeout(idleTimeoutMs, () => req.destroy(new Error(`no data from ${host} for ${idleTimeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (signal.aborted) return reject(cancelled());
      if (err.code === 'EPRIVATEADDRESS') return reject(new PackageError('download_failed', err.message, { cause: err, host, problem: 'unreachable' }));
      if (err.code && TLS_TRUST_CODES.has(err.code)) {
        return reject(
          new PackageError('download_failed', `cannot verify the TLS certificate of ${host}${via}: ${err.message} (${err.code})`, { cause: err, host, problem: 'tls' }),
        );
      }
      reject(new PackageError('download_failed', `cannot reach ${host}${via}: ${err.message}`, { retryable: true, cause: err, host, problem: 'unreachable' }));
    });
  });
}

/** One request: appends to (or restarts) the part file. Resolves when the server sent the whole file. */
async function attempt(opts: FetchOptions, state: { etag: string | null }): Promise<void> {
  const have = await partSize(opts.partPath);
  const headers: Record<string, string> = {};
  if (have > 0) {
    headers.range = `bytes=${have}-`;
    // A weak validator may not be used with If-Range (RFC 9110 §13.1.5).
    if (state.etag && !state.etag.startsWith('W/')) headers['if-range'] = state.etag;
  }
  const { res, url, host, via } = await open(opts.url, headers, opts);
  const status = res.statusCode ?? 0;
  if (status === 416 && have > 0) {
    res.resume();
    const total = /\/(\d+)$/.exec(res.headers['content-range'] ?? '')?.[1];
    if (total !== undefined && Number(total) === have) return; // the part file is already complete
    await truncate(opts.partPath, 0);
    throw new PackageError('download_failed', `${url} refused the resume range; restarting the file`, { retryable: true, host });
  }
  if (status !== 200 && status !== 206) {
    res.resume();
    const retryable = status >= 500 || status === 408 || status === 429;
    throw new PackageError('download_failed', `HTTP ${status} from ${host}${via} (${url})`, { retryable, host, problem: 'http' });
  }
  let start = 0;
  let total: number | null = null;
  if (status === 206) {
    const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers['content-range'] ?? '');
    if (!m || Number(m[1]) !== have) {
      res.resume();
      await truncate(opts.partPath, 0);
      throw new PackageError('download_failed', `${url} answered a different range than asked; restarting the file`, { retryable: true, host });
    }
    start = have;
    total = m[3] === '*' ? null : Number(m[3]);
  } else {
    // 200: the server ignored the range or the file changed (If-Range): start over.
    const length = res.headers['content-length'];
    total = length !== undefined ? Number(length) : null;
  }
  const limit = opts.expectedSize ?? UNDECLARED_MAX_BYTES;
  if (total !== null && total > limit) {
    res.resume();
    throw new PackageError('download_failed', tooLargeMessage(url, total, opts.expectedSize), { host, problem: 'http' });
  }
  const etag = typeof res.headers.etag === 'string' ? res.headers.etag : null;
  state.etag = etag;
  let done = start;
  opts.onProgress(done, total, etag);
  // The response's end is watched from now on: it may end or drop while the part file is being opened.
  const outcome = new Promise<void>((resolvePromise, reject) => {
    let ended = false;
    res.on('end', () => {
      ended = true;
      resolvePromise();
    });
    res.on('error', reject);
    res.on('close', () => {
      if (!ended) reject(new Error('the connection closed early'));
    });
  });
  outcome.catch(() => undefined); // awaited below
  // Each chunk is written as it arrives, in order, once the part file is open (the response paused until it is
  // written, asynchronously: the service's thread is not held). Chunks that arrive while the file is still being
  // opened wait in that same line, so whatever happens every byte received is on disk before this returns or throws
  // and a resume asks for exactly the rest (a paused stream, or a pipeline, would drop what it still buffered when
  // the connection closes).
  const fileReady = openFile(opts.partPath, status === 206 ? 'a' : 'w');
  fileReady.catch(() => undefined); // awaited below
  let received = done;
  let writes: Promise<void> = Promise.resolve();
  let handle: FileHandle | null = null;
  res.on('data', (chunk: Buffer) => {
    if (received + chunk.length > limit) {
      res.destroy(new PackageError('download_failed', tooLargeMessage(url, received + chunk.length, opts.expectedSize), { host, problem: 'http' }));
      return;
    }
    received += chunk.length;
    res.pause();
    writes = writes.then(async () => {
      const file = await fileReady;
      await file.write(chunk);
      done += chunk.length;
      opts.onProgress(done, total, etag);
      res.resume();
    });
    writes.catch((err: unknown) => res.destroy(err as Error));
  });
  try {
    handle = await fileReady;
    try {
      await outcome;
    } finally {
      await writes.catch(() => undefined);
    }
    await writes; // a write that failed after the last byte arrived
  } catch (err) {
    if (opts.signal.aborted) throw cancelled();
    if (err instanceof PackageError) {
      await truncate(opts.partPath, 0);
      throw err;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EACCES' || code === 'EROFS') {
      throw new PackageError('download_failed', `cannot write ${opts.partPath}: ${(err as Error).message}`, { cause: err });
    }
    throw new PackageError('download_failed', `the connection to ${host}${via} dropped after ${done} bytes`, { retryable: true, cause: err, host, problem: 'unreachable' });
  } finally {
    res.destroy();
    await (handle ?? (await fileReady.catch(() => null)))?.close();
  }
  if (total !== null && done < total) {
    throw new PackageError('download_failed', `the connection to ${host}${via} ended after ${done} of ${total} bytes`, { retryable: true, host, problem: 'unreachable' });
  }
}

function tooLargeMessage(url: string, bytes: number, declared: number | null): string {
  return declared !== null
    ? `${url} sends more than the declared ${declared} bytes (at least ${bytes}); the download was stopped and deleted`
    : `${url} sends more than ${UNDECLARED_MAX_BYTES / 1024 ** 3} GiB, more than any model; the download was stopped and deleted`;
}

/** Fetches `url` into `partPath` completely (resuming what is there). Returns the final ETag. */
export async function fetchToPart(opts: FetchOptions): Promise<{ bytes: number; etag: string | null }> {
  const retries = opts.retries ?? 4;
  const state = { etag: opts.etag };
  let failures = 0;
  let delay = opts.backoffMs ?? 500;
  for (;;) {
    if (opts.signal.aborted) throw cancelled();
    const before = await partSize(opts.partPath);
    if (opts.expectedSize !== null && before === opts.expectedSize) {
      opts.onProgress(before, opts.expectedSize, state.etag);
      return { bytes: before, etag: state.etag };
    }
    if (opts.expectedSize !== null && before > opts.expectedSize) await truncate(opts.partPath, 0);
    try {
      await attempt(opts, state);
      return { bytes: await partSize(opts.partPath), etag: state.etag };
    } catch (err) {
      if (!(err instanceof PackageError) || !err.retryable) throw err;
      // Progress resets the budget: a flaky connection that keeps moving finishes eventually.
      if ((await partSize(opts.partPath)) > before) {
        failures = 0;
        delay = opts.backoffMs ?? 500;
      }
      if (failures >= retries) throw err;
      failures += 1;
      await sleep(delay, opts.signal);
      delay = Math.min(delay * 2, 15_000);
    }
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
