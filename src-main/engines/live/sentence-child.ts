/**
 * What the live voice child processes share (neural-voice-child.ts, cloned-voice-child.ts): the reply messages, and
 * the loop that loads the voice once and then speaks sentences one at a time in arrival order, each streamed back as
 * 16-bit chunks and ended by `done` (or `error`), a cancelled one ended at once. The children differ only in how they
 * load and speak.
 */
import { floatToInt16 } from '../audio/pcm.js';
import { parentLink } from '../worker/parent-link.js';
import { jobFailureOf, type JobErrorCode } from '../../common/errors.js';

export type ChildReply =
  | { type: 'ready'; sampleRate: number; numSpeakers: number }
  | { type: 'load-failed'; message: string }
  | { type: 'chunk'; id: number; samples: Int16Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; code: JobErrorCode; message: string };

/** The messages every child takes: `load` and `speak` of its own shape, and `cancel`. */
type SentenceRequest<Load, Speak> = ({ type: 'load' } & Load) | ({ type: 'speak'; id: number } & Speak) | { type: 'cancel'; id: number };

export interface SentenceVoice<Load, Speak> {
  /** Loads the voice; resolves with what `ready` reports. */
  load(request: Load): Promise<{ sampleRate: number; numSpeakers: number }>;
  /** Speaks one sentence, handing its samples to `emit` (which drops them once the sentence is cancelled). */
  speak(request: Speak & { id: number }, emit: (samples: Float32Array) => void, cancelled: () => boolean): Promise<void>;
}

/** Serves the parent's messages with `voice` until the parent is gone. */
export function serveSentences<Load, Speak>(voice: SentenceVoice<Load, Speak>): void {
  const parent = parentLink();
  const send = (reply: ChildReply): void => parent.send(reply);
  type Speaking = Speak & { id: number };
  const queue: Speaking[] = [];
  const cancelled = new Set<number>();
  let ready = false;
  let busy = false;

  async function drain(): Promise<void> {
    if (busy || !ready) return;
    busy = true;
    while (queue.length > 0) {
      const request = queue.shift()!;
      try {
        if (!cancelled.has(request.id)) {
          await voice.speak(
            request,
            (samples) => {
              if (!cancelled.has(request.id) && samples.length > 0) send({ type: 'chunk', id: request.id, samples: floatToInt16(samples) });
            },
            () => cancelled.has(request.id),
          );
        }
        cancelled.delete(request.id);
        send({ type: 'done', id: request.id });
      } catch (error) {
        cancelled.delete(request.id);
        send({ type: 'error', id: request.id, ...jobFailureOf(error) });
      }
    }
    busy = false;
  }

  parent.onMessage((raw) => {
    const request = raw as SentenceRequest<Load, Speak>;
    switch (request.type) {
      case 'load':
        Promise.resolve()
          .then(() => voice.load(request as Load))
          .then(
            (info) => {
              ready = true;
              send({ type: 'ready', ...info });
              void drain();
            },
            (error: Error) => send({ type: 'load-failed', message: error.message }),
          );
        break;
      case 'speak':
        queue.push(request as Speaking);
        void drain();
        break;
      case 'cancel':
        cancelled.add(request.id);
        break;
    }
  });
  parent.onParentGone(() => process.exit(0));
}
