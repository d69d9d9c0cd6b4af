/**
 * Live text to speech in browser mode: the WebSocket protocol of the spec (session.created → session.update →
 * speak → PCM16 binary frames → response.done; cancel) played through Web Audio. Each frame becomes an
 * AudioBuffer at the session's sample_rate scheduled back to back; after an underrun the next frame starts
 * `leadSeconds` ahead (the jitter buffer; default 0.12 s).
 */
import { PageError } from '../../shared/error-messages.js';
import { pcm16ToFloat32, scheduleStart } from './pcm-schedule.js';

export interface LiveStats {
  frames: number;
  samples: number;
  scheduledSeconds: number;
  responses: number;
}

export interface LiveHandlers {
  onState(state: 'connecting' | 'ready' | 'speaking' | 'closed'): void;
  onError(code: string, message: string): void;
  onStats(stats: LiveStats): void;
}

export class WebAudioLive {
  private ws: WebSocket | null = null;
  private ctx: AudioContext | null = null;
  private nextStart = 0;
  private sampleRate = 22050;
  private pending = 0;
  private sources = new Set<AudioBufferSourceNode>();
  readonly stats: LiveStats = { frames: 0, samples: 0, scheduledSeconds: 0, responses: 0 };

  constructor(
    private readonly url: string,
    private readonly handlers: LiveHandlers,
    /** Jitter-buffer lead after an underrun, seconds. Default 0.12. */
    private readonly leadSeconds = 0.12,
  ) {}

  start(speed: number): Promise<number> {
    this.handlers.onState('connecting');
    // Created inside the user's click so autoplay policy lets it start.
    this.ctx ??= new AudioContext();
    void this.ctx.resume();
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.binaryType = 'arraybuffer';
      this.ws = ws;
      let opened = false;
      ws.onmessage = (event) => {
        if (event.data instanceof ArrayBuffer) return this.play(event.data);
        let message: { type?: string; session?: { sample_rate?: number }; error?: { code?: string; message?: string } };
        try {
          message = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (message.type === 'session.created') {
          this.sampleRate = message.session?.sample_rate ?? this.sampleRate;
          opened = true;
          this.send({ type: 'session.update', session: { speed } });
          this.handlers.onState('ready');
          resolve(this.sampleRate);
        } else if (message.type === 'response.done') {
          this.stats.responses++;
          this.pending = Math.max(0, this.pending - 1);
          this.handlers.onStats({ ...this.stats });
          if (!this.pending) this.handlers.onState('ready');
        } else if (message.type === 'error') {
          this.handlers.onError(message.error?.code ?? 'internal_error', message.error?.message ?? '');
        }
      };
      ws.onerror = () => {
        if (!opened) reject(new PageError('live_unavailable'));
      };
      ws.onclose = (event) => {
        this.ws = null;
        this.handlers.onState('closed');
        if (!opened) reject(new PageError('live_refused', event.reason || null));
      };
    });
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  speak(text: string): void {
    if (!text.trim()) return;
    this.pending++;
    this.handlers.onState('speaking');
    this.send({ type: 'speak', text });
  }

  setSpeed(speed: number): void {
    this.send({ type: 'session.update', session: { speed } });
  }

  /** Stop what is playing and what the server still synthesises; the session stays open. */
  cancel(): void {
    this.send({ type: 'cancel' });
    for (const s of this.sources) s.stop();
    this.sources.clear();
    this.nextStart = 0;
    this.pending = 0;
    this.handlers.onState('ready');
  }

  close(): void {
    this.cancel();
    this.ws?.close();
    this.ws = null;
    void this.ctx?.close();
    this.ctx = null;
  }

  private send(message: object): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private play(data: ArrayBuffer): void {
    const ctx = this.ctx;
    if (!ctx || data.byteLength < 2) return;
    const samples = pcm16ToFloat32(data);
    const buffer = ctx.createBuffer(1, samples.length, this.sampleRate);
    buffer.copyToChannel(samples, 0);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    const at = scheduleStart(ctx.currentTime, this.nextStart, this.leadSeconds);
    source.start(at);
    this.nextStart = at + buffer.duration;
    this.sources.add(source);
    source.onended = () => this.sources.delete(source);
    this.stats.frames++;
    this.stats.samples += samples.length;
    this.stats.scheduledSeconds += buffer.duration;
    this.handlers.onStats({ ...this.stats });
  }
}
