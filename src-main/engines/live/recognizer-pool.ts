/**
 * One recognizer child process per live speech-to-text model, shared by the dictation sessions that use it (the
 * model loads once and stays warm; each session is a stream of the child), started by a ProcessLauncher
 * (child_process.fork by default; Electron's utilityProcess in the app). Inference never runs in the service's
 * thread: a native crash ends only the child, its streams are told (`crashed`) and the next open starts a new one.
 * A child with no stream for `idleMs` is stopped to give its memory back.
 */
import { ApiError, type JobErrorCode } from '../../common/errors.js';
import { scriptEntry } from '../../platform/script-entry.js';
import { forkLauncher, type LaunchedChild, type ProcessLauncher } from '../worker/process-launcher.js';
import type { LiveModelConfig, LiveUtterance } from './live-recognition-types.js';
import type { RecognizerReply, RecognizerRequest } from './recognizer-protocol.js';
import type { Log } from '../../common/log.js';

/** How long a model may take to load before the session is refused. Default 120 s (a large Whisper on a slow disk). */
export const RECOGNIZER_LOAD_TIMEOUT_MS = 120_000;
/** A child with no open stream for this long is stopped. Default 5 min. */
export const RECOGNIZER_IDLE_MS = 5 * 60_000;

export interface RecognizerHandlers {
  partial(segmentId: number, text: string): void;
  final(segmentId: number, utterance: LiveUtterance): void;
  /** Bytes of PCM the child has consumed (recognised or dropped). */
  processed(bytes: number): void;
  /** A recoverable failure of this stream (the audio of one message could not be recognised). */
  error(code: JobErrorCode, message: string): void;
  /** After end(): every final has been delivered. */
  ended(): void;
  /** The child died (or failed); the stream is gone. Reopen to go on. */
  crashed(message: string): void;
}

export interface RecognizerStreamOptions {
  /** The account the stream is for: a recognizer shared by accounts takes turns between them. */
  account: string;
  sampleRate: number;
  language: string | null;
  offsetSeconds: number;
  firstSegmentId: number;
}

export interface RecognizerStream {
  write(pcm: Uint8Array): void;
  /** Recognise what is left; `ended` follows. */
  end(): void;
  /** Drop the stream at once. */
  close(): void;
}

interface Child {
  process: LaunchedChild;
  ended: Promise<void>;
  ready: Promise<void>;
  streams: Map<number, RecognizerHandlers>;
  idleTimer: NodeJS.Timeout | null;
}

export class RecognizerPool {
  private readonly children = new Map<string, Child>();
  private nextStream = 1;

  constructor(
    private readonly log: Log,
    private readonly launcher: ProcessLauncher = forkLauncher,
    private readonly idleMs = RECOGNIZER_IDLE_MS,
  ) {}

  /** Starts the model's child and waits until its model is loaded; rejects with model_unavailable. */
  async warm(key: string, model: LiveModelConfig): Promise<void> {
    this.idleCheck(key, await this.readyChild(key, model));
  }

  /** Opens a stream on the model's child (starting and loading it first); rejects with model_unavailable. */
  async open(key: string, model: LiveModelConfig, options: RecognizerStreamOptions, handlers: RecognizerHandlers): Promise<RecognizerStream> {
    const child = await this.readyChild(key, model);
    if (child.idleTimer) clearTimeout(child.idleTimer);
    child.idleTimer = null;
    const id = this.nextStream++;
    child.streams.set(id, handlers);
    this.send(child, { type: 'open', stream: id, ...options });
    let open = true;
    const release = (): void => {
      open = false;
      child.streams.delete(id);
      this.idleCheck(key, child);
    };
    return {
      write: (pcm) => {
        if (open) this.send(child, { type: 'audio', stream: id, pcm });
      },
      end: () => {
        if (open) this.send(child, { type: 'end', stream: id });
      },
      close: () => {
        if (!open) return;
        this.send(child, { type: 'close', stream: id });
        release();
      },
    };
  }

  private async readyChild(key: string, model: LiveModelConfig): Promise<Child> {
    const child = this.childFor(key, model);
    try {
      await child.ready;
    } catch (error) {
      throw new ApiError('model_unavailable', `the model could not be loaded for live recognition: ${(error as Error).message}`);
    }
    return child;
  }

  /** Models with a running child (for diagnostics and tests). */
  running(): { key: string; pid: number | undefined; streams: number }[] {
    return [...this.children].map(([key, c]) => ({ key, pid: c.process.pid, streams: c.streams.size }));
  }

  async close(): Promise<void> {
    const exits = [...this.children.values()].map((child) => {
      if (child.idleTimer) clearTimeout(child.idleTimer);
      child.process.kill();
      return child.ended;
    });
    this.children.clear();
    await Promise.all(exits);
  }

  private send(child: Child, request: RecognizerRequest): void {
    child.process.send(request);
  }

  private idleCheck(key: string, child: Child): void {
    if (child.streams.size > 0 || child.idleTimer || this.children.get(key) !== child) return;
    child.idleTimer = setTimeout(() => {
      child.idleTimer = null;
      if (child.streams.size > 0 || this.children.get(key) !== child) return;
      this.children.delete(key);
      child.process.kill();
    }, this.idleMs);
    child.idleTimer.unref();
  }

  private childFor(key: string, model: LiveModelConfig): Child {
    const existing = this.children.get(key);
    if (existing) return existing;
    const entry = scriptEntry('recognizer-child', import.meta.url);
    const streams = new Map<number, RecognizerHandlers>();
    let readyResolve!: () => void;
    let readyReject!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    ready.catch(() => {});
    const timer = setTimeout(() => {
      readyReject(new Error('loading timed out'));
      proc.kill();
    }, RECOGNIZER_LOAD_TIMEOUT_MS);
    let endedResolve!: () => void;
    const ended = new Promise<void>((resolve) => (endedResolve = resolve));
    const gone = (how: string): void => {
      clearTimeout(timer);
      if (child.idleTimer) clearTimeout(child.idleTimer);
      readyReject(new Error(`the recognizer process ${how}`));
      if (this.children.get(key) === child) this.children.delete(key);
      const affected = [...streams.values()];
      streams.clear();
      for (const handlers of affected) handlers.crashed(`the recognizer process ${how}`);
    };
    const onMessage = (reply: RecognizerReply): void => {
      switch (reply.type) {
        case 'ready':
          clearTimeout(timer);
          readyResolve();
          break;
        case 'load-failed':
          clearTimeout(timer);
          readyReject(new Error(reply.message));
          if (this.children.get(key) === child) this.children.delete(key);
          proc.kill();
          break;
        case 'fatal':
          this.log.info(`live recognizer ${key}: ${reply.message}`);
          proc.kill();
          break;
        case 'partial':
          streams.get(reply.stream)?.partial(reply.segmentId, reply.text);
          break;
        case 'final':
          streams.get(reply.stream)?.final(reply.segmentId, reply.utterance);
          break;
        case 'processed':
          streams.get(reply.stream)?.processed(reply.bytes);
          break;
        case 'error':
          streams.get(reply.stream)?.error(reply.code, reply.message);
          break;
        case 'ended': {
          const handlers = streams.get(reply.stream);
          streams.delete(reply.stream);
          this.idleCheck(key, child);
          handlers?.ended();
          break;
        }
      }
    };
    const proc = this.launcher(
      {
        modulePath: entry.path,
        execArgv: entry.execArgv,
        output: { text: (chunk) => this.log.info(`[live recognizer ${key}] ${chunk.trimEnd()}`) },
        name: `voxdesk live recognizer ${key}`,
      },
      {
        message: (reply) => onMessage(reply as RecognizerReply),
        ended: (how) => {
          gone(how);
          endedResolve();
        },
      },
    );
    const child: Child = { process: proc, ended, ready, streams, idleTimer: null };
    this.children.set(key, child);
    this.send(child, { type: 'load', model });
    return child;
  }
}
