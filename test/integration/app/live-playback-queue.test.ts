/**
 * LivePlayback's queue against a real live WebSocket service, with the sound device replaced by a recording player
 * whose "played out" moment the test decides (the device is the boundary: the PulseAudio tests cover the real one).
 * eSpeak synthesizes far faster than real time, so the service has sent a whole utterance long before it is heard:
 * `done` must wait for the sound, and speeches must never overlap.
 */
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LivePlayback } from '../../../src-main/app/player/live-playback.js';
import type { Player, PlayerOptions } from '../../../src-main/app/player/player-types.js';
import type { LiveBridgeEvent } from '../../../src-main/common/desktop-bridge.js';
import { GOOD_KEY, startLive, type Harness } from '../../helpers/live-harness.js';
import { until } from '../../helpers/wait.js';
import { scaled } from '../../helpers/time-scale.js';

class RecordingPlayer extends EventEmitter implements Player {
  readonly sampleRate: number;
  samples = 0;
  ended = false;
  stopped = false;
  constructor(readonly options: PlayerOptions) {
    super();
    this.sampleRate = options.sampleRate;
  }
  write(pcm: Int16Array | Buffer): boolean {
    if (this.stopped) throw new Error('write after stop');
    this.samples += pcm.length / (pcm instanceof Int16Array ? 1 : 2);
    return true;
  }
  end(): void {
    this.ended = true;
  }
  stop(): void {
    this.stopped = true;
    this.emit('ended', { stopped: true });
  }
  /** The device has played everything out. */
  playedOut(): void {
    this.emit('ended', { stopped: false });
  }
}

let h: Harness;
beforeAll(async () => {
  h = await startLive();
});
afterAll(() => h?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** This file's waits (helpers/wait.ts), generous: the first speak of a session warms the eSpeak threads, seconds on a loaded machine. */
const WAIT = { timeoutMs: scaled(20_000), everyMs: 10 };

async function open(): Promise<{ playback: LivePlayback; players: RecordingPlayer[]; events: LiveBridgeEvent[] }> {
  const players: RecordingPlayer[] = [];
  const serviceUrl = h.url('').replace(/^ws/, 'http').replace(/\/v1\/.*$/, '');
  const playback = await LivePlayback.open({
    serviceUrl,
    apiKey: GOOD_KEY,
    modelId: 'espeak-ng',
    openPlayer: (options) => {
      const player = new RecordingPlayer(options);
      players.push(player);
      return player;
    },
  });
  const events: LiveBridgeEvent[] = [];
  playback.on('event', (e) => events.push(e));
  return { playback, players, events };
}

const dones = (events: LiveBridgeEvent[]) => events.filter((e) => e.type === 'done');

describe('live playback queue', () => {
  it('reports done when an utterance has been heard, and starts the next only then', async () => {
    const { playback, players, events } = await open();
    playback.speak('The first sentence is spoken here.');
    playback.speak('And then the second one.');
    await until('the first utterance to be fully sent', () => players[0]?.ended === true, Boolean, WAIT);
    await sleep(300); // the second one is sent meanwhile: it must wait, unheard
    // players[1] is the spare opened ahead for the next utterance: nothing may have been written to it yet.
    expect(players).toHaveLength(2);
    expect(players[1]!.samples).toBe(0);
    expect(dones(events)).toEqual([]);

    players[0]!.playedOut();
    expect(dones(events)).toEqual([{ type: 'done', cancelled: false }]);
    await until('the second utterance to be played and ended', () => players[1]?.ended === true, Boolean, WAIT);
    expect(players[1]!.samples).toBeGreaterThan(0);
    players[1]!.playedOut();
    expect(dones(events)).toHaveLength(2);
    await playback.close();
  });

  it('opens the next player ahead of time, shares one jitter policy, and closes the spare with the session', async () => {
    const { playback, players } = await open();
    // Opened with the session, before any speech: the first utterance does not wait for the device to open.
    expect(players).toHaveLength(1);
    playback.speak('One.');
    await until('the utterance to be sent', () => players[0]?.ended === true, Boolean, WAIT);
    expect(players[0]!.samples).toBeGreaterThan(0);
    await until('the next spare', () => players.length === 2, Boolean, WAIT);
    expect(players[1]!.samples).toBe(0);
    expect(players[1]!.options.jitter).toBe(players[0]!.options.jitter);
    expect(playback.stats).toEqual({ underruns: 0, jitterTargetMs: 20 });
    players[0]!.playedOut();
    await playback.close();
    expect(players[1]!.stopped).toBe(true);
  });

  it('cancel while the last audio is still being heard silences it and reports it cancelled once', async () => {
    const { playback, players, events } = await open();
    playback.speak('A sentence the service finishes sending long before it is heard.');
    await until('the utterance to be fully sent', () => players[0]?.ended === true, Boolean, WAIT);
    playback.cancel();
    expect(players[0]!.stopped).toBe(true);
    await sleep(300); // the service has nothing left to cancel: no second done may follow
    expect(dones(events)).toEqual([{ type: 'done', cancelled: true }]);

    playback.speak('The session goes on after a cancel.');
    await until('the next utterance', () => players[1]?.ended === true, Boolean, WAIT);
    players[1]!.playedOut();
    expect(dones(events)).toEqual([
      { type: 'done', cancelled: true },
      { type: 'done', cancelled: false },
    ]);
    await playback.close();
  });
});
