/**
 * Connects a live text-to-speech WebSocket session to the native player: the Electron main process opens it for
 * the preload bridge (`window.voxdesk.live`). Each speak plays through one player that is ended (padded and played
 * out) at response.done; the next speak's audio waits until the previous player has finished so speech never
 * overlaps. cancel() silences at once and drops the cancelled speaks' remaining frames.
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import type { LiveBridgeEvent } from '../../common/desktop-bridge.js';
import { createPlayer } from './player.js';
import type { Player, PlayerOptions } from './player-types.js';

export interface LivePlaybackOptions {
  /** The service's base URL (`http://127.0.0.1:PORT`). */
  serviceUrl: string;
  apiKey: string;
  modelId: string;
  /** 0.5–2; sent as session.update when given. */
  speed?: number;
  /** Extra query parameters of the live route (eSpeak: voice, language, speaker, pitch; neural: speaker). */
  query?: Record<string, string>;
  /** Device options; the sample rate comes from the session. */
  player?: Omit<PlayerOptions, 'sampleRate'>;
  /** Opens the output device. Default: the naudiodon player. */
  openPlayer?: (options: PlayerOptions) => Player;
}

export interface LivePlaybackEvents {
  event: [event: LiveBridgeEvent];
}

export class LivePlayback extends EventEmitter<LivePlaybackEvents> {
  private player: Player | null = null;
  /** A player still playing out the previous speak; new audio waits for it. */
  private ending: Player | null = null;
  private waiting: Buffer[] = [];
  /** Response ids not done yet, oldest first: audio belongs to the first. */
  private readonly responses: string[] = [];
  private readonly cancelled = new Set<string>();
  private closed = false;

  private constructor(
    private readonly ws: WebSocket,
    readonly sampleRate: number,
    private readonly options: LivePlaybackOptions,
  ) {
    super();
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', () => {
      this.closed = true;
      this.player?.stop();
      this.emit('event', { type: 'closed' });
    });
    ws.on('error', (error) => this.emit('event', { type: 'error', code: 'connection_failed', message: error.message }));
  }

  /** Opens the session; resolves once session.created arrived (rejects with the service's error on a refusal). */
  static open(options: LivePlaybackOptions): Promise<LivePlayback> {
    const url = new URL('/v1/text-to-speech/realtime', options.serviceUrl.replace(/^http/, 'ws'));
    url.searchParams.set('model', options.modelId);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${options.apiKey}` } });
    return new Promise((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          let message = `live session refused (HTTP ${res.statusCode})`;
          let code = 'live_refused';
          try {
            const parsed = JSON.parse(body) as { error?: { code?: string; message?: string } };
            code = parsed.error?.code ?? code;
            message = parsed.error?.message ?? message;
          } catch {
            // Not JSON: keep the status line.
          }
          reject(Object.assign(new Error(message), { code }));
        });
      });
      ws.once('error', (error) => reject(Object.assign(error, { code: 'connection_failed' })));
      ws.once('message', (data) => {
        const msg = JSON.parse(String(data)) as { type: string; session?: { sample_rate: number } };
        if (msg.type !== 'session.created' || !msg.session) {
          ws.close();
          reject(Object.assign(new Error('the service did not open a session'), { code: 'protocol_error' }));
          return;
        }
        const playback = new LivePlayback(ws, msg.session.sample_rate, options);
        if (options.speed !== undefined) playback.setSpeed(options.speed);
        playback.emit('event', { type: 'session', sampleRate: msg.session.sample_rate });
        resolve(playback);
      });
    });
  }

  speak(text: string): void {
    this.send({ type: 'speak', text });
  }

  setSpeed(speed: number): void {
    this.send({ type: 'session.update', session: { speed } });
  }

  /** Silences at once and cancels what is speaking and queued; the session stays open. */
  cancel(): void {
    for (const id of this.responses) this.cancelled.add(id);
    this.send({ type: 'cancel' });
    this.waiting = [];
    this.player?.stop();
    this.player = null;
    this.ending?.stop();
    this.ending = null;
  }

  /** Closes the session and the device. */
  close(): Promise<void> {
    this.player?.stop();
    this.ending?.stop();
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }

  private send(message: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (isBinary) {
      const head = this.responses[0];
      if (head !== undefined && this.cancelled.has(head)) return;
      this.play(data);
      this.emit('event', { type: 'audio', samples: data.length / 2 });
      return;
    }
    const msg = JSON.parse(data.toString()) as
      | { type: 'response.created'; response_id: string }
      | { type: 'response.done'; response_id: string; cancelled: boolean }
      | { type: 'error'; error: { code: string; message: string } }
      | { type: string };
    if (msg.type === 'response.created' && 'response_id' in msg) {
      this.responses.push(msg.response_id);
    } else if (msg.type === 'response.done' && 'response_id' in msg && 'cancelled' in msg) {
      const index = this.responses.indexOf(msg.response_id);
      if (index >= 0) this.responses.splice(index, 1);
      const wasCancelled = this.cancelled.delete(msg.response_id) || msg.cancelled;
      if (!wasCancelled) this.endSpeech();
      this.emit('event', { type: 'done', cancelled: wasCancelled });
    } else if (msg.type === 'error' && 'error' in msg) {
      this.emit('event', { type: 'error', code: msg.error.code, message: msg.error.message });
    }
  }

  private play(frame: Buffer): void {
    if (this.ending) {
      this.waiting.push(frame);
      return;
    }
    if (!this.player) this.player = this.openPlayer();
    this.player.write(frame);
  }

  private openPlayer(): Player {
    const open = this.options.openPlayer ?? createPlayer;
    const player = open({ ...this.options.player, sampleRate: this.sampleRate });
    player.on('error', (error) => this.emit('event', { type: 'error', code: error.code, message: error.message }));
    return player;
  }

  /** Pads and plays out the current speak; audio that arrives meanwhile waits for it. */
  private endSpeech(): void {
    const player = this.player;
    if (!player) return;
    this.player = null;
    this.ending = player;
    player.once('ended', () => {
      if (this.ending !== player) return;
      this.ending = null;
      const waiting = this.waiting.splice(0);
      for (const frame of waiting) this.play(frame);
    });
    player.end();
  }
}
