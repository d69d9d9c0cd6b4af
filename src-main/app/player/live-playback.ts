/**
 * Connects a live text-to-speech WebSocket session to the native player: the Electron main process opens it for
 * the preload bridge (`window.voxdesk.live`). Speaks are utterances in a queue; only the head plays, through its own
 * player, which is ended (padded and played out) once the service has sent all of its audio. `done` is reported when
 * an utterance has been heard to its end — not when the service finished sending it, which for a synthesizer faster
 * than real time is seconds earlier — or with `cancelled: true` when cancel() cut it off. The next utterance's audio
 * waits, so speech never overlaps.
 *
 * Latency: the next utterance's player is opened ahead of time (a spare), because opening a device costs 30–100 ms
 * when PortAudio is not initialised (the spare also keeps it initialised, so opening the following one costs a few
 * ms); and one adaptive jitter policy is shared by the session's players, so playback starts with a small cushion
 * and holds more only after the device ran dry (adaptive-jitter.ts).
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import type { LiveBridgeEvent } from '../../common/desktop-bridge.js';
import { AdaptiveJitter, type AdaptiveJitterOptions } from './adaptive-jitter.js';
import { createPlayer } from './player.js';
import type { Player, PlayerOptions } from './player-types.js';

export interface LivePlaybackOptions {
  /** The service's base URL (`http://127.0.0.1:PORT`). */
  serviceUrl: string;
  apiKey: string;
  modelId: string;
  /** 0.5–2; sent as session.update when given. */
  speed?: number;
  /** Extra query parameters of the live route (eSpeak: voice, language, speaker, pitch; neural: speaker, a saved voice's id as voice). */
  query?: Record<string, string>;
  /** Device options; the sample rate comes from the session, the jitter policy from `jitter`. */
  player?: Omit<PlayerOptions, 'sampleRate' | 'jitter'>;
  /** The session's adaptive jitter buffer (defaults in adaptive-jitter.ts). */
  jitter?: AdaptiveJitterOptions;
  /** Opens the output device. Default: the naudiodon player. */
  openPlayer?: (options: PlayerOptions) => Player;
}

export interface LivePlaybackEvents {
  event: [event: LiveBridgeEvent];
}

interface Utterance {
  id: string;
  /** Audio received while another utterance plays. */
  frames: Buffer[];
  /** The service sent response.done: no more audio will come for it. */
  sent: boolean;
  player: Player | null;
}

export class LivePlayback extends EventEmitter<LivePlaybackEvents> {
  /** Oldest first; the head is the one playing. Audio from the service belongs to the oldest not yet sent. */
  private readonly queue: Utterance[] = [];
  /** Cancelled utterances the service has not confirmed yet: their late frames and done are dropped. */
  private readonly cancelled = new Set<string>();
  private closed = false;
  private readonly jitter: AdaptiveJitter;
  /** A player opened ahead of time for the next utterance (null while none, or when it failed to open). */
  private spare: Player | null = null;

  private constructor(
    private readonly ws: WebSocket,
    readonly sampleRate: number,
    private readonly options: LivePlaybackOptions,
  ) {
    super();
    this.jitter = new AdaptiveJitter(options.jitter);
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', () => {
      this.closed = true;
      this.silence();
      this.dropSpare();
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
        playback.openSpare();
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
    this.send({ type: 'cancel' });
    for (const utterance of this.queue) {
      // Not yet sent: the service confirms with its own response.done, reported then. Sent: report it now.
      if (utterance.sent) this.emit('event', { type: 'done', cancelled: true });
      else this.cancelled.add(utterance.id);
    }
    this.silence();
  }

  /** Underruns so far (the device ran dry while more audio was coming) and the jitter buffer's current target. */
  get stats(): { underruns: number; jitterTargetMs: number } {
    return { underruns: this.jitter.underruns, jitterTargetMs: this.jitter.targetMs };
  }

  /** Closes the session and the device. */
  close(): Promise<void> {
    this.silence();
    this.dropSpare();
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }

  private silence(): void {
    const silenced = this.queue.splice(0);
    for (const utterance of silenced) utterance.player?.stop();
  }

  private send(message: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (isBinary) {
      const receiving = this.queue.find((u) => !u.sent);
      if (!receiving) return; // a cancelled utterance's last frames
      if (receiving === this.queue[0]) this.head(receiving).write(data);
      else receiving.frames.push(data);
      this.emit('event', { type: 'audio', samples: data.length / 2 });
      return;
    }
    const msg = JSON.parse(data.toString()) as
      | { type: 'response.created'; response_id: string }
      | { type: 'response.done'; response_id: string; cancelled: boolean }
      | { type: 'error'; error: { code: string; message: string } }
      | { type: string };
    if (msg.type === 'response.created' && 'response_id' in msg) {
      this.queue.push({ id: msg.response_id, frames: [], sent: false, player: null });
    } else if (msg.type === 'response.done' && 'response_id' in msg && 'cancelled' in msg) {
      this.onSent(msg.response_id, msg.cancelled);
    } else if (msg.type === 'error' && 'error' in msg) {
      this.emit('event', { type: 'error', code: msg.error.code, message: msg.error.message });
    }
  }

  private onSent(id: string, cancelledByService: boolean): void {
    if (this.cancelled.delete(id) || cancelledByService) {
      const index = this.queue.findIndex((u) => u.id === id);
      if (index >= 0) this.queue.splice(index, 1)[0]!.player?.stop();
      this.emit('event', { type: 'done', cancelled: true });
      if (index === 0) this.startNext();
      return;
    }
    const utterance = this.queue.find((u) => u.id === id);
    if (!utterance) return;
    utterance.sent = true;
    if (utterance === this.queue[0]) this.finish(utterance);
  }

  /** The head's player on its first audio: the spare when there is one (then the next spare is opened). */
  private head(utterance: Utterance): Player {
    if (!utterance.player) {
      const player = this.spare ?? this.openPlayer();
      this.spare = null;
      player.on('error', (error) => this.emit('event', { type: 'error', code: error.code, message: error.message }));
      utterance.player = player;
      // After this turn's frames are written: opening blocks the event loop for a few ms.
      setImmediate(() => this.openSpare());
    }
    return utterance.player;
  }

  private openPlayer(): Player {
    const open = this.options.openPlayer ?? createPlayer;
    return open({ ...this.options.player, sampleRate: this.sampleRate, jitter: this.jitter });
  }

  /** Opens the spare. One that fails is dropped quietly: the utterance that would have used it opens its own. */
  private openSpare(): void {
    if (this.closed || this.spare) return;
    const player = this.openPlayer();
    player.on('error', () => {
      if (this.spare === player) this.spare = null;
    });
    this.spare = player;
  }

  private dropSpare(): void {
    const spare = this.spare;
    this.spare = null;
    spare?.stop();
  }

  /** All of the head's audio is in its player: pad and play it out, then report it heard and start the next. */
  private finish(utterance: Utterance): void {
    const done = ({ stopped }: { stopped: boolean }): void => {
      if (stopped || this.queue[0] !== utterance) return; // cancelled meanwhile: already reported
      this.queue.shift();
      this.emit('event', { type: 'done', cancelled: false });
      this.startNext();
    };
    if (!utterance.player) {
      done({ stopped: false }); // no audio at all (e.g. nothing speakable)
      return;
    }
    utterance.player.once('ended', done);
    utterance.player.end();
  }

  private startNext(): void {
    const next = this.queue[0];
    if (!next) return;
    if (next.frames.length > 0) {
      const player = this.head(next);
      for (const frame of next.frames.splice(0)) player.write(frame);
    }
    if (next.sent) this.finish(next);
  }
}
