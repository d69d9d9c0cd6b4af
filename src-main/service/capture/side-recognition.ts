/**
 * One side of a meeting capture, recognised live: a recognizer link (service/live/recognizer-link.ts) opened when the
 * capture starts, whose partials, finals and errors go to the capture session (capture-session.ts), which labels,
 * journals and sends them. What a person is told names the side. A side whose recognition cannot start (the model
 * cannot be loaded) is only recorded: nothing is held for it after, and the other side goes on.
 */
import type { CaptureSide } from '../../common/capture-protocol.js';
import { CAPTURE_SAMPLE_RATE } from '../../engines/capture/capture-types.js';
import type { LiveUtterance } from '../../engines/live/live-recognition-types.js';
import type { LiveRecognizer } from '../live/dictation-route.js';
import { RecognizerLink } from '../live/recognizer-link.js';

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

/** The side's link, started: write the side's aligned audio (PCM16 mono at the capture rate), end it with the capture. */
export function sideRecognition(deps: SideRecognitionDeps): RecognizerLink {
  const { side } = deps;
  const link = new RecognizerLink({
    open: (at, handlers) => deps.recognizer.open({ account: deps.accountId, sampleRate: CAPTURE_SAMPLE_RATE, language: deps.language, ...at }, handlers),
    bytesPerSecond: CAPTURE_SAMPLE_RATE * 2,
    goesOn: deps.recording,
    over: deps.over,
    partial: deps.partial,
    final: deps.final,
    error: (code, message) => deps.error(code, `${side} side: ${message}`),
    crashed: (message, goesOn) =>
      deps.error('engine_crashed', `${message}; words of the ${side} side since its last final may be missing${goesOn ? ', recognition goes on' : ''}`),
    failed: (error) => deps.error('model_unavailable', `recognition of the ${side} side stopped: ${error.message}; the recording goes on`),
  });
  link.start();
  return link;
}
