/**
 * What the HTTP stack costs: GET /v1/text-to-speech/{id} (Hono, auth, SQLite read, JSON) against a bare node:http
 * handler answering the same JSON, N sequential keep-alive requests each over loopback, interleaved, in the same run.
 * Prints one JSON line: p50/p99 in ms for both and their ratios, and each server's own time per request (from its
 * 'request' event to the answer's 'finish', the same listener on both): on a loaded shared machine the round-trip
 * times carry the client's and the other processes' time slices, the service time much less of them.
 * Run: node --import tsx bench/api-overhead.ts [N=2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Job } from '../src-main/common/api-types.js';
import { createService } from '../src-main/service/create-service.js';
import { silentLog } from '../src-main/common/log.js';

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Figures {
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
}

/** Records each request's time inside `server`: from its 'request' event until the answer is handed to the socket. */
function timeRequests(server: Server): number[] {
  const times: number[] = [];
  server.prependListener('request', (_req, res) => {
    const start = performance.now();
    res.once('finish', () => times.push(performance.now() - start));
  });
  return times;
}

async function once(url: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return performance.now() - start;
}

function figures(times: number[]): Figures {
  times.sort((a, b) => a - b);
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  return { p50_ms: round(percentile(times, 50)), p99_ms: round(percentile(times, 99)), mean_ms: round(times.reduce((a, b) => a + b, 0) / times.length) };
}

/**
 * The two servers are asked in turn (one request to each, alternating which goes first), so both see the same load
 * from the other processes on this shared machine; measuring one block after the other made the ratio mostly a
 * measure of how busy the machine was in each block.
 */
async function measure(voxdeskUrl: string, bareUrl: string, headers: Record<string, string>): Promise<{ voxdesk: Figures; bare: Figures }> {
  for (let i = 0; i < WARMUP; i++) {
    await once(voxdeskUrl, headers);
    await once(bareUrl, headers);
  }
  serviceTimes.length = 0;
  bareTimes.length = 0;
  const voxdesk: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < N; i++) {
    if (i % 2 === 0) {
      voxdesk.push(await once(voxdeskUrl, headers));
      bare.push(await once(bareUrl, headers));
    } else {
      bare.push(await once(bareUrl, headers));
      voxdesk.push(await once(voxdeskUrl, headers));
    }
  }
  return { voxdesk: figures(voxdesk), bare: figures(bare) };
}

let serviceTimes: number[] = [];
let bareTimes: number[] = [];

const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-'));
const service = await createService({ dataDir, port: 0, workers: 1, holdSeconds: 60, apiKey: null, log: silentLog });
let bare: Server | null = null;
try {
  const key = await service.keys.createKey('local');
  const headers = { authorization: `Bearer ${key}` };
  const created = await fetch(`${service.url}/v1/text-to-speech`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'espeak-ng', text: 'Benchmark.' }),
  });
  const job = (await created.json()) as Job;
  if (!job.id) throw new Error(`could not create a job: ${JSON.stringify(job)}`);
  // The bare server answers the very bytes the service answers for the job (the job view was a promise since the
  // store became asynchronous, and JSON.stringify of a promise is `{}`: the baseline answered 2 bytes for a while).
  // The job is read once it has finished, so its answer does not change during the run.
  let body = '';
  for (;;) {
    const answer = await fetch(`${service.url}/v1/text-to-speech/${job.id}`, { headers });
    body = await answer.text();
    const status = answer.status === 200 ? (JSON.parse(body) as Job).status : `unreadable (${answer.status})`;
    if (status === 'succeeded') break;
    if (status !== 'queued' && status !== 'running') throw new Error(`the job did not succeed: ${status} ${body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  bare = server;
  serviceTimes = timeRequests(service.server);
  bareTimes = timeRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const barePort = (server.address() as AddressInfo).port;

  const { voxdesk, bare: baseline } = await measure(`${service.url}/v1/text-to-speech/${job.id}`, `http://127.0.0.1:${barePort}/v1/text-to-speech/${job.id}`, headers);
  const own = figures(serviceTimes);
  const bareOwn = figures(bareTimes);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'api-overhead',
      n: N,
      body_bytes: Buffer.byteLength(body),
      voxdesk,
      bare_node_http: baseline,
      ratio_p50: Math.round((voxdesk.p50_ms / baseline.p50_ms) * 100) / 100,
      ratio_p99: Math.round((voxdesk.p99_ms / baseline.p99_ms) * 100) / 100,
      service_time: { voxdesk: own, bare_node_http: bareOwn, ratio_p50: Math.round((own.p50_ms / bareOwn.p50_ms) * 100) / 100 },
    })}\n`,
  );
} finally {
  bare?.close();
  await service.close(2000);
  rmSync(dataDir, { recursive: true, force: true });
}
