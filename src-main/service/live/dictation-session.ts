/**
 * One live dictation session (docs/engines-and-models.md, "Live speech to text"): PCM16 frames from the client are
 * written to the session's recording and streamed to the model's recognizer child; its partials and finals go back
 * to the client; when the input ends (`input_audio.end` or the socket closing) the last finals are awaited and the
 * session is recorded as a speech-to-text job, charged like a file of that length. Audio waiting for the recognizer
 * is bounded (`audio_overrun`, dictation-frame-admission.ts), a recognizer crash is reported and recognition goes on in a new process.
 */
import { ApiError } from '../../common/errors.js';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Job, TranscriptWord } from '../../common/api-types.js';
import {
  DICTATION_DEFAULT_SAMPLE_RATE,
  DICTATION_MAX_FRAME_BYTES,
  type DictationServerMessage,
  type DictationSessionInfo,
} from '../../common/dictation-protocol.js';
import { WavStreamWriter } from '../../engines/audio/wav-stream-writer.js';
import { buildTranscript, type RecognizedPiece } from '../../engines/asr/transcript.js';
import type { LiveUtterance } from '../../engines/live/live-recognition-types.js';
import type { RecognizerHandlers, RecognizerStream, RecognizerStreamOptions } from '../../engines/live/recognizer-pool.js';
import { RecognizerLink } from './recognizer-link.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { dictationJobName } from '../../jobs/engine/dictation-job.js';
import type { NewDictationJob } from '../../jobs/engine/job-service-types.js';
import { admitDictationFrame } from './dictation-frame-admission.js';
import { parseDictationMessage } from './dictation-messages.js';
import type { LiveOptions } from './live-options.js';
import { ensurePrivateDir } from '../../store/private-files.js';
import type { Log } from '../../common/log.js';

export interface DictationSessionInit {
  accountId: string;
  model: ModelDefinition;
  mode: DictationSessionInfo['mode'];
  options: LiveOptions;
  /** Folder the recording is written to (the account's uploads: it stays there as the job's recording). */
  recordingsDir: string;
  /**
   * The account's upload quota for the recording (uploads/upload-budget.ts openRecording): every frame counts in
   * the bytes the account may keep, and past them the session ends with `upload_quota_exceeded`.
   */
  openQuota?(): Promise<{ add(bytes: number): void; close(): void }>;
  /** Opens a recognition stream of the model (its child is warm already). */
  openRecognizer(options: RecognizerStreamOptions, handlers: RecognizerHandlers): Promise<RecognizerStream>;
  recordJob(input: NewDictationJob): Promise<Job>;
  /** Resolves once the recorded job is on disk (store/durability.ts): session.done acknowledges it. */
  durable?(): Promise<void>;
  log: Log;
}

export interface DictationSessionStats {
  id: string;
  receivedBytes: number;
  /** Bytes sent to the recognizer and not yet processed. */
  waitingBytes: number;
  finals: number;
  partials: number;
}

type Phase = 'open' | 'ending' | 'done';

const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url')}`;

/** Codes the model's params schema takes for `language` ('auto' included), or [] when it takes none. */
function languagesOf(model: ModelDefinition): string[] {
  const language = (model.paramsSchema.properties as Record<string, { enum?: unknown[] }> | undefined)?.language;
  return Array.isArray(language?.enum) ? language.enum.map(String) : [];
}

function wordTimings(model: ModelDefinition): boolean {
  const granularity = (model.paramsSchema.properties as Record<string, { enum?: unknown[] }> | undefined)?.timestamp_granularity;
  return Array.isArray(granularity?.enum) && granularity.enum.includes('word');
}

export class DictationSession {
  readonly id = newId('sess');
  private sampleRate = DICTATION_DEFAULT_SAMPLE_RATE;
  private language: string | null = null;
  private phase: Phase = 'open';
  private started = false;
  private recording: WavStreamWriter | null = null;
  /** The recognizer stream, kept across recognizer crashes (from the first frame). */
  private recognition: RecognizerLink | null = null;
  private receivedBytes = 0;
  /** When the first frame arrived (performance.now()): how fast the client sends is measured from it. */
  private firstFrameAt: number | undefined;
  /** Bytes of audio handed to the recognizer (or waiting for it to open) and not yet processed. */
  private waitingBytes = 0;
  private readonly finals = new Map<number, RecognizedPiece>();
  private partials = 0;
  private finished: Promise<void> | null = null;
  private readonly languages: string[];
  /** How long the end waits for the last finals (shorter when the service shuts down). */
  private endWaitMs: number;
  /** The recording's place in the account's upload quota, once opened (bytes before that are counted then). */
  private quota: { add(bytes: number): void; close(): void } | null = null;
  private quotaOpening: Promise<void> | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly init: DictationSessionInit,
  ) {
    this.languages = languagesOf(init.model);
    this.endWaitMs = init.options.dictationEndTimeoutMs;
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => void this.finish(null));
    ws.on('error', (error) => init.log.info(`dictation session ${this.id}: ${error.message}`));
    this.send({ type: 'session.created', session: this.info() });
  }

  stats(): DictationSessionStats {
    return { id: this.id, receivedBytes: this.receivedBytes, waitingBytes: this.waitingBytes, finals: this.finals.size, partials: this.partials };
  }

  /** Service shutdown: the session ends as if the input ended (its job is recorded), then the socket closes (1001). */
  close(): Promise<void> {
    this.endWaitMs = Math.min(this.endWaitMs, this.init.options.dictationShutdownWaitMs);
    return this.finish({ code: 1001, reason: 'service shutting down' });
  }

  /** The session's key was revoked: an `error` says why, what was dictated is recorded, the socket closes (1008). */
  revoke(message: string): Promise<void> {
    if (this.phase === 'done') return Promise.resolve();
    this.sendError('unauthorized', message);
    return this.finish({ code: 1008, reason: 'API key revoked' });
  }

  private info(): DictationSessionInfo {
    return { id: this.id, model: this.init.model.id, sample_rate: this.sampleRate, language: this.language, mode: this.init.mode };
  }

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.phase !== 'open') {
      this.sendError('session_ended', 'input_audio.end was received: this session takes no more messages');
      return;
    }
    if (isBinary) {
      this.onAudio(data as Buffer);
      return;
    }
    try {
      const msg = parseDictationMessage(data.toString(), this.languages);
      if (msg.type === 'input_audio.end') {
        void this.finish({ code: 1000, reason: 'session done' });
        return;
      }
      if (this.started) {
        throw new ApiError('invalid_params', 'sample_rate and language can only be set before the first audio frame');
      }
      if (msg.session.sample_rate !== undefined) this.sampleRate = msg.session.sample_rate;
      if (msg.session.language !== undefined) this.language = msg.session.language === 'auto' ? null : msg.session.language;
      this.send({ type: 'session.updated', session: this.info() });
    } catch (error) {
      if (error instanceof ApiError) this.sendError(error.code, error.message);
      else this.sendError('internal_error', 'the message could not be handled');
    }
  }

  private onAudio(frame: Buffer): void {
    if (frame.length > DICTATION_MAX_FRAME_BYTES) {
      this.sendError('frame_too_large', `an audio frame may hold at most ${DICTATION_MAX_FRAME_BYTES} bytes (got ${frame.length}); it was not used`);
      return;
    }
    if (frame.length % 2 !== 0) {
      this.sendError('invalid_audio_frame', `an audio frame holds whole 16-bit samples (an even number of bytes; got ${frame.length}); it was not used`);
      return;
    }
    if (frame.length === 0) return;
    const bytesPerSecond = this.sampleRate * 2;
    const { dictationMaxBufferedSeconds, dictationMaxLagSeconds, dictationMaxSessionSeconds } = this.init.options;
    const now = performance.now();
    this.firstFrameAt ??= now;
    const admission = admitDictationFrame({
      waitingBytes: this.waitingBytes,
      receivedBytes: this.receivedBytes,
      frameBytes: frame.length,
      bytesPerSecond,
      elapsedMs: now - this.firstFrameAt,
      maxBufferedSeconds: dictationMaxBufferedSeconds,
      maxLagSeconds: dictationMaxLagSeconds,
    });
    if (!admission.use) {
      this.sendError(
        'audio_overrun',
        admission.why === 'faster_than_real_time'
          ? `more than ${dictationMaxBufferedSeconds} s of audio are waiting to be recognised: send audio no faster than real time; this frame was not used`
          : `the recognizer is more than ${dictationMaxLagSeconds} s behind (the computer is too busy for this model); this frame was not used`,
      );
      return;
    }
    if ((this.receivedBytes + frame.length) / bytesPerSecond > dictationMaxSessionSeconds) {
      this.sendError('audio_too_long', `a dictation session holds at most ${dictationMaxSessionSeconds} s of audio; the session ends here`);
      void this.finish({ code: 1000, reason: 'session done' });
      return;
    }
    if (!this.started) this.start();
    if (!this.countInQuota(frame.length)) return;
    this.receivedBytes += frame.length;
    this.waitingBytes += frame.length;
    this.recording?.write(frame);
    this.recognition?.write(frame);
  }

  /** The first frame fixes the session's settings: the recording starts and the recognizer stream opens. */
  private start(): void {
    this.started = true;
    ensurePrivateDir(this.init.recordingsDir);
    this.recording = new WavStreamWriter(join(this.init.recordingsDir, `${this.id}${RECORDING_IN_PROGRESS}`), this.sampleRate);
    this.recognition = this.recognize();
    if (this.init.openQuota) this.quotaOpening = this.openQuotaTicket(this.init.openQuota);
  }

  private async openQuotaTicket(open: () => Promise<{ add(bytes: number): void; close(): void }>): Promise<void> {
    try {
      const ticket = await open();
      if (this.phase === 'done') return ticket.close();
      this.quota = ticket;
      this.countInQuota(0, this.receivedBytes);
    } catch (error) {
      this.init.log.info(`dictation session ${this.id}: the upload quota could not be read: ${(error as Error).message}`);
    }
  }

  /** Counts a frame in the account's quota; past it, the session ends (what was said is kept) and false is answered. */
  private countInQuota(frameBytes: number, alreadyReceived = 0): boolean {
    if (!this.quota) return true;
    try {
      this.quota.add(frameBytes + alreadyReceived);
      return true;
    } catch (error) {
      this.sendError('upload_quota_exceeded', `${(error as Error).message}; the dictation ends here and what was said so far is kept`);
      void this.finish({ code: 1000, reason: 'session done' });
      return false;
    }
  }

  /** The recognizer link of the session, started; settings are fixed by now (the first frame has come). */
  private recognize(): RecognizerLink {
    const link = new RecognizerLink({
      open: (at, handlers) => this.init.openRecognizer({ account: this.init.accountId, sampleRate: this.sampleRate, language: this.language, ...at }, handlers),
      bytesPerSecond: this.sampleRate * 2,
      goesOn: () => this.phase === 'open',
      over: () => this.phase === 'done',
      partial: (segmentId, text) => {
        if (this.phase === 'done') return;
        this.partials++;
        this.send({ type: 'transcript.partial', segment_id: segmentId, text });
      },
      final: (segmentId, utterance) => this.onFinal(segmentId, utterance),
      processed: (bytes) => (this.waitingBytes = Math.max(0, this.waitingBytes - bytes)),
      error: (code, message) => this.sendError(code, message),
      crashed: (message, goesOn) => {
        this.waitingBytes = 0;
        this.sendError('engine_crashed', `${message}; what was said since the last final may be missing${goesOn ? ', recognition goes on' : ''}`);
      },
      failed: (error) => {
        this.sendError('model_unavailable', `recognition could not go on: ${error.message}`);
        this.waitingBytes = 0;
        void this.finish({ code: 1011, reason: 'recognizer unavailable' });
      },
    });
    link.start();
    return link;
  }

  private onFinal(segmentId: number, utterance: LiveUtterance): void {
    const words: TranscriptWord[] | undefined = utterance.words;
    if (utterance.text !== '') this.finals.set(segmentId, { start: utterance.start, end: utterance.end, text: utterance.text, ...(words ? { words } : {}) });
    if (this.phase === 'done') return;
    this.send({
      type: 'transcript.final',
      segment_id: segmentId,
      text: utterance.text,
      start: round3(utterance.start),
      end: round3(utterance.end),
      ...(words ? { words: words.map((w) => ({ word: w.word, start: round3(w.start), end: round3(w.end) })) } : {}),
    });
  }

  /**
   * Ends the session once: the recognizer finishes what it has (bounded by dictationEndTimeoutMs), the job is
   * recorded, `session.done` is sent and the socket closed with `close` (null: it is closed already).
   */
  private finish(close: { code: number; reason: string } | null): Promise<void> {
    this.finished ??= this.runFinish(close);
    return this.finished;
  }

  private async runFinish(close: { code: number; reason: string } | null): Promise<void> {
    this.phase = 'ending';
    await this.quotaOpening;
    await this.recognition?.end(this.endWaitMs);
    let job: Job | null = null;
    const duration = this.receivedBytes / 2 / this.sampleRate;
    try {
      job = await this.recordJob(duration);
    } catch (error) {
      this.init.log.info(`dictation session ${this.id}: the job could not be recorded: ${(error as Error).stack ?? String(error)}`);
      this.sendError('internal_error', 'the dictation could not be saved as a job');
    }
    if (job) await this.init.durable?.().catch((error: unknown) => this.init.log.info(`dictation session ${this.id}: ${(error as Error).message}`));
    this.send({ type: 'session.done', job_id: job?.id ?? null, duration_seconds: round3(duration) });
    this.phase = 'done';
    this.quota?.close();
    if (close && this.ws.readyState === WebSocket.OPEN) this.ws.close(close.code, close.reason);
  }

  private async recordJob(duration: number): Promise<Job | null> {
    const recording = this.recording;
    this.recording = null;
    if (!recording || this.receivedBytes === 0) {
      recording?.abort();
      if (recording) rmSync(recording.path, { force: true });
      return null;
    }
    try {
      await recording.finish();
    } catch (error) {
      rmSync(recording.path, { force: true });
      throw error;
    }
    const pieces = [...this.finals.entries()].sort((a, b) => a[0] - b[0]).map(([, piece]) => piece);
    const granularity = wordTimings(this.init.model) ? 'word' : 'segment';
    const language = this.language ?? (this.init.model.languages.length === 1 ? this.init.model.languages[0]! : null);
    const result = buildTranscript(pieces, { duration, language, responseFormat: 'verbose_json', granularity });
    try {
      return await this.init.recordJob({
        accountId: this.init.accountId,
        modelId: this.init.model.id,
        name: dictationJobName(new Date()),
        language,
        params: { response_format: 'verbose_json', timestamp_granularity: granularity, ...(this.language && this.languages.length ? { language: this.language } : {}) },
        result,
        durationSeconds: duration,
        recording: { path: recording.path, sampleRate: this.sampleRate },
      });
    } catch (error) {
      rmSync(recording.path, { force: true });
      throw error;
    }
  }

  private send(message: DictationServerMessage): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private sendError(code: string, message: string): void {
    this.send({ type: 'error', error: { code, message } });
  }
}

/** The ending of a recording still being written; one left by a crash is deleted (dictation-route.ts). */
export const RECORDING_IN_PROGRESS = '.recording.wav';

function round3(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
