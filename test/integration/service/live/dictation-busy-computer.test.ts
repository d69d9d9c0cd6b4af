/**
 * A microphone on a busy computer: the recognizer falls behind a client that sends in real time, and none of what the
 * person said is refused — while a client streaming faster than real time still meets `audio_overrun`. The service
 * here allows almost no audio to wait (less than one frame), so every frame of either client waits longer than that:
 * the two differ only in how fast they send. Real WebSocket on loopback, the tiny streaming Zipformer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient } from '../../../helpers/live-harness.js';
import { startTestService, testModelSource, type TestService } from '../../../helpers/service.js';
import { JFK_WAV, pcmOf, sendPcm, tinyLiveModelSource } from '../../../helpers/dictation-fixtures.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
const auth = (): Record<string, string> => ({ authorization: `Bearer ${t.key}` });
const wsUrl = (): string => `${t.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=tiny-streaming`;
const jfk = pcmOf(JFK_WAV).pcm;

beforeAll(async () => {
  t = await startTestService({
    dataDir: mkdtempSync(join(tmpdir(), 'voxdesk-dictation-busy-')),
    extraModelSources: [testModelSource, tinyLiveModelSource],
    live: { dictationMaxBufferedSeconds: 0.05 },
  });
}, scaled(120_000));
afterAll(async () => t?.stop());

const overruns = (c: LiveClient): unknown[] => c.json().filter((m) => m.type === 'error' && (m.error as { code: string }).code === 'audio_overrun');

describe('dictation on a busy computer', () => {
  it('a client sending in real time keeps every frame, though each waits longer than the buffer allows', { timeout: scaled(60_000) }, async () => {
    const c = await LiveClient.open(wsUrl(), auth());
    await c.waitFor('session.created');
    const said = jfk.subarray(0, 3 * 32_000);
    await sendPcm((frame) => c.ws.send(frame), said, 16_000, { frameSeconds: 0.1, speed: 1 });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(30_000));
    expect(overruns(c)).toEqual([]);
    expect(done.duration_seconds).toBeCloseTo(3, 3);
  });

  it('a client far faster than real time is still refused, and the recording holds exactly the frames used', { timeout: scaled(60_000) }, async () => {
    const c = await LiveClient.open(wsUrl(), auth());
    await c.waitFor('session.created');
    const frame = 0.1 * 32_000;
    await sendPcm((piece) => c.ws.send(piece), jfk, 16_000, { frameSeconds: 0.1 });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(30_000));
    const refused = overruns(c);
    expect(refused.length).toBeGreaterThan(0);
    expect(JSON.stringify(refused[0])).toMatch(/no faster than real time/);
    expect(done.duration_seconds).toBeCloseTo((jfk.length - refused.length * frame) / 32_000, 3);
  });
});
