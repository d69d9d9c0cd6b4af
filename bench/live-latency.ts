/**
 * Live text to speech over a real WebSocket on loopback (bare http.Server + attachLiveServer, eSpeak NG):
 * - `live-first-frame`: time from sending speak to the first binary frame, p50/p95 over LIVE_BENCH_SPEAKS (200)
 *   speaks, against eSpeak's own time to its first samples in-process (the ratio is the service's overhead);
 * - `live-sessions`: sessions held at once, each speaking continuously; how many keep frames flowing faster than
 *   real time (audio seconds received per wall second ≥ 1).
 */
import { EspeakSynth } from '../src-main/engines/tts/espeak-synth.js';
import { LiveClient, startLive } from '../test/helpers/live-harness.js';
import { percentile, round3 } from './_stats.js';

const SPEAKS = Number(process.env.LIVE_BENCH_SPEAKS ?? 200);
const SENTENCE = 'Hello, this is a short live sentence.';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The engine alone: time to the first chunk callback.
const synth = await EspeakSynth.create();
synth.configure({ voice: 'en-us' });
const engineFirst: number[] = [];
for (let i = 0; i < SPEAKS; i++) {
  const started = performance.now();
  let first = -1;
  synth.synthesize(SENTENCE, () => {
    if (first < 0) first = performance.now() - started;
    return false;
  });
  engineFirst.push(first);
}

const h = await startLive();
try {
  const c = await LiveClient.open(h.url('model=espeak-ng'));
  await c.waitFor('session.created');
  // Warm the speech threads (WASM load) before measuring.
  c.send({ type: 'speak', text: 'Warm up.' });
  await c.waitFor('response.done');
  const firstFrame: number[] = [];
  for (let i = 0; i < SPEAKS; i++) {
    const started = performance.now();
    const got = new Promise<number>((resolve) => {
      const onMessage = (_data: unknown, isBinary: boolean): void => {
        if (!isBinary) return;
        c.ws.off('message', onMessage);
        resolve(performance.now() - started);
      };
      c.ws.on('message', onMessage);
    });
    c.send({ type: 'speak', text: SENTENCE });
    firstFrame.push(await got);
    await c.waitFor('response.done');
  }
  c.close();
  const p50 = percentile(firstFrame, 50);
  const e50 = percentile(engineFirst, 50);
  console.log(
    JSON.stringify({
      bench: 'live-first-frame',
      speaks: SPEAKS,
      p50_ms: round3(p50),
      p95_ms: round3(percentile(firstFrame, 95)),
      engine_first_samples_p50_ms: round3(e50),
      engine_first_samples_p95_ms: round3(percentile(engineFirst, 95)),
      ratio_p50: round3(p50 / e50),
    }),
  );

  for (const count of [20, 50, 100]) {
    const clients = await Promise.all(Array.from({ length: count }, () => LiveClient.open(h.url('model=espeak-ng'))));
    const bytes = new Array<number>(count).fill(0);
    let measuring = false;
    let stop = false;
    clients.forEach((client, i) => {
      client.ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary && measuring) bytes[i]! += data.length;
        else if (!isBinary && !stop && JSON.parse(data.toString()).type === 'response.done') client.send({ type: 'speak', text: SENTENCE });
      });
      client.send({ type: 'speak', text: SENTENCE });
    });
    await sleep(2000);
    measuring = true;
    const windowMs = 5000;
    await sleep(windowMs);
    measuring = false;
    stop = true;
    const ratios = bytes.map((b) => b / 2 / 22050 / (windowMs / 1000));
    for (const client of clients) client.close();
    await sleep(500);
    console.log(
      JSON.stringify({
        bench: 'live-sessions',
        sessions: count,
        flowing: ratios.filter((r) => r > 0).length,
        faster_than_real_time: ratios.filter((r) => r >= 1).length,
        min_realtime_ratio: round3(Math.min(...ratios)),
        median_realtime_ratio: round3(percentile(ratios, 50)),
      }),
    );
  }
} finally {
  await h.close();
}
