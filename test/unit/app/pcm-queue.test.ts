/** The player's PCM queue (app/player/pcm-queue.ts) and the process's PortAudio gate (app/player/portaudio-gate.ts). */
import { describe, expect, it } from 'vitest';
import { PcmQueue } from '../../../src-main/app/player/pcm-queue.js';
import { portAudio } from '../../../src-main/app/player/portaudio-gate.js';

const bytes = (...values: number[]): Buffer => Buffer.from(values);

describe('PcmQueue', () => {
  it('gives back what was pushed, in order, in any amounts, from copies', () => {
    const q = new PcmQueue();
    const first = bytes(1, 2, 3, 4);
    q.push(first);
    first.fill(9); // the writer reuses its buffer
    q.push(bytes(5, 6));
    expect(q.bytes).toBe(6);
    expect([...q.take(3)]).toEqual([1, 2, 3]);
    expect([...q.take(3)]).toEqual([4, 5, 6]);
    expect(q.empty).toBe(true);
    expect(q.bytes).toBe(0);
  });

  it('asks the writer to wait past the high-water mark and says once when it may go on', () => {
    const q = new PcmQueue();
    q.push(Buffer.alloc(6));
    expect(q.admit(8)).toBe(true);
    expect(q.drained(8)).toBe(false); // nobody waits
    q.push(Buffer.alloc(4));
    expect(q.drained(8)).toBe(false); // over the mark, but nobody was told to wait yet: no 'drain' for nobody
    q.take(4);
    expect(q.admit(8)).toBe(true); // the player took its share before write() answered: no wait at all
    q.push(Buffer.alloc(4));
    expect(q.admit(8)).toBe(false);
    expect(q.drained(8)).toBe(false); // still full
    q.take(4);
    expect(q.drained(8)).toBe(true);
    expect(q.drained(8)).toBe(false);
  });

  it('knows the input ended, with its tail of silence, and clears on stop', () => {
    const q = new PcmQueue();
    q.push(bytes(1, 2));
    expect(q.ended).toBe(false);
    q.end(Buffer.alloc(4));
    expect(q.ended).toBe(true);
    expect(q.bytes).toBe(6);
    q.clear();
    expect(q.empty).toBe(true);
    expect(q.ended).toBe(true);
  });
});

describe('the PortAudio gate', () => {
  it('holds opens while a close is in flight and lets them through once every close settled', async () => {
    const opened: string[] = [];
    portAudio.whenIdle(() => opened.push('now'));
    expect(opened).toEqual(['now']);
    const first = portAudio.closeStarted();
    const second = portAudio.closeStarted();
    portAudio.whenIdle(() => opened.push('later'));
    const idle = portAudio.idle().then(() => opened.push('listed'));
    first();
    first(); // settling twice is harmless
    expect(opened).toEqual(['now']);
    second();
    await idle;
    expect(opened).toEqual(['now', 'later', 'listed']);
  });
});
