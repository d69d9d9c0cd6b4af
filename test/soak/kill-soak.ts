/**
 * Soak test of durability (`npm run soak:kill`; about 10-20 minutes on 2 cores): `voxdesk serve` is SIGKILLed at random
 * moments (default 100 times, 0.3–4 s apart) while a client submits a stream of jobs — short and long transcriptions
 * with the tiny NeMo CTC model (checkpointed), transcription batches and eSpeak speech — retrying refused
 * submissions with the same Idempotency-Key, as a script would. After the last kill the service runs until every
 * accepted job is finished, and the script reports, as one JSON line:
 * accepted (a POST answered 2xx), lost (accepted but not in the database), failed (finished other than succeeded),
 * double_charged (a job or batch with two charges of one kind, or charged without succeeding), mismatched (a
 * transcript different from another of the same recording), recognised_twice (segments the engine recognised again:
 * only ever one in flight at a kill; committed ones never). Exit code 1 when any of lost/failed/double_charged/
 * mismatched is not 0.
 *
 * Options: --kills N (100), --min-ms A --max-ms B (300, 4000), --keep (leave the data dir).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Batch, Job } from '../../src-main/common/api-types.js';
import { openDatabase } from '../../src-main/store/database.js';
import { ROOT, startServeProcess, type ServeProcess } from '../helpers/service.js';
import { requireCommand, SHARED } from '../helpers/system.js';
import { makeLongRecording } from '../helpers/long-recording.js';

const { values: opts } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    'min-ms': { type: 'string', default: '300' },
    'max-ms': { type: 'string', default: '4000' },
    keep: { type: 'boolean', default: false },
  },
});
const KILLS = Number(opts.kills);
const MIN_MS = Number(opts['min-ms']);
const MAX_MS = Number(opts['max-ms']);
const KEY = 'vdk_' + 'S'.repeat(32);
const dir = mkdtempSync(join(tmpdir(), 'voxdesk-soak-'));
const dataDir = join(dir, 'data');
const recognitionLog = join(dir, 'recognised.jsonl');
const log = (message: string): boolean => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Inputs: the 6-minute recording, a 40-second clip of it, and texts to speak.
const sox = requireCommand('sox');
const longFile = makeLongRecording(dir);
const shortFile = join(dir, 'short.wav');
execFileSync(sox, [longFile, shortFile, 'trim', '20', '40']);
const files = { long: new Uint8Array(readFileSync(longFile)), short: new Uint8Array(readFileSync(shortFile)) };
const pricing = join(dir, 'pricing.json');
const price = { request_fee_usd: 0.01, per_minute_usd: 0.006 };
writeFileSync(pricing, JSON.stringify({ models: { 'tiny-ctc': price, 'espeak-ng': price } }));
const voxdesk = (...args: string[]): string => execFileSync(process.execPath, [join(ROOT, 'bin/voxdesk.js'), ...args, '--data-dir', dataDir], { encoding: 'utf8' });
voxdesk('models', 'import', join(SHARED, 'models/tiny/tiny-nemo-ctc'), '--id', 'tiny-ctc', '--language', 'en');
voxdesk('models', 'import', join(SHARED, 'models/silero_vad_v5.onnx'));

let current: { serve: ServeProcess; url: string } | null = null;
async function start(): Promise<void> {
  const serve = await startServeProcess(dataDir, ['--workers', '1', '--hold-seconds', '0', '--pricing-file', pricing], {
    VOXDESK_API_KEY: KEY,
    VOXDESK_TEST_RECOGNITION_LOG: recognitionLog,
  });
  current = { serve, url: serve.url };
}

interface Submission {
  key: string;
  kind: 'short' | 'long' | 'batch' | 'speech';
  ids: string[];
}
const accepted: Submission[] = [];
let submitting = true;
let refused = 0;

function request(kind: Submission['kind'], n: number): { path: string; init: RequestInit } {
  const headers = { authorization: `Bearer ${KEY}`, 'idempotency-key': `soak-${n}` };
  if (kind === 'speech') {
    return {
      path: '/v1/text-to-speech',
      init: { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'espeak-ng', text: `Job number ${n} is spoken here, once.` }) },
    };
  }
  const body = new FormData();
  body.append('model', 'tiny-ctc');
  const file = kind === 'long' ? files.long : files.short;
  for (let i = 0; i < (kind === 'batch' ? 3 : 1); i++) body.append('file', new Blob([file], { type: 'audio/wav' }), `${kind}.wav`);
  return { path: kind === 'batch' ? '/v1/speech-to-text/batch' : '/v1/speech-to-text', init: { method: 'POST', headers, body } };
}

/** Submits one job (or batch) until a 2xx answer, with the same Idempotency-Key each time. */
async function submit(n: number): Promise<void> {
  const roll = Math.random();
  const kind: Submission['kind'] = roll < 0.35 ? 'short' : roll < 0.65 ? 'long' : roll < 0.75 ? 'batch' : 'speech';
  for (;;) {
    const target = current;
    if (target) {
      try {
        const { path, init } = request(kind, n);
        const response = await fetch(target.url + path, init);
        if (response.ok) {
          const body = (await response.json()) as Job | Batch;
          const ids = 'files' in body ? body.files.map((f) => f.job_id!).filter(Boolean) : [body.id];
          accepted.push({ key: `soak-${n}`, kind, ids });
          return;
        }
        if (response.status === 429) refused++; // two open batches: wait and retry
        else throw new Error(`submission ${n} answered ${response.status}: ${await response.text()}`);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('submission')) throw error;
        refused++; // the service is down or died mid-request: try again with the same key
      }
    }
    await sleep(300);
  }
}

async function submitter(): Promise<void> {
  for (let n = 0; submitting; n++) {
    await submit(n);
    await sleep(400 + Math.random() * 1200);
  }
}

const started = Date.now();
await start();
const stream = submitter();
for (let kill = 1; kill <= KILLS; kill++) {
  await sleep(MIN_MS + Math.random() * (MAX_MS - MIN_MS));
  const victim = current!;
  current = null;
  victim.serve.child.kill('SIGKILL');
  await victim.serve.exited;
  if (kill % 10 === 0) log(`${kill} kills, ${accepted.length} accepted so far`);
  await start();
}
submitting = false;
await stream;
log(`all kills done; waiting for ${accepted.length} submissions to finish`);

const ids = accepted.flatMap((s) => s.ids);
const deadline = Date.now() + 30 * 60_000;
const dbFile = join(dataDir, 'voxdesk.db');
for (;;) {
  const db = openDatabase(dbFile, { readonly: true });
  const open = (db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get() as { n: number }).n;
  db.close();
  if (open === 0 || Date.now() > deadline) break;
  await sleep(1000);
}
current!.serve.child.kill('SIGTERM');
await current!.serve.exited;

const db = openDatabase(dbFile, { readonly: true });
const rows = new Map((db.prepare('SELECT id, status, error_code, result_json, input_json, product, batch_id FROM jobs').all() as {
  id: string; status: string; error_code: string | null; result_json: string | null; input_json: string; product: string; batch_id: string | null;
}[]).map((r) => [r.id, r]));
const lost = ids.filter((id) => !rows.has(id));
const failed = ids.filter((id) => rows.get(id) && rows.get(id)!.status !== 'succeeded');
const charges = db.prepare('SELECT job_id, batch_id, kind, COUNT(*) AS n FROM ledger GROUP BY job_id, batch_id, kind').all() as { job_id: string | null; batch_id: string | null; kind: string; n: number }[];
const doubleCharged = charges.filter((c) => c.n > 1 || (c.job_id && rows.get(c.job_id)?.status !== 'succeeded'));
// Every transcript of the same recording must be the same.
const byInput = new Map<string, Set<string>>();
for (const id of ids) {
  const row = rows.get(id);
  if (row?.product !== 'speech-to-text' || row.status !== 'succeeded') continue;
  const kind = accepted.find((s) => s.ids.includes(id))!.kind === 'long' ? 'long' : 'short';
  byInput.set(kind, (byInput.get(kind) ?? new Set()).add(JSON.parse(row.result_json!).text as string));
}
const mismatched = [...byInput.values()].reduce((n, texts) => n + texts.size - 1, 0);
const withSegments = (db.prepare("SELECT COUNT(DISTINCT job_id) AS n FROM job_segments").get() as { n: number }).n;
db.close();
const recognised = new Map<string, number>();
for (const line of readFileSync(recognitionLog, 'utf8').split('\n').filter(Boolean)) {
  const entry = JSON.parse(line) as { job: string; index?: number };
  if (entry.index !== undefined) recognised.set(`${entry.job}:${entry.index}`, (recognised.get(`${entry.job}:${entry.index}`) ?? 0) + 1);
}
const resumes = readFileSync(recognitionLog, 'utf8').split('\n').filter((l) => l.includes('resume_at')).length;
const summary = {
  bench: 'kill-soak',
  kills: KILLS,
  minutes: Math.round((Date.now() - started) / 6000) / 10,
  submissions: accepted.length,
  accepted: ids.length,
  by_kind: Object.fromEntries(['short', 'long', 'batch', 'speech'].map((k) => [k, accepted.filter((s) => s.kind === k).length])),
  refused_and_retried: refused,
  lost: lost.length,
  failed: failed.length,
  failed_codes: [...new Set(failed.map((id) => rows.get(id)!.error_code))],
  double_charged: doubleCharged.length,
  mismatched,
  transcriptions_with_segments: withSegments,
  resumed_runs: resumes,
  segments_recognised: recognised.size,
  recognised_twice: [...recognised.values()].filter((n) => n > 1).length,
};
console.log(JSON.stringify(summary));
if (!opts.keep) rmSync(dir, { recursive: true, force: true });
else log(`data kept in ${dir}`);
process.exitCode = summary.lost + summary.failed + summary.double_charged + summary.mismatched > 0 ? 1 : 0;
