/**
 * Live dictation over a real WebSocket on loopback, against the whole service (voxdesk's service in process, the
 * recognizers in their child processes), audio sent at real time as a microphone would:
 * - `dictation-final-latency`: end of an utterance (its last sample sent) → its `transcript.final`, p50/p95, for
 *   PocketSphinx through Silero VAD on Hi-Fi TTS utterances; the baseline is the engine's own decode time of the same
 *   utterance (the final's audio decoded in this process with the same decoder), in the same run. The latency includes
 *   the 0.5 s of silence the detector waits for before it calls an utterance ended.
 * - `dictation-partial-cadence`: seconds of audio between partials for the streaming model (tiny streaming Zipformer)
 *   on jfk.wav at real time.
 * - `dictation-sessions`: sessions held at once in real time on this machine: N sessions each dictate jfk.wav at real
 *   time; held when none meets audio_overrun and every session's last final arrives within 2 s of its end of input.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { PocketsphinxLiveDecoder } from '../src-main/engines/asr/pocketsphinx-live-decoder.js';
import { findPocketsphinx } from '../src-main/engines/asr/pocketsphinx-install.js';
import { pocketsphinxModelSource } from '../src-main/engines/asr/pocketsphinx-models.js';
import { s16leToFloat } from '../src-main/engines/audio/pcm.js';
import { installSileroVad, JFK_WAV, pcmOf, silence, tinyLiveModelSource } from '../test/helpers/dictation-fixtures.js';
import { LiveClient } from '../test/helpers/live-harness.js';
import { startTestService } from '../test/helpers/service.js';
import { SHARED } from '../test/helpers/system.js';
import { percentile, round3 } from './_stats.js';

const UTTERANCES = Number(process.env.DICTATION_BENCH_UTTERANCES ?? 12);
const FRAME_SECONDS = 0.1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const t = await startTestService({ extraModelSources: [tinyLiveModelSource, pocketsphinxModelSource], workers: 1 });
const auth = { authorization: `Bearer ${t.key}` };
const wsUrl = (model: string): string => `${t.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=${model}`;

/** Sends `pcm` at real time in 100 ms frames; `onFrame` is told the audio seconds sent after each frame. */
async function realTime(c: LiveClient, pcm: Buffer, startedAt: number, sentBefore: number, onFrame?: (seconds: number) => void): Promise<number> {
  const frame = Math.round(FRAME_SECONDS * 16000) * 2;
  let sent = sentBefore;
  for (let at = 0; at < pcm.length; at += frame) {
    const piece = pcm.subarray(at, at + frame);
    c.ws.send(piece);
    sent += piece.length / 32000;
    onFrame?.(sent);
    const wait = startedAt + sent * 1000 - performance.now();
    if (wait > 0) await sleep(wait);
  }
  return sent;
}

try {
  await installSileroVad(t.url, t.key);

  // --- end of utterance → final (PocketSphinx through VAD), against the decoder's own time on the same audio ---
  const refs = readFileSync(join(SHARED, 'audio/hifitts-6097/refs.tsv'), 'utf8').trim().split('\n').slice(0, UTTERANCES);
  const clips = refs.map((line) => pcmOf(join(SHARED, 'audio/hifitts-6097', line.split('\t')[0]!)).pcm);
  const session: Buffer[] = [];
  const c = await LiveClient.open(wsUrl('pocketsphinx-en-us'), auth);
  await c.waitFor('session.created');
  const finals: { end: number; arrived: number }[] = [];
  c.ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const m = JSON.parse(String(data)) as { type: string; end?: number };
    if (m.type === 'transcript.final') finals.push({ end: m.end!, arrived: performance.now() });
  });
  const speechEnds: { seconds: number; at: number }[] = [];
  const started = performance.now();
  let sent = 0;
  for (const clip of clips) {
    sent = await realTime(c, clip, started, sent);
    speechEnds.push({ seconds: sent, at: performance.now() });
    const gap = silence(1.5);
    session.push(clip, gap);
    sent = await realTime(c, gap, started, sent);
  }
  c.send({ type: 'input_audio.end' });
  await c.waitFor('session.done', 120_000);
  // Each utterance's final: the first final ending at or after its speech end (minus the detector's padding).
  const latencies: number[] = [];
  for (const end of speechEnds) {
    const final = finals.find((f) => f.end >= end.seconds - 0.25 && f.end <= end.seconds + 1.5);
    if (final) latencies.push(final.arrived - end.at);
  }
  // The engine alone on the same utterances (each clip with the detector's padding), in this process.
  const decoder = new PocketsphinxLiveDecoder(findPocketsphinx()!);
  const engine: number[] = [];
  for (const clip of clips) {
    const samples = s16leToFloat(Buffer.concat([silence(0.2), clip, silence(0.2)]));
    const t0 = performance.now();
    decoder.decode(samples);
    engine.push(performance.now() - t0);
  }
  decoder.dispose();
  console.log(
    JSON.stringify({
      bench: 'dictation-final-latency',
      model: 'pocketsphinx-en-us',
      utterances: clips.length,
      finals_matched: latencies.length,
      p50_ms: round3(percentile(latencies, 50)),
      p95_ms: round3(percentile(latencies, 95)),
      engine_decode_p50_ms: round3(percentile(engine, 50)),
      engine_decode_p95_ms: round3(percentile(engine, 95)),
      endpoint_silence_ms: 500,
      ratio_p50: round3(percentile(latencies, 50) / percentile(engine, 50)),
    }),
  );

  // --- partial cadence of the streaming model ---
  const jfk = pcmOf(JFK_WAV).pcm;
  const s = await LiveClient.open(wsUrl('tiny-streaming'), auth);
  await s.waitFor('session.created');
  let audioSent = 0;
  const partialAt: number[] = [];
  const partialWall: number[] = [];
  s.ws.on('message', (data, isBinary) => {
    if (!isBinary && (JSON.parse(String(data)) as { type: string }).type === 'transcript.partial') {
      partialAt.push(audioSent);
      partialWall.push(performance.now());
    }
  });
  const s0 = performance.now();
  await realTime(s, jfk, s0, 0, (seconds) => (audioSent = seconds));
  s.send({ type: 'input_audio.end' });
  await s.waitFor('session.done', 60_000);
  const audioGaps = partialAt.slice(1).map((v, i) => v - partialAt[i]!);
  const wallGaps = partialWall.slice(1).map((v, i) => v - partialWall[i]!);
  console.log(
    JSON.stringify({
      bench: 'dictation-partial-cadence',
      model: 'tiny streaming Zipformer (320 ms chunks)',
      partials: partialAt.length,
      audio_between_partials_p50_s: round3(percentile(audioGaps, 50)),
      audio_between_partials_p95_s: round3(percentile(audioGaps, 95)),
      wall_between_partials_p50_ms: round3(percentile(wallGaps, 50)),
      wall_between_partials_p95_ms: round3(percentile(wallGaps, 95)),
    }),
  );

  // --- sessions held at once in real time ---
  const audio = Buffer.concat([jfk, silence(1.5)]);
  for (const [model, counts] of [
    ['pocketsphinx-en-us', [1, 2, 3, 4, 6]],
    ['tiny-streaming', [1, 8, 16, 32]],
  ] as const) {
    let held = 0;
    for (const n of counts) {
      const clients = await Promise.all(Array.from({ length: n }, () => LiveClient.open(wsUrl(model), auth)));
      await Promise.all(clients.map((cl) => cl.waitFor('session.created')));
      const results = await Promise.all(
        clients.map(async (cl) => {
          const begin = performance.now();
          await realTime(cl, audio, begin, 0);
          const ended = performance.now();
          cl.send({ type: 'input_audio.end' });
          await cl.waitFor('session.done', 300_000);
          const overruns = cl.json().filter((m) => m.type === 'error' && (m.error as { code: string }).code === 'audio_overrun').length;
          return { lag: performance.now() - ended, overruns };
        }),
      );
      const worst = Math.max(...results.map((r) => r.lag));
      const ok = results.every((r) => r.overruns === 0) && worst < 2000;
      console.log(JSON.stringify({ bench: 'dictation-sessions', model, sessions: n, worst_end_to_done_ms: round3(worst), overruns: results.reduce((a, r) => a + r.overruns, 0), held_in_real_time: ok }));
      if (!ok) break;
      held = n;
    }
    console.log(JSON.stringify({ bench: 'dictation-sessions-max', model, sessions_held: held }));
  }
} finally {
  await t.stop();
}
