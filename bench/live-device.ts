/**
 * End to end on the virtual sound device: speak sent on the live WebSocket → first non-silent sample recorded from
 * the PulseAudio null sink's monitor (LivePlayback → naudiodon → PulseAudio), p50/p95 over LIVE_DEVICE_SPEAKS (20).
 * Includes the player's 60 ms jitter buffer and the device latency. JSON line `live-device`.
 */
import { GOOD_KEY, startLive } from '../test/helpers/live-harness.js';
import { REC_RATE, startPulse } from '../test/audio/pulse.js';
import { percentile, round3 } from './_stats.js';

const SPEAKS = Number(process.env.LIVE_DEVICE_SPEAKS ?? 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pulse = startPulse();
Object.assign(process.env, { HOME: pulse.env.HOME, XDG_RUNTIME_DIR: pulse.env.XDG_RUNTIME_DIR, PULSE_SERVER: pulse.env.PULSE_SERVER });
const { LivePlayback } = await import('../src-main/app/player/live-playback.js');
const h = await startLive();
try {
  const serviceUrl = h.url('').replace(/^ws/, 'http').replace(/\/v1\/.*$/, '');
  const playback = await LivePlayback.open({ serviceUrl, apiKey: GOOD_KEY, modelId: 'espeak-ng' });
  let dones = 0;
  playback.on('event', (e) => {
    if (e.type === 'done') dones++;
  });
  playback.speak('Warm up.');
  while (dones < 1) await sleep(10);
  await sleep(1500);
  const rec = pulse.record();
  const recStart = await rec.firstDataAt();
  await sleep(300);
  const sentAt: number[] = [];
  for (let i = 0; i < SPEAKS; i++) {
    sentAt.push(performance.now() - recStart);
    playback.speak('Testing the device.');
    while (dones < i + 2) await sleep(5);
    await sleep(2000);
  }
  const x = await rec.stop();
  await playback.close();
  const latencies: number[] = [];
  for (const [i, t] of sentAt.entries()) {
    const from = Math.floor((t / 1000) * REC_RATE);
    const to = i + 1 < sentAt.length ? Math.floor((sentAt[i + 1]! / 1000) * REC_RATE) : x.length;
    let onset = -1;
    for (let j = from; j < to; j++) {
      if (Math.abs(x[j]!) > 0.02) {
        onset = j;
        break;
      }
    }
    if (onset >= 0) latencies.push((onset / REC_RATE) * 1000 - t);
  }
  console.log(JSON.stringify({ bench: 'live-device', speaks: SPEAKS, heard: latencies.length, p50_ms: round3(percentile(latencies, 50)), p95_ms: round3(percentile(latencies, 95)) }));
} finally {
  await h.close();
  pulse.stop();
}
