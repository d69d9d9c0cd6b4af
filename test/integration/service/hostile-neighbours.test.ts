/**
 * Two accounts on one service (trust review 2): B runs its worst case of each item at once — transcript edits that
 * rewrite 4,999-word segments, exports of a ten-hour transcript, 200 dictation sessions flooding the shared
 * recognizer, slow uploads on the OpenAI-compatible route — while A polls its jobs and dictates jfk.wav. A's words are what an idle service gives,
 * and A's polls keep answering. Bounded in count and time, on 127.0.0.1.
 *
 * The latency bound here is loose on purpose (this suite runs beside others on a 2-core machine): before the fixes
 * one of B's edits held every request for seconds. The 50 ms target for A's p99 is measured by the benchmark
 * (bench/hostile-neighbours.ts), on a quiet machine, as the operator would see it.
 */
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { LiveClient } from '../../helpers/live-harness.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { installSileroVad, JFK_WAV, pcmOf, sendPcm, silence, tinyLiveModelSource, wordsOf } from '../../helpers/dictation-fixtures.js';
import { diarizedResult, insertJob } from '../../helpers/transcript-jobs.js';
import { scaled } from '../../helpers/time-scale.js';

let t: TestService;
let keyB: string;
const jfk = pcmOf(JFK_WAV);
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestService({
    extraModelSources: [tinyLiveModelSource],
    bodyIdleTimeoutMs: 30_000,
    // The tests send faster than real time on a shared machine: a bound above any one test's audio.
    live: { dictationMaxBufferedSeconds: 60 },
  });
  await installSileroVad(t.url, t.key);
  keyB = await t.service.keys.createKey('b');
}, scaled(120_000));
afterAll(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.stop();
});

const wsUrl = (model: string): string => `${t.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=${model}`;
const auth = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** A's dictation of jfk.wav on the tiny CTC model through VAD: the words it gives. */
async function dictateJfk(key: string): Promise<string[]> {
  const c = await LiveClient.open(wsUrl('tiny-ctc-live'), auth(key));
  await c.waitFor('session.created');
  await sendPcm((frame) => c.ws.send(frame), Buffer.concat([jfk.pcm, silence(1)]), 16000, { frameSeconds: 0.1, speed: 2 });
  c.send({ type: 'input_audio.end' });
  await c.waitFor('session.done', scaled(180_000));
  const text = c.json().filter((m) => m.type === 'transcript.final').map((m) => m.text as string).join(' ');
  return wordsOf(text);
}

/** 4,999 one-letter words (a 10 KB segment, under the edit's 10,000 characters), from the given letters in turn. */
function words(letters: string): string {
  return Array.from({ length: 4999 }, (_, i) => letters[i % letters.length]).join(' ');
}

/** B's transcript with four segments of 4,999 words, and the PATCH that rewrites them all. */
function bigTranscript(accountId: string): string {
  const segments = [0, 1, 2, 3].map((i) => ({ start: i * 100, end: (i + 1) * 100, text: words('abcd') }));
  return insertJob(t.service.repos, { accountId, name: 'huge.wav', result: diarizedResult(segments) });
}

/** B's ten-hour transcript: 6,000 segments, about a second to lay out as SRT and two as DOCX. */
function longTranscript(accountId: string): string {
  const segments = Array.from({ length: 6000 }, (_, i) => ({ start: i * 6, end: i * 6 + 5.5, text: `this is a fairly ordinary sentence spoken in a long meeting number ${i}`, speaker: `SPEAKER_${i % 3}` }));
  return insertJob(t.service.repos, { accountId, name: 'ten-hours.wav', result: diarizedResult(segments) });
}

async function rewrite(jobId: string, round: number): Promise<number> {
  const latest = (await (await fetch(`${t.url}/v1/speech-to-text/${jobId}/transcript`, { headers: auth(keyB) })).json()) as { latest_revision: number };
  // Every word differs from the one before it: the worst case of a word diff (nothing in common to keep).
  const segments = [0, 1, 2, 3].map((index) => ({ index, text: words(['efgh', 'ijkl', 'mnop'][round]!) }));
  const response = await fetch(`${t.url}/v1/speech-to-text/${jobId}/transcript`, {
    method: 'PATCH',
    headers: { ...auth(keyB), 'content-type': 'application/json' },
    body: JSON.stringify({ base_revision: latest.latest_revision, segments }),
  });
  return response.status;
}

/** A slow multipart upload on the OpenAI-compatible route that sends its head and then waits; `status` is its answer's status line so far. */
function slowUpload(key: string): { status(): string } {
  const port = Number(new URL(t.url).port);
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString()));
  socket.on('error', () => undefined);
  const boundary = 'hostile-boundary';
  socket.write(
    `POST /v1/audio/transcriptions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ntiny-ctc-live\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF`,
  );
  return { status: () => (text.includes('\r\n') ? text.split('\r\n')[0]! : '') };
}

/**
 * A's poll of its jobs, on a connection of its own each time: the test shares one process (and fetch's connection
 * pool) with the service and with B, and a pooled connection can be the one the server is closing for idleness at
 * that very moment — a client's keep-alive race, not what this test is about. Answers the status (0: no answer).
 */
function pollJobs(key: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(`${t.url}/v1/jobs?limit=20`, { agent: false, headers: auth(key) }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
  });
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

describe('two accounts on one service', () => {
  it("B's worst case of each at once leaves A's polls answering and A's dictation word for word as on an idle service", { timeout: scaled(600_000) }, async () => {
    const idle = await dictateJfk(t.key);
    expect(idle.length).toBeGreaterThan(3);

    const accountB = (await t.service.keys.find(keyB))!.accountId;
    const huge = bigTranscript(accountB);
    const long = longTranscript(accountB);

    // B opens 200 dictation sessions: its first few are taken, the rest are closed at once with 1013 and the reason.
    const openings = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const c = await LiveClient.open(wsUrl('tiny-ctc-live'), auth(keyB));
        const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)));
        const first = await Promise.race([c.waitFor('session.created', scaled(60_000)).then(() => 'created'), c.waitFor('error', scaled(60_000)).then((m) => (m.error as { code: string }).code)]);
        return { c, first, closed };
      }),
    );
    const accepted = openings.filter((o) => o.first === 'created');
    const refused = openings.filter((o) => o.first === 'too_many_sessions');
    expect(accepted.length).toBe(4);
    expect(refused.length).toBe(196);
    expect(new Set(await Promise.all(refused.map((o) => o.closed)))).toEqual(new Set([1013]));

    // While A polls and dictates, B floods its sessions with audio, rewrites its huge transcript and uploads slowly.
    let attacking = true;
    const latencies: number[] = [];
    const statuses = new Set<number>();
    const polling = (async () => {
      while (attacking) {
        const started = performance.now();
        const status = await pollJobs(t.key);
        latencies.push(performance.now() - started);
        statuses.add(status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const flood = Promise.all(
      accepted.map(async ({ c }) => {
        for (let round = 0; round < 3 && c.ws.readyState === c.ws.OPEN; round += 1) {
          await sendPcm((frame) => c.ws.readyState === c.ws.OPEN && c.ws.send(frame), jfk.pcm, 16000, { frameSeconds: 0.2, speed: 8 });
        }
      }),
    );
    const edits = (async (): Promise<number[]> => {
      const statuses: number[] = [];
      for (let round = 0; round < 3; round += 1) statuses.push(await rewrite(huge, round));
      return statuses;
    })();
    const uploads = Array.from({ length: 8 }, () => slowUpload(keyB));
    const exports = Promise.all(
      ['docx', 'srt', 'vtt', 'docx'].map(async (format) => {
        const response = await fetch(`${t.url}/v1/speech-to-text/${long}/export?format=${format}`, { headers: auth(keyB) });
        return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
      }),
    );
    let heard: string[];
    let editStatuses: number[];
    let answered: string[] = [];
    try {
      heard = await dictateJfk(t.key);
      await flood;
      editStatuses = await edits;
      for (const file of await exports) expect(file).toMatchObject({ status: 200, bytes: expect.any(Number) as number });
      // B leaves: its sessions close, their backlog goes with them.
      for (const { c } of accepted) c.close();
      // Four of the uploads are answered at once; the other four are held (the account's limit) until they send.
      await expect.poll(() => uploads.filter((u) => u.status() !== '').length, { timeout: scaled(30_000) }).toBe(4);
      answered = uploads.map((u) => u.status() || '(held)');
    } finally {
      attacking = false;
      await polling;
    }
    expect(editStatuses).toEqual([200, 200, 200]);

    expect(heard).toEqual(idle);
    expect(statuses).toEqual(new Set([200]));
    // Of B's 8 uploads, 4 were taken (the account's limit) and the rest answered 429 at once.
    expect(answered.sort()).toEqual([...Array(4).fill('(held)'), ...Array(4).fill('HTTP/1.1 429 Too Many Requests')]);
    expect(latencies.length).toBeGreaterThan(10);
    expect(p99(latencies)).toBeLessThan(500);
    // After B has gone, A's next dictation is as fast to finish as any: nothing of B's is left in the recognizer.
    expect(await dictateJfk(t.key)).toEqual(idle);
  });

  it('a dictation counts in the account’s upload quota and ends, its words kept, when it is full', { timeout: scaled(120_000) }, async () => {
    const small = await startTestService({ extraModelSources: [tinyLiveModelSource], maxStoredUploadBytes: 100_000, live: { dictationMaxBufferedSeconds: 60 } });
    try {
      await installSileroVad(small.url, small.key);
      const c = await LiveClient.open(`${small.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=tiny-streaming`, auth(small.key));
      await c.waitFor('session.created');
      // 5 s of audio is 160 kB at 16 kHz: past the 100 kB this account may keep.
      await sendPcm((frame) => c.ws.readyState === c.ws.OPEN && c.ws.send(frame), jfk.pcm.subarray(0, 5 * 32000), 16000, { frameSeconds: 0.1, speed: 4 });
      const error = await c.waitFor('error', scaled(30_000));
      expect(error.error).toMatchObject({ code: 'upload_quota_exceeded' });
      expect((error.error as { message: string }).message).toMatch(/the dictation ends here and what was said so far is kept$/);
      const done = await c.waitFor('session.done', scaled(60_000));
      expect(done.duration_seconds as number).toBeLessThanOrEqual(100_000 / 32000);
      const job = (await (await fetch(`${small.url}/v1/speech-to-text/${done.job_id as string}`, { headers: auth(small.key) })).json()) as Job;
      expect(job.status).toBe('succeeded');
    } finally {
      await small.stop();
    }
  });
});
