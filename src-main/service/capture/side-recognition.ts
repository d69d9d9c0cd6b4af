/**
 * One side of a meeting capture, recognised live: a stream of the model's warm recognizer (the dictation recognizer
 * pool), opened when the capture starts and opened again after the recognizer crashes — from the point the side's
 * audio has reached, numbering its utterances on — with the side's audio held while a stream opens. Its partials,
 * finals and errors go to the capture session (capture-session.ts), which labels, journals and sends them.
 * A side whose recognition cannot start (the model cannot be loaded) is only recorded: nothing is held for it after.
 */
import type { CaptureSide } from '../../common/capture-protocol.js';
import { CAPTURE_SAMPLE_RATE } from '../../engines/capture/capture-types.js';
import type { LiveUtterance } from '../../engines/live/live-recognition-types.js';
import type { RecognizerHandlers, RecognizerStream } from '../../engines/live/recognizer-pool.js';
import type { LiveRecognizer } from '../live/dictation-route.js';

const BYTES_PER_SECOND = CAPTURE_SAMPLE_RATE * 2;

export interface SideRecognitionDeps {
  side: CaptureSide;
  recognizer: LiveRecognizer;
  accountId: string;
  language: string | null;
  /** Whether the capture still records (a crash then reopens the stream) and whether it is over (an open is closed). */
  recording(): boolean;
  over(): boolean;
  partial(segmentId: number, text: string): void;
  final(segmentId: number, utterance: LiveUtterance): void;
  error(code: string, message: string): void;
}

export class SideRecognition {
  private stream: RecognizerStream | null = null;
  private opening: Promise<void>;
  private backlog: Buffer[] = [];
  /** Recognition could not start: the side's audio is no longer held. */
  private givenUp = false;
  /** Bytes of this side's audio so far (where a reopened stream starts). */
  private bytes = 0;
  private nextSegmentId = 0;
  private endResolve: (() => void) | null = null;

  constructor(private readonly deps: SideRecognitionDeps) {
    this.opening = this.open();
  }

  /** The side's next aligned audio (PCM16 mono at the capture rate). */
  write(pcm: Buffer): void {
    this.bytes += pcm.length;
    if (this.stream) this.stream.write(pcm);
    else if (!this.givenUp) this.backlog.push(pcm);
  }

  /** The input ended: waits for the last finals (at most `timeoutMs`), then closes the stream. */
  async end(timeoutMs: number): Promise<void> {
    await this.opening;
    const stream = this.stream;
    if (!stream) return;
    const ended = new Promise<void>((resolve) => (this.endResolve = resolve));
    stream.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    stream.close();
    this.stream = null;
  }

  private async open(): Promise<void> {
    const { deps } = this;
    try {
      const stream = await deps.recognizer.open(
        { account: deps.accountId, sampleRate: CAPTURE_SAMPLE_RATE, language: deps.language, offsetSeconds: this.bytes / BYTES_PER_SECOND, firstSegmentId: this.nextSegmentId },
        this.handlers(),
      );
      if (deps.over()) return stream.close();
      this.stream = stream;
      for (const pcm of this.backlog.splice(0)) stream.write(pcm);
    } catch (error) {
      this.backlog = [];
      this.givenUp = true;
      deps.error('model_unavailable', `recognition of the ${deps.side} side stopped: ${(error as Error).message}; the recording goes on`);
    }
  }

  private handlers(): RecognizerHandlers {
    const { deps } = this;
    let live = true;
    return {
      partial: (segmentId, text) => live && deps.partial(segmentId, text),
      final: (segmentId, utterance) => {
        if (!live) return;
        this.nextSegmentId = Math.max(this.nextSegmentId, segmentId + 1);
        deps.final(segmentId, utterance);
      },
      processed: () => {},
      error: (code, message) => live && deps.error(code, `${deps.side} side: ${message}`),
      ended: () => {
        live = false;
        this.endResolve?.();
      },
      crashed: (message) => {
        if (!live) return;
        live = false;
        this.stream = null;
        const recording = deps.recording();
        deps.error('engine_crashed', `${message}; words of the ${deps.side} side since its last final may be missing${recording ? ', recognition goes on' : ''}`);
        if (recording) this.opening = this.open();
        else this.endResolve?.();
      },
    };
  }
}
