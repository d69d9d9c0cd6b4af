/**
 * The live transcript of a capture: `ws://HOST/v1/captures/{id}/realtime` (docs/capture.md). Checked before the
 * upgrade like the other live sockets (live/live-admission.ts: key, failed-check limit, origin), then the local
 * account only (any other gets 404, as the capture routes do). The socket is sent the capture's state and every final
 * so far, then partials, finals (each with its side and speaker), levels, warnings and `capture.done`. A client that
 * records a side itself (`client` devices) sends it here: binary frames of one side byte (0 microphone, 1 system)
 * and PCM16 mono 16 kHz; `{"type":"source.end","side":…}` when that side stops, `{"type":"capture.stop"}` to stop.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { CAPTURE_MAX_FRAME_BYTES, type CaptureClientMessage, type CaptureServerMessage, type CaptureSide } from '../../common/capture-protocol.js';
import { ApiError } from '../../common/errors.js';
import { admitClient, refuseUpgrade, type AdmissionDeps } from '../live/live-admission.js';
import { DICTATION_PATH, LIVE_PATH } from '../live/live-options.js';
import type { CaptureService } from './capture-service.js';
import type { CaptureSession } from './capture-session.js';
import type { Log } from '../../common/log.js';

const PATH = /^\/v1\/captures\/([A-Za-z0-9_-]+)\/realtime$/;
const SIDES: readonly CaptureSide[] = ['microphone', 'system'];

export interface CaptureSocketDeps extends AdmissionDeps {
  captures: CaptureService;
  /** The local account's id: the only one that may open the socket. */
  localAccountId: string;
  log: Log;
}

export function attachCaptureSocket(server: Server, deps: CaptureSocketDeps): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: CAPTURE_MAX_FRAME_BYTES * 2 });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match) {
      // The live server answers its own paths; any other path is this handler's to refuse.
      if (url.pathname !== LIVE_PATH && url.pathname !== DICTATION_PATH) refuseUpgrade(socket, new ApiError('not_found', `no WebSocket route at ${url.pathname}`));
      return;
    }
    socket.on('error', () => socket.destroy());
    admitClient(req, url, deps)
      .then((client) => {
        if (client.accountId !== deps.localAccountId) throw new ApiError('not_found', `no WebSocket route at ${url.pathname} for this key (captures answer the local account only)`);
        return deps.captures.session(client.accountId, match[1]!);
      })
      .then(
        (session) => wss.handleUpgrade(req, socket, head, (ws) => serve(ws, session, deps.log)),
        (error: unknown) => refuseUpgrade(socket, error instanceof ApiError ? error : new ApiError('internal_error', 'the capture socket could not be opened')),
      );
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.close(1001, 'service shutting down');
      wss.close();
    },
  };
}

function serve(ws: WebSocket, session: CaptureSession, log: Log): void {
  const send = (message: CaptureServerMessage): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const sendError = (code: string, message: string): void => send({ type: 'error', error: { code, message } });
  for (const message of session.snapshot()) send(message);
  const onMessage = (message: CaptureServerMessage): void => send(message);
  const onDone = (): void => {
    if (ws.readyState === ws.OPEN) ws.close(1000, 'capture done');
  };
  if (!session.isRunning() && session.view().status !== 'stopping') {
    send({ type: 'capture.done', job_id: session.view().job_id, duration_seconds: session.view().duration_seconds });
    ws.close(1000, 'capture done');
    return;
  }
  session.events.on('message', onMessage);
  session.events.once('done', onDone);
  const clientSides = new Set<CaptureSide>();
  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) {
      const frame = data as Buffer;
      const side = SIDES[frame[0] ?? -1];
      const source = side ? session.clientSource(side) : null;
      if (!side) return sendError('invalid_audio_frame', 'a binary frame starts with its side: 0 for the microphone, 1 for the system output');
      if (!source && session.sentByClient(side)) return; // sent before the client saw the capture stop: nothing to record it into
      if (!source) return sendError('invalid_audio_frame', `the ${side} side of this capture is recorded by the service, not sent by the client`);
      const pcm = frame.subarray(1);
      if (pcm.length > CAPTURE_MAX_FRAME_BYTES) return sendError('frame_too_large', `an audio frame may hold at most ${CAPTURE_MAX_FRAME_BYTES} bytes after its side byte (got ${pcm.length}); it was not used`);
      if (pcm.length % 2 !== 0) return sendError('invalid_audio_frame', `an audio frame holds whole 16-bit samples (an even number of bytes after the side byte; got ${pcm.length}); it was not used`);
      clientSides.add(side);
      source.push(Buffer.from(pcm));
      return;
    }
    let message: CaptureClientMessage;
    try {
      message = JSON.parse(data.toString()) as CaptureClientMessage;
    } catch {
      return sendError('invalid_json', 'a text message must be JSON');
    }
    if (message.type === 'capture.stop') return void session.stop();
    if (message.type === 'source.end' && SIDES.includes(message.side)) {
      session.clientSource(message.side)?.end(typeof message.reason === 'string' ? message.reason : `the client stopped sending the ${message.side} side`);
      return;
    }
    sendError('unknown_message_type', 'messages are source.end {side} and capture.stop (audio goes in binary frames)');
  });
  ws.on('close', () => {
    session.events.off('message', onMessage);
    session.events.off('done', onDone);
    // The client recorded these sides: without it they are silent from now on.
    for (const side of clientSides) session.clientSource(side)?.end(`the client that sent the ${side} side went away`);
  });
  ws.on('error', (error) => log.info(`capture socket: ${error.message}`));
}

