/**
 * The Electron side of the Live tab: one WebSocket session to the service's live route (spec "Events") whose
 * PCM16 frames go to a native audio sink (the naudiodon player) instead of Web Audio. Plain Node (ws), so it is
 * tested without Electron; the sink is injected.
 */
import WebSocket from 'ws';
import type { LiveBridgeEvent } from '../common/desktop-bridge.js';

/** What the session needs from a native player. */
export interface PcmSink {
  write(pcm: Int16Array): void;
  /** Drop everything queued, be silent at once and release the device (a new sink is made for later audio). */
  stop(): void;
}

export interface NativeLiveOptions {
  /** ws:// URL of /v1/text-to-speech/realtime?model=… */
  url: string;
  apiKey: string;
  speed: number;
  createSink: (sampleRate: number) => PcmSink | Promise<PcmSink>;
  emit: (event: LiveBridgeEvent) => void;
  /** How long to wait for session.created, ms. Default 10 000. */
  openTimeoutMs?: number;
}

export class NativeLiveSession {
  private ws: WebSocket | null = null;
  private sink: Promise<PcmSink> | null = null;
  private sampleRate = 22050;

  constructor(private readonly options: NativeLiveOptions) {}

  start(): Promise<{ sampleRate: number }> {
    const { url, apiKey, emit } = this.options;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${apiKey}` } });
      this.ws = ws;
      let opened = false;
      const timer = setTimeout(() => {
        if (!opened) {
          ws.terminate();
          reject(new Error('the live session did not start in time'));
        }
      }, this.options.openTimeoutMs ?? 10_000);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          clearTimeout(timer);
          reject(new Error(errorMessage(body) ?? `the live session was refused (HTTP ${res.statusCode})`));
        });
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          const buf = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
          const pcm = new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + (buf.byteLength & ~1)));
          // Frames stay in order: each write waits on the same (possibly still opening) sink.
          void this.sinkFor().then((sink) => sink.write(pcm), (err: unknown) => emit({ type: 'error', code: 'player_failed', message: String(err) }));
          emit({ type: 'audio', samples: pcm.length });
          return;
        }
        let message: { type?: string; session?: { sample_rate?: number }; cancelled?: boolean; error?: { code?: string; message?: string } };
        try {
          message = JSON.parse(data.toString());
        } catch {
          return;
        }
        if (message.type === 'session.created') {
          const sampleRate = message.session?.sample_rate ?? 22050;
          this.sampleRate = sampleRate;
          this.sinkFor()
            .then(() => {
              opened = true;
              clearTimeout(timer);
              this.send({ type: 'session.update', session: { speed: this.options.speed } });
              emit({ type: 'session', sampleRate });
              resolve({ sampleRate });
            })
            .catch((err: unknown) => {
              clearTimeout(timer);
              ws.close();
              reject(err instanceof Error ? err : new Error(String(err)));
            });
        } else if (message.type === 'response.done') {
          emit({ type: 'done', cancelled: message.cancelled === true });
        } else if (message.type === 'error') {
          emit({ type: 'error', code: message.error?.code ?? 'internal_error', message: message.error?.message ?? 'live session error' });
        }
      });
      ws.on('error', (err) => {
        if (!opened) {
          clearTimeout(timer);
          reject(err);
        }
      });
      ws.on('close', () => {
        this.ws = null;
        this.stopSink();
        emit({ type: 'closed' });
      });
    });
  }

  speak(text: string): void {
    this.send({ type: 'speak', text });
  }

  setSpeed(speed: number): void {
    this.send({ type: 'session.update', session: { speed } });
  }

  cancel(): void {
    this.send({ type: 'cancel' });
    this.stopSink();
  }

  close(): void {
    this.stopSink();
    this.ws?.close();
  }

  private sinkFor(): Promise<PcmSink> {
    this.sink ??= Promise.resolve(this.options.createSink(this.sampleRate));
    return this.sink;
  }

  private stopSink(): void {
    const sink = this.sink;
    this.sink = null;
    void sink?.then((s) => s.stop(), () => undefined);
  }

  private send(message: object): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}

function errorMessage(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    return parsed.error?.message ?? null;
  } catch {
    return null;
  }
}
