import { describe, expect, it } from 'vitest';
import type { RecognizerHandlers, RecognizerStream, RecognizerStreamOptions } from '../../../../src-main/engines/live/recognizer-pool.js';
import type { LiveRecognizer } from '../../../../src-main/service/live/dictation-route.js';
import { sideRecognition, type SideRecognitionDeps } from '../../../../src-main/service/capture/side-recognition.js';
import type { RecognizerLink } from '../../../../src-main/service/live/recognizer-link.js';
import type { ModelDefinition } from '../../../../src-main/engines/model-definition.js';

/** A recognizer whose streams the test drives: each open is recorded with its options, its handlers and what it was given. */
function scriptedRecognizer(opens: ('ok' | 'fail')[]) {
  const streams: { options: RecognizerStreamOptions; handlers: RecognizerHandlers; written: number[]; ended: boolean; closed: boolean }[] = [];
  const recognizer: LiveRecognizer = {
    model: { id: 'm' } as ModelDefinition,
    mode: 'vad',
    open: async (options, handlers) => {
      if (opens.shift() === 'fail') throw new Error('the model could not be loaded');
      const entry = { options, handlers, written: [] as number[], ended: false, closed: false };
      streams.push(entry);
      const stream: RecognizerStream = {
        write: (pcm) => void entry.written.push(pcm.length),
        end: () => {
          entry.ended = true;
          handlers.ended();
        },
        close: () => void (entry.closed = true),
      };
      return stream;
    },
  };
  return { recognizer, streams };
}

function side(recognizer: LiveRecognizer, events: string[], recording = true): RecognizerLink {
  const deps: SideRecognitionDeps = {
    side: 'system',
    recognizer,
    accountId: 'acct',
    language: null,
    recording: () => recording,
    over: () => false,
    partial: (id, text) => events.push(`partial ${id} ${text}`),
    final: (id, u) => events.push(`final ${id} ${u.text}`),
    error: (code, message) => events.push(`${code}: ${message}`),
  };
  return sideRecognition(deps);
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const second = Buffer.alloc(32_000); // 1 s of PCM16 at 16 kHz

describe('one side of a capture, recognised live', () => {
  it('holds the audio while its stream opens, then gives it in order', async () => {
    const { recognizer, streams } = scriptedRecognizer(['ok']);
    const recognition = side(recognizer, []);
    recognition.write(second);
    recognition.write(Buffer.alloc(100));
    await tick();
    expect(streams[0]!.written).toEqual([32_000, 100]);
    recognition.write(Buffer.alloc(10));
    expect(streams[0]!.written).toEqual([32_000, 100, 10]);
  });

  it('after a recognizer crash, reopens where the side has reached and numbers its utterances on', async () => {
    const { recognizer, streams } = scriptedRecognizer(['ok', 'ok']);
    const events: string[] = [];
    const recognition = side(recognizer, events);
    await tick();
    recognition.write(second);
    recognition.write(second);
    streams[0]!.handlers.final(4, { start: 0.2, end: 1.5, text: 'hello there', decodeMs: 5 });
    streams[0]!.handlers.crashed('the recognizer process was killed by signal SIGKILL');
    recognition.write(second); // while the new stream opens: held
    await tick();
    expect(streams[1]!.options).toMatchObject({ offsetSeconds: 2, firstSegmentId: 5, account: 'acct' });
    expect(streams[1]!.written).toEqual([32_000]);
    // The dead stream's late words are not the session's any more.
    streams[0]!.handlers.final(5, { start: 2, end: 3, text: 'late', decodeMs: 1 });
    expect(events).toEqual(['final 4 hello there', 'engine_crashed: the recognizer process was killed by signal SIGKILL; words of the system side since its last final may be missing, recognition goes on']);
  });

  it('a side whose recognition cannot start is only recorded: one error, and nothing held for it after', async () => {
    const { recognizer, streams } = scriptedRecognizer(['fail']);
    const events: string[] = [];
    const recognition = side(recognizer, events);
    await tick();
    for (let i = 0; i < 100; i++) recognition.write(second);
    expect(events).toEqual(['model_unavailable: recognition of the system side stopped: the model could not be loaded; the recording goes on']);
    expect(streams).toHaveLength(0);
    expect((recognition as unknown as { backlog: Uint8Array[] }).backlog).toHaveLength(0);
    await recognition.end(1000);
  });

  it('ends: the last finals first, then the stream is closed', async () => {
    const { recognizer, streams } = scriptedRecognizer(['ok']);
    const recognition = side(recognizer, []);
    await recognition.end(1000);
    expect(streams[0]).toMatchObject({ ended: true, closed: true });
  });
});
