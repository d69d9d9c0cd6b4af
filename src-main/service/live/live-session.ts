/**
 * One live text-to-speech WebSocket session: speaks queued in order, streamed sentence by sentence as fixed-size
 * PCM16 frames, with back-pressure on the socket's bufferedAmount. See live-protocol.ts for the messages and
 * docs/engines-and-models.md, "Live text to speech", for the conventions (cancel, charging, frame sizes).
 */
import { ApiError } from '../../common/errors.js';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { Pricing } from '../../common/api-types.js';
import { chargesFor } from '../../common/pricing.js';
import { DEFAULT_MAX_TEXT_CHARS, textLength, textTooLongMessage } from '../../common/text-length.js';
import { splitSentences } from '../../engines/audio/sentences.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { NewCharge } from '../../store/ledger-repo.js';
import type { LiveOptions } from './live-options.js';
import { parseClientMessage, type ServerMessage, type SessionInfo } from './live-protocol.js';
import type { LiveVoice, SentenceHandle } from '../../engines/live/live-synth.js';
import type { Log } from '../../common/log.js';

/** A ledger row for live audio: no job or batch (job_id and batch_id are null). */
export type LiveCharge = NewCharge;

export interface LiveSessionInit {
  accountId: string;
  model: ModelDefinition;
  pricing: Pricing;
  voice: LiveVoice;
  options: LiveOptions;
  charge(entry: LiveCharge): void;
  log: Log;
}

export interface LiveSessionStats {
  id: string;
  /** Samples handed to the socket (sent or in its buffer). */
  samplesSent: number;
  /** Samples the voice produced (sent, waiting in the outbox, or dropped by a cancel). */
  samplesSynthesized: number;
  bufferedAmount: number;
  queuedSpeaks: number;
}

interface Speak {
  id: string;
  text: string;
  cancelled: boolean;
  samplesSent: number;
  /** Its audio has been charged (at response.done, or when the socket closed before it). */
  charged: boolean;
  handle: SentenceHandle | null;
}

type OutboxItem =
  | { kind: 'audio'; speak: Speak; data: Buffer }
  | { kind: 'json'; message: ServerMessage }
  | { kind: 'done'; speak: Speak };

const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url')}`;

export class LiveSession {
  readonly id = newId('sess');
  private speed = 1;
  private readonly queue: Speak[] = [];
  private current: Speak | null = null;
  private running = false;
  private closed = false;
  private feeCharged = false;
  private readonly outbox: OutboxItem[] = [];
  private pumpTimer: NodeJS.Timeout | null = null;
  private roomWaiters: (() => void)[] = [];
  private frame: Int16Array;
  private frameFill = 0;
  private samplesSent = 0;
  private samplesSynthesized = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly init: LiveSessionInit,
  ) {
    this.frame = new Int16Array(init.options.frameSamples);
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => this.shutdown());
    ws.on('error', (error) => init.log.info(`live session ${this.id}: ${error.message}`));
    this.sendNow({ type: 'session.created', session: this.info() });
  }

  stats(): LiveSessionStats {
    return {
      id: this.id,
      samplesSent: this.samplesSent,
      samplesSynthesized: this.samplesSynthesized,
      bufferedAmount: this.ws.bufferedAmount,
      queuedSpeaks: this.queue.length + (this.current ? 1 : 0),
    };
  }

  /** Ends the session (service shutdown): stops synthesis and closes the socket with 1001. */
  close(): void {
    this.shutdown();
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1001, 'service shutting down');
  }

  /**
   * Ends the session because its key is no longer valid (revoked): an `error` message says why, synthesis stops,
   * and the socket closes with 1008 (policy violation). Audio not yet sent is dropped.
   */
  revoke(message: string): void {
    if (this.closed) return;
    this.shutdown();
    this.sendError('unauthorized', message);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1008, 'API key revoked');
  }

  private info(): SessionInfo {
    return {
      id: this.id,
      model: this.init.model.id,
      sample_rate: this.init.voice.sampleRate,
      format: 'pcm_s16le',
      channels: 1,
      speed: this.speed,
      frame_samples: this.init.options.frameSamples,
    };
  }

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (isBinary) {
      this.sendError('invalid_json', 'binary messages are not accepted; send JSON text');
      return;
    }
    try {
      const msg = parseClientMessage(data.toString(), this.init.model.acceptsSpeed);
      switch (msg.type) {
        case 'session.update':
          if (msg.session.speed !== undefined) this.speed = msg.session.speed;
          this.sendNow({ type: 'session.updated', session: this.info() });
          break;
        case 'speak':
          this.enqueueSpeak(msg.text);
          break;
        case 'cancel':
          this.cancelAll();
          break;
      }
    } catch (error) {
      if (error instanceof ApiError) this.sendError(error.code, error.message);
      else this.sendError('internal_error', 'the message could not be handled');
    }
  }

  private enqueueSpeak(text: string): void {
    const max = this.init.model.limits.max_text_chars ?? DEFAULT_MAX_TEXT_CHARS;
    const length = textLength(text);
    if (length > max) throw new ApiError('text_too_long', textTooLongMessage('text', length, max, this.init.model.id));
    if (this.queue.length >= this.init.options.maxQueuedSpeaks) {
      throw new ApiError('queue_full', `at most ${this.init.options.maxQueuedSpeaks} speaks may wait; send cancel or wait for response.done`);
    }
    const speak: Speak = { id: newId('resp'), text, cancelled: false, samplesSent: 0, charged: false, handle: null };
    this.queue.push(speak);
    this.sendNow({ type: 'response.created', response_id: speak.id, text_chars: length });
    void this.processQueue();
  }

  /** cancel: stops the current speak and drops the queued ones; each gets response.done with cancelled: true. */
  private cancelAll(): void {
    const dropped = this.queue.splice(0);
    if (this.current) this.cancelSpeak(this.current);
    for (const speak of dropped) {
      speak.cancelled = true;
      this.finishSpeak(speak);
    }
  }

  private cancelSpeak(speak: Speak): void {
    speak.cancelled = true;
    speak.handle?.cancel();
    // Frames not yet handed to the socket are dropped; what was sent is billed.
    for (let i = this.outbox.length - 1; i >= 0; i--) {
      const item = this.outbox[i]!;
      if (item.kind === 'audio' && item.speak === speak) this.outbox.splice(i, 1);
    }
    this.frameFill = 0;
  }

  private async processQueue(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed && this.queue.length > 0) {
        const speak = this.queue.shift()!;
        this.current = speak;
        await this.runSpeak(speak);
        this.current = null;
      }
    } finally {
      this.running = false;
    }
  }

  private async runSpeak(speak: Speak): Promise<void> {
    for (const sentence of splitSentences(speak.text)) {
      await this.waitForRoom();
      if (speak.cancelled || this.closed) break;
      const handle = this.init.voice.speakSentence({
        text: sentence,
        speed: this.speed,
        onSamples: (samples) => {
          if (!speak.cancelled && !this.closed) this.addSamples(speak, samples);
        },
      });
      speak.handle = handle;
      try {
        await handle.done;
      } catch (error) {
        if (speak.cancelled || this.closed) break;
        const code = (error as { code?: unknown }).code;
        this.enqueue({
          kind: 'json',
          message: {
            type: 'error',
            response_id: speak.id,
            error: { code: typeof code === 'string' ? code : 'engine_failed', message: (error as Error).message },
          },
        });
        break;
      } finally {
        speak.handle = null;
      }
    }
    if (this.closed) return;
    if (!speak.cancelled && this.frameFill > 0) {
      this.enqueue({ kind: 'audio', speak, data: Buffer.from(this.frame.slice(0, this.frameFill).buffer) });
    }
    this.frameFill = 0;
    this.finishSpeak(speak);
  }

  /** response.done goes through the outbox so it follows the speak's last frame. */
  private finishSpeak(speak: Speak): void {
    this.enqueue({ kind: 'done', speak });
  }

  private addSamples(speak: Speak, samples: Int16Array): void {
    this.samplesSynthesized += samples.length;
    const size = this.frame.length;
    let offset = 0;
    while (offset < samples.length) {
      const take = Math.min(size - this.frameFill, samples.length - offset);
      this.frame.set(samples.subarray(offset, offset + take), this.frameFill);
      this.frameFill += take;
      offset += take;
      if (this.frameFill === size) {
        this.enqueue({ kind: 'audio', speak, data: Buffer.from(this.frame.slice().buffer) });
        this.frameFill = 0;
      }
    }
  }

  private enqueue(item: OutboxItem): void {
    this.outbox.push(item);
    this.pump();
  }

  private pump(): void {
    const { highWaterBytes, drainPollMs } = this.init.options;
    while (this.outbox.length > 0 && this.ws.readyState === WebSocket.OPEN && this.ws.bufferedAmount < highWaterBytes) {
      const item = this.outbox.shift()!;
      if (item.kind === 'audio') {
        const samples = item.data.length / 2;
        item.speak.samplesSent += samples;
        this.samplesSent += samples;
        this.ws.send(item.data, { binary: true });
      } else if (item.kind === 'done') {
        this.sendNow(this.doneMessage(item.speak));
      } else {
        this.sendNow(item.message);
      }
    }
    if (this.outbox.length === 0 && this.ws.bufferedAmount < highWaterBytes) {
      for (const wake of this.roomWaiters.splice(0)) wake();
    } else if (!this.pumpTimer && !this.closed) {
      this.pumpTimer = setTimeout(() => {
        this.pumpTimer = null;
        this.pump();
      }, drainPollMs);
    }
  }

  /** response.done counts what was actually sent (a cancelled speak's dropped frames are not billed). */
  private doneMessage(speak: Speak): ServerMessage {
    // Charged from the value response.done shows, so a client can recompute the charge from what it received.
    const seconds = this.settle(speak);
    return {
      type: 'response.done',
      response_id: speak.id,
      audio_seconds: seconds,
      samples: speak.samplesSent,
      cancelled: speak.cancelled,
    };
  }

  /**
   * Charges a speak once for the audio handed to the socket, and answers those seconds. Called by response.done, and
   * by the end of the session for a speak whose audio went out but whose response.done never did (the client closed
   * the socket first): the charge follows the audio delivered (spec), so closing early does not make it free.
   */
  private settle(speak: Speak): number {
    const seconds = Math.round((speak.samplesSent / this.init.voice.sampleRate) * 1e6) / 1e6;
    if (!speak.charged) {
      speak.charged = true;
      this.chargeSpeak(seconds);
    }
    return seconds;
  }

  /**
   * Request fee once per session (with its first audio), usage per speak by the audio sent: the rows of
   * common/pricing.ts chargesFor at the price the catalogue published when the session opened.
   */
  private chargeSpeak(seconds: number): void {
    if (seconds <= 0) return;
    const { pricing, accountId, model } = this.init;
    const base = {
      account_id: accountId,
      job_id: null,
      batch_id: null,
      model_id: model.id,
      product: 'text-to-speech',
      provider: model.provider === 'remote' ? ('remote' as const) : ('local' as const),
      created_at: new Date().toISOString(),
    };
    const charges = chargesFor(pricing, seconds, [], !this.feeCharged);
    this.feeCharged = true;
    try {
      for (const charge of charges) this.init.charge({ ...base, ...charge, seconds: charge.kind === 'request_fee' ? 0 : seconds });
    } catch (error) {
      this.init.log.info(`live session ${this.id}: charge failed: ${(error as Error).message}`);
    }
  }

  private waitForRoom(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.outbox.length === 0 && this.ws.bufferedAmount < this.init.options.highWaterBytes) return Promise.resolve();
    return new Promise((resolve) => {
      this.roomWaiters.push(resolve);
      this.pump();
    });
  }

  private sendNow(message: ServerMessage): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private sendError(code: string, message: string): void {
    this.sendNow({ type: 'error', error: { code, message } });
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    const pending = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    for (const speak of pending) {
      speak.cancelled = true;
      speak.handle?.cancel();
    }
    // Speaks whose audio went out while their response.done did not (it waits in the outbox, or the current one).
    const unsettled = new Set<Speak>(pending);
    for (const item of this.outbox) if (item.kind !== 'json') unsettled.add(item.speak);
    for (const speak of unsettled) this.settle(speak);
    this.outbox.length = 0;
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    for (const wake of this.roomWaiters.splice(0)) wake();
  }
}
