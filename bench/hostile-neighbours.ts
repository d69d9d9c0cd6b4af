/**
 * Two accounts on one service (trust review 2): A polls `GET /v1/jobs` from a process of its own, first while the
 * service is idle, then while B, in this process, runs its worst cases at once — PATCHes rewriting four 4,999-word
 * segments, exports (DOCX, SRT, VTT) of a ten-hour transcript, 200 dictation sessions and 8 slow uploads. Prints one
 * JSON line: A's p50/p99 in each phase and the attack's p99 over the idle one. Target: A's p99 under attack ≤ 50 ms.
 * Usage: node --import tsx bench/hostile-neighbours.ts [seconds per phase = 10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createService } from '../src-main/service/create-service.js';
import { installSileroVad, tinyLiveModelSource } from '../test/helpers/dictation-fixtures.js';
import { diarizedResult, insertJob } from '../test/helpers/transcript-jobs.js';
import { percentile, round3 } from './_stats.js';
import { silentLog } from '../src-main/common/log.js';

const SECONDS = Number(process.argv[2] ?? 10);

/** A's poller, a process of its own: latencies (ms) of sequential polls, each on a new connection, for `seconds`. */
function poll(url: string, key: string, seconds: number): Promise<number[]> {
  const script = `
    const http = require('node:http');
    const latencies = []; const end = Date.now() + ${seconds * 1000};
    (async () => {
      while (Date.now() < end) {
        const started = performance.now();
        await new Promise((resolve) => http.get(${JSON.stringify(`${url}/v1/jobs?limit=20`)}, { agent: false, headers: { authorization: 'Bearer ${key}' } }, (r) => { r.resume(); r.on('end', resolve); }).on('error', resolve));
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
      console.log(JSON.stringify(latencies));
    })();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', () => resolve(JSON.parse(out) as number[])));
}

/** B, in a process of its own (so that its client's work is not counted in the service's): every attack at once, until killed. */
async function attack(target: { url: string; keyB: string; huge: string; long: string }): Promise<void> {
  const { url, keyB, huge, long } = target;
  const authB = { authorization: `Bearer ${keyB}` };
  const words = (letters: string): string => Array.from({ length: 4999 }, (_, i) => letters[i % letters.length]).join(' ');
  const only = process.env.ATTACK || 'edits,exports,dictation,uploads';
  const keep: (Socket | WebSocket)[] = [];
  await Promise.all([
    (async () => {
      let base = (await (await fetch(`${url}/v1/speech-to-text/${huge}/transcript`, { headers: authB })).json()) as { latest_revision: number };
      for (let round = 0; only.includes('edits'); round += 1) {
        const response = await fetch(`${url}/v1/speech-to-text/${huge}/transcript`, {
          method: 'PATCH',
          headers: { ...authB, 'content-type': 'application/json' },
          body: JSON.stringify({ base_revision: base.latest_revision, segments: [0, 1, 2, 3].map((index) => ({ index, text: words(['efgh', 'ijkl', 'mnop'][round % 3]!) })) }),
        });
        base = (await response.json()) as { latest_revision: number };
      }
    })(),
    (async () => {
      for (let round = 0; only.includes('exports'); round += 1) {
        await (await fetch(`${url}/v1/speech-to-text/${long}/export?format=${['docx', 'srt', 'vtt'][round % 3]}`, { headers: authB })).arrayBuffer();
      }
    })(),
    (async () => {
      const ws = `${url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=tiny-ctc-live`;
      for (let i = 0; i < 200 && only.includes('dictation'); i += 1) {
        const socket = new WebSocket(ws, { headers: authB });
        socket.on('error', () => undefined);
        socket.on('open', () => {
          const noise = Buffer.alloc(6400, 1);
          const timer = setInterval(() => (socket.readyState === socket.OPEN ? socket.send(noise) : clearInterval(timer)), 20);
        });
        keep.push(socket);
      }
    })(),
    (async () => {
      const port = Number(new URL(url).port);
      for (let i = 0; i < 8 && only.includes('uploads'); i += 1) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(`POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keyB}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF`);
        keep.push(socket);
      }
    })(),
  ]);
  await new Promise(() => {});
}

if (process.argv[2] === '--attacker') await attack(JSON.parse(process.argv[3]!) as { url: string; keyB: string; huge: string; long: string });

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-neighbours-'));
  const keyA = `vdk_${'A'.repeat(32)}`;
  const service = await createService({ dataDir, port: 0, workers: 1, apiKey: keyA, extraModelSources: [tinyLiveModelSource], log: silentLog });
  const keyB = await service.keys.createKey('b');
  const accountB = (await service.keys.find(keyB))!.accountId;
  await installSileroVad(service.url, keyA);
  const words = (letters: string): string => Array.from({ length: 4999 }, (_, i) => letters[i % letters.length]).join(' ');
  const huge = insertJob(service.repos, { accountId: accountB, name: 'huge.wav', result: diarizedResult([0, 1, 2, 3].map((i) => ({ start: i * 100, end: i * 100 + 99, text: words('abcd') }))) });
  const long = insertJob(service.repos, {
    accountId: accountB,
    name: 'ten-hours.wav',
    result: diarizedResult(Array.from({ length: 6000 }, (_, i) => ({ start: i * 6, end: i * 6 + 5.5, text: `this is a fairly ordinary sentence spoken in a long meeting number ${i}`, speaker: `SPEAKER_${i % 3}` }))),
  });
  const authB = { authorization: `Bearer ${keyB}` };
  // Revision 0 and the search rows of the two transcripts are made once, as at the end of their jobs: not measured here.
  for (const id of [huge, long]) await (await fetch(`${service.url}/v1/speech-to-text/${id}/transcript`, { headers: authB })).arrayBuffer();
  await (await fetch(`${service.url}/v1/search?q=meeting`, { headers: authB })).arrayBuffer();

  const idle = await poll(service.url, keyA, SECONDS);

  const attacker = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--attacker', JSON.stringify({ url: service.url, keyB, huge, long })], {
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...process.env, ATTACK: process.env.ATTACK ?? '' },
  });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const underAttack = await poll(service.url, keyA, SECONDS);
  loop.disable();
  attacker.kill('SIGKILL');
  await new Promise((resolve) => attacker.once('exit', resolve));
  await service.close(0);
  rmSync(dataDir, { recursive: true, force: true });

  const figures = (values: number[]) => ({ polls: values.length, p50_ms: round3(percentile(values, 50)), p99_ms: round3(percentile(values, 99)) });
  const quiet = figures(idle);
  const loud = figures(underAttack);
  console.log(JSON.stringify({ bench: 'hostile-neighbours', seconds_per_phase: SECONDS, idle: quiet, under_attack: loud, p99_ratio: round3(loud.p99_ms / quiet.p99_ms), service_event_loop_under_attack: { p99_ms: round3(loop.percentile(99) / 1e6), max_ms: round3(loop.max / 1e6) }, target_p99_ms: 50 }));
}

if (process.argv[2] !== '--attacker') await main();
