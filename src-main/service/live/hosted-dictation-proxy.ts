/**
 * Live dictation on a hosted model: the session is relayed to the hosted service's own dictation socket (the same
 * route and protocol), opened with the hosted key BEFORE the client's upgrade completes, so a refusal there (a wrong
 * key, a model gone) refuses the client's upgrade too. Messages pass through unchanged both ways but for
 * `session.done`: the hosted service recognises, records the job in the hosted account and charges it there, and the
 * relay's `onDone` may name another job in its place (the local job that follows the hosted one).
 */
import WebSocket from 'ws';
import { DICTATION_PATH } from '../../common/dictation-protocol.js';
import { ApiError } from '../../common/errors.js';
import type { Log } from '../../common/log.js';

export interface HostedEndpoint {
  url: string;
  key: string | null;
}

/** How long the hosted service may take to accept the session. Default 15 s. */
export const HOSTED_CONNECT_TIMEOUT_MS = 15_000;

export interface HostedSession {
  ws: WebSocket;
  /** Messages the hosted service sent before the client's socket was ready (session.created). */
  early: { data: WebSocket.RawData; isBinary: boolean }[];
}

/** Opens the hosted session; rejects with an ApiError the client's upgrade is refused with. */
export function connectHosted(endpoint: HostedEndpoint, remoteModelId: string, maxPayload: number): Promise<HostedSession> {
  const url = new URL(`${endpoint.url.replace(/\/+$/, '')}${DICTATION_PATH}`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('model', remoteModelId);
  const headers: Record<string, string> = endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {};
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, maxPayload, handshakeTimeout: HOSTED_CONNECT_TIMEOUT_MS, followRedirects: false });
    let answered = false;
    ws.on('unexpected-response', (_req, res) => {
      answered = true;
      let body = '';
      res.on('data', (chunk: Buffer) => (body = (body + chunk.toString()).slice(0, 4000)));
      res.on('end', () => {
        let message = `the hosted service refused the session (HTTP ${res.statusCode})`;
        try {
          const parsed = JSON.parse(body) as { error?: { message?: string } };
          if (parsed.error?.message) message = `the hosted service refused the session: ${parsed.error.message}`;
        } catch {
          // not JSON: the status says enough
        }
        // The hosted model cannot run live (or is gone): as here. Anything else (its key refused, its own failure) is
        // the hosted service being unusable: 502.
        const code = res.statusCode === 422 || res.statusCode === 404 ? 'model_unavailable' : 'upstream_unavailable';
        reject(new ApiError(code, message));
        ws.terminate();
      });
    });
    const early: HostedSession['early'] = [];
    const keep = (data: WebSocket.RawData, isBinary: boolean): void => void early.push({ data, isBinary });
    ws.on('message', keep);
    ws.once('open', () => resolve({ ws, early }));
    ws.on('error', (error) => {
      if (!answered) reject(new ApiError('upstream_unavailable', `the hosted service cannot be reached: ${error.message}`));
    });
  });
}

export type DoneMessage = { type: 'session.done'; job_id: string | null; duration_seconds?: number };

/** The hosted message as the client gets it: `session.done` through `onDone`, anything else unchanged. */
function passOn(
  data: WebSocket.RawData,
  isBinary: boolean,
  onDone: ((done: DoneMessage) => Promise<object>) | undefined,
): WebSocket.RawData | string | Promise<string> {
  if (isBinary || !onDone) return data;
  const text = data.toString();
  if (!text.includes('"session.done"')) return data;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return data;
  }
  const done = message as DoneMessage | null;
  return done?.type === 'session.done' ? onDone(done).then((named) => JSON.stringify(named)) : data;
}

/**
 * Runs steps one after another: at once while none is waiting, else after the one before. A message whose handling
 * waits (the meter reserving the next chunk, the follow-up job being recorded) keeps its place in the stream.
 */
function inOrder(onError: (error: Error) => void): (step: () => void | Promise<void>) => void {
  let tail: Promise<void> | null = null;
  return (step) => {
    let next: Promise<void>;
    if (tail === null) {
      let result: void | Promise<void>;
      try {
        result = step();
      } catch (error) {
        onError(error as Error);
        return;
      }
      if (!(result instanceof Promise)) return;
      next = result;
    } else {
      next = tail.then(step);
    }
    const settled = next.catch(onError);
    tail = settled;
    void settled.then(() => {
      if (tail === settled) tail = null;
    });
  };
}

/** What the relay asks about the client's messages before passing them on (the spending meter). */
export interface RelayHooks {
  /** `session.done` as the client gets it (another job may be named in its place). */
  onDone?: (done: DoneMessage) => Promise<object>;
  /**
   * A client message about to be passed on; false: it is not (the meter has ended the input: see endInput). A
   * promise holds this message and the ones after it until it settles.
   */
  admit?: (data: WebSocket.RawData, isBinary: boolean) => boolean | Promise<boolean>;
  /** Both sides are closed. */
  ended?: () => void;
}

export interface RelayLink {
  close(code: number, reason: string): void;
  /**
   * Ends the input with an error the client is told: the hosted session gets `input_audio.end` (it then recognises
   * what it has, records it and sends `session.done`), and no more client audio is passed on.
   */
  endInput(code: string, message: string): void;
}

/** Relays one client socket to its hosted session until either side closes. */
export function relay(client: WebSocket, session: HostedSession, log: Log, hooks: RelayHooks = {}): RelayLink {
  const hosted = session.ws;
  hosted.removeAllListeners('message');
  let inputEnded = false;
  const fromClient = inOrder((error) => log.info(`hosted dictation: a client message could not be passed on: ${error.message}`));
  const fromHosted = inOrder((error) => log.info(`hosted dictation: a hosted message could not be passed on: ${error.message}`));
  const sendToClient = (out: WebSocket.RawData | string, isBinary: boolean): void => {
    if (client.readyState === WebSocket.OPEN) client.send(out, { binary: isBinary });
  };
  const toClient = (data: WebSocket.RawData, isBinary: boolean): void =>
    fromHosted(() => {
      const out = passOn(data, isBinary, hooks.onDone);
      if (out instanceof Promise) return out.then((text) => sendToClient(text, isBinary));
      sendToClient(out, isBinary);
    });
  const toHosted = (data: WebSocket.RawData, isBinary: boolean): void => {
    if (!inputEnded && hosted.readyState === WebSocket.OPEN) hosted.send(data, { binary: isBinary });
  };
  const endInput = (code: string, message: string): void => {
    if (inputEnded) return;
    inputEnded = true;
    if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify({ type: 'error', error: { code, message } }));
    if (hosted.readyState === WebSocket.OPEN) hosted.send(JSON.stringify({ type: 'input_audio.end' }));
  };
  for (const { data, isBinary } of session.early.splice(0)) toClient(data, isBinary);
  client.on('message', (data, isBinary) =>
    fromClient(() => {
      if (inputEnded || hosted.readyState !== WebSocket.OPEN) return;
      const admitted = hooks.admit ? hooks.admit(data, isBinary) : true;
      if (admitted instanceof Promise) return admitted.then((yes) => (yes ? toHosted(data, isBinary) : undefined));
      if (admitted) toHosted(data, isBinary);
    }),
  );
  hosted.on('message', toClient);
  const closeOther = (other: WebSocket, code: number, reason: Buffer): void => {
    if (other.readyState !== WebSocket.OPEN) return;
    // 1005/1006 cannot be sent: pass them on as a normal or abnormal end.
    other.close(code === 1005 ? 1000 : code === 1006 ? 1011 : code, reason.toString());
  };
  let closed = 0;
  const sideClosed = (): void => {
    closed += 1;
    if (closed === 2) hooks.ended?.();
  };
  client.on('close', (code, reason) => {
    closeOther(hosted, code, reason);
    sideClosed();
  });
  // In turn after the hosted messages before it: the hosted service closes right after `session.done`, whose local job
  // (onDone) may still be being recorded — on a cluster's database that takes round trips — and must reach the client.
  hosted.on('close', (code, reason) =>
    fromHosted(() => {
      closeOther(client, code, reason);
      sideClosed();
    }),
  );
  hosted.on('error', (error) => log.info(`hosted dictation: ${error.message}`));
  client.on('error', (error) => log.info(`dictation client: ${error.message}`));
  return {
    close(code, reason) {
      if (client.readyState === WebSocket.OPEN) client.close(code, reason);
      if (hosted.readyState === WebSocket.OPEN) hosted.close(1000, reason);
    },
    endInput,
  };
}
