/**
 * A live input's link to the model's warm recognizer (the recognizer pool): one stream, opened when the input starts
 * and opened again after the recognizer crashes — from the point the input's audio has reached, numbering its
 * utterances on — with the input's audio held while a stream opens. A dictation session and each side of a meeting
 * capture are one link each; what they tell the person about a crash or a failed start is theirs (the deps), how the
 * stream is kept is this file's alone (test/unit/service/capture/side-recognition.test.ts drives it through a side;
 * test/integration/service/live/dictation.test.ts through a session with a real recognizer killed).
 */
import type { LiveUtterance } from '../../engines/live/live-recognition-types.js';
import type { RecognizerHandlers, RecognizerStream } from '../../engines/live/recognizer-pool.js';

export interface RecognizerLinkDeps {
  /** Opens a stream of the model's warm recognizer whose times start at `offsetSeconds`. */
  open(at: { offsetSeconds: number; firstSegmentId: number }, handlers: RecognizerHandlers): Promise<RecognizerStream>;
  /** Bytes of PCM16 per second of the input (where a reopened stream starts). */
  bytesPerSecond: number;
  /** Whether the input still goes on: a crash then reopens the stream. */
  goesOn(): boolean;
  /** Whether the input is over: a stream that opens now is closed at once. */
  over(): boolean;
  partial(segmentId: number, text: string): void;
  final(segmentId: number, utterance: LiveUtterance): void;
  /** The recognizer has worked through `bytes` more of the input. */
  processed?(bytes: number): void;
  error(code: string, message: string): void;
  /** The recognizer crashed (`goesOn`: a new stream is opening); words since the last final may be missing. */
  crashed(message: string, goesOn: boolean): void;
  /** No stream could be opened: the audio held is dropped, and none is held from now on. */
  failed(error: Error): void;
}

export class RecognizerLink {
  private stream: RecognizerStream | null = null;
  private opening: Promise<void> = Promise.resolve();
  private backlog: Uint8Array[] = [];
  /** No stream could be opened: the input's audio is no longer held. */
  private givenUp = false;
  /** Bytes of the input so far (where a reopened stream starts). */
  private bytes = 0;
  private nextSegmentId = 0;
  private endResolve: (() => void) | null = null;

  constructor(private readonly deps: RecognizerLinkDeps) {}

  /** Opens the first stream; the audio written meanwhile is held. */
  start(): void {
    this.opening = this.open();
  }

  /** The input's next audio (PCM16 mono). */
  write(pcm: Uint8Array): void {
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
    // The recognizer may have crashed meanwhile (the handlers then dropped this.stream): closing is safe either way.
    stream.close();
    this.stream = null;
  }

  private async open(): Promise<void> {
    const { deps } = this;
    try {
      const stream = await deps.open({ offsetSeconds: this.bytes / deps.bytesPerSecond, firstSegmentId: this.nextSegmentId }, this.handlers());
      if (deps.over()) return stream.close();
      this.stream = stream;
      for (const pcm of this.backlog.splice(0)) stream.write(pcm);
    } catch (error) {
      this.backlog = [];
      this.givenUp = true;
      deps.failed(error as Error);
    }
  }

  /** Handlers of one stream: once it has ended or crashed, its late messages are not the input's any more. */
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
      processed: (bytes) => live && deps.processed?.(bytes),
      error: (code, message) => live && deps.error(code, message),
      ended: () => {
        live = false;
        this.endResolve?.();
      },
      crashed: (message) => {
        if (!live) return;
        live = false;
        this.stream = null;
        const goesOn = deps.goesOn();
        deps.crashed(message, goesOn);
        if (goesOn) this.opening = this.open();
        else this.endResolve?.();
      },
    };
  }
}
