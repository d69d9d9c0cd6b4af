/**
 * Dictate anywhere (docs/capture.md): while the shortcut is held, the microphone is streamed to the service's own
 * dictation socket — an ordinary dictation, so it is a job with its audio, in the same quotas, caps and recognizer
 * pool as one from the Live tab — and when it is released the final text is inserted into the focused app
 * (text-insertion.ts). The indicator is told each step: listening, recognising, inserted, or error (with why, and the
 * job that keeps the text when it could not be inserted).
 */
import WebSocket from 'ws';
import type { DictationServerMessage } from '../../common/dictation-protocol.js';
import type { PcmSource } from '../../engines/capture/capture-types.js';
import { CAPTURE_SAMPLE_RATE } from '../../engines/capture/capture-types.js';
import { InsertionError, type InsertResult, type TextInserter } from './text-insertion.js';
import type { Log } from '../../common/log.js';

export type IndicatorState =
  | { state: 'idle' }
  | { state: 'listening' }
  | { state: 'recognising' }
  | { state: 'inserted'; text: string; how: InsertResult['how'] }
  | { state: 'error'; message: string; jobId: string | null };

export interface HotkeyDictationOptions {
  serviceUrl: string;
  apiKey: string;
  /** The live speech-to-text model dictated with. */
  model: () => string;
  /** A new source of the microphone for each dictation (engines/capture: PulseSource on Linux). */
  microphone: () => PcmSource;
  inserter: TextInserter;
  show(state: IndicatorState): void;
  log: Log;
  /** How long the release waits for the last finals. Default 30 s. */
  endTimeoutMs?: number;
}

/** What one dictation did, with the moments the benchmark measures (performance.now()). */
export interface DictationOutcome {
  text: string;
  jobId: string | null;
  inserted: InsertResult | null;
  error: string | null;
  releasedAt: number;
  /** When the last final arrived (the recognizer's own latency ends here). */
  lastFinalAt: number | null;
  /** When the text was in the focused app. */
  insertedAt: number | null;
}

interface Running {
  ws: WebSocket;
  /** Bytes of audio the microphone delivered. */
  bytes: number;
  mic: PcmSource;
  finals: Map<number, string>;
  lastFinalAt: number | null;
  opened: Promise<void>;
  done: Promise<{ jobId: string | null }>;
  error: string | null;
}

export class HotkeyDictation {
  private running: Running | null = null;

  constructor(private readonly options: HotkeyDictationOptions) {}

  get active(): boolean {
    return this.running !== null;
  }

  /** Seconds of microphone audio recorded in the dictation listening now (0 when none). */
  get seconds(): number {
    return (this.running?.bytes ?? 0) / 2 / CAPTURE_SAMPLE_RATE;
  }

  /** The shortcut went down: listening starts at once (audio before the socket opens waits for it). */
  start(): void {
    if (this.running) return;
    const { serviceUrl, apiKey } = this.options;
    const url = `${serviceUrl.replace(/^http/, 'ws')}/v1/speech-to-text/realtime?model=${encodeURIComponent(this.options.model())}`;
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${apiKey}` } });
    const pending: Buffer[] = [];
    const finals = new Map<number, string>();
    let resolveDone!: (value: { jobId: string | null }) => void;
    const running: Running = {
      ws,
      bytes: 0,
      mic: this.options.microphone(),
      finals,
      lastFinalAt: null,
      opened: new Promise((resolve, reject) => {
        ws.once('open', () => {
          ws.send(JSON.stringify({ type: 'session.update', session: { sample_rate: CAPTURE_SAMPLE_RATE } }));
          for (const frame of pending.splice(0)) ws.send(frame);
          resolve();
        });
        ws.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => reject(new Error(messageOf(body) ?? `the dictation was refused (HTTP ${res.statusCode})`)));
        });
        ws.once('error', (error) => reject(error));
      }),
      done: new Promise((resolve) => (resolveDone = resolve)),
      error: null,
    };
    running.opened.catch((error: Error) => {
      running.error = error.message;
      resolveDone({ jobId: null });
    });
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as DictationServerMessage;
      if (message.type === 'transcript.final') {
        if (message.text) finals.set(message.segment_id, message.text);
        running.lastFinalAt = performance.now();
      } else if (message.type === 'session.done') resolveDone({ jobId: message.job_id });
      else if (message.type === 'error') {
        this.options.log.info(`hotkey dictation: ${message.error.code}: ${message.error.message}`);
        if (['model_unavailable', 'upload_quota_exceeded', 'audio_too_long', 'too_many_sessions'].includes(message.error.code)) running.error = message.error.message;
      }
    });
    ws.on('close', () => resolveDone({ jobId: null }));
    running.mic.start(
      (pcm) => {
        running.bytes += pcm.length;
        if (ws.readyState === WebSocket.OPEN) ws.send(pcm);
        else if (ws.readyState === WebSocket.CONNECTING) pending.push(pcm);
      },
      (reason) => {
        if (reason) {
          running.error = `the microphone stopped: ${reason}`;
          this.options.log.info(`hotkey dictation: ${running.error}`);
        }
      },
    );
    this.running = running;
    this.options.show({ state: 'listening' });
  }

  /** The shortcut was released: the last finals are awaited, then the text is inserted where the focus is. */
  async stop(): Promise<DictationOutcome> {
    const releasedAt = performance.now();
    const running = this.running;
    if (!running) return { text: '', jobId: null, inserted: null, error: 'no dictation was running', releasedAt, lastFinalAt: null, insertedAt: null };
    this.running = null;
    running.mic.stop();
    this.options.show({ state: 'recognising' });
    await running.opened.catch(() => undefined);
    if (running.ws.readyState === WebSocket.OPEN) running.ws.send(JSON.stringify({ type: 'input_audio.end' }));
    let timer: NodeJS.Timeout | undefined;
    const { jobId } = await Promise.race([running.done, new Promise<{ jobId: null }>((resolve) => (timer = setTimeout(() => resolve({ jobId: null }), this.options.endTimeoutMs ?? 30_000)))]);
    clearTimeout(timer);
    running.ws.close();
    const text = [...running.finals.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t).join(' ').trim();
    const outcome: DictationOutcome = { text, jobId, inserted: null, error: null, releasedAt, lastFinalAt: running.lastFinalAt, insertedAt: null };
    if (!text) {
      outcome.error = running.error ?? 'nothing was heard: hold the shortcut while you speak';
      this.options.show({ state: 'error', message: outcome.error, jobId });
      return outcome;
    }
    try {
      outcome.inserted = await this.options.inserter.insert(text);
      outcome.insertedAt = performance.now();
      this.options.show({ state: 'inserted', text, how: outcome.inserted.how });
    } catch (error) {
      const why = error instanceof InsertionError ? error.message : `the text could not be inserted: ${(error as Error).message}`;
      outcome.error = `${why}; the text is kept in Jobs${jobId ? ` (${jobId})` : ''}`;
      this.options.show({ state: 'error', message: outcome.error, jobId });
    }
    return outcome;
  }
}

function messageOf(body: string): string | null {
  try {
    return (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? null;
  } catch {
    return null;
  }
}
