/**
 * Live dictation on a hosted model: the local service relays the session to the hosted service's own dictation socket
 * (two real services on loopback). The hosted row is `live` locally as `remote:<id>`; messages pass through both ways;
 * the hosted service records and charges the job in the hosted account, and a local job follows it (in this device's
 * Jobs with transcript, recording, segments and export); a refusal there refuses the local upgrade. Money: the hosted
 * operator prices the model ($0.05 a session + $0.01 a minute); a dictation reserves its spending against the local
 * monthly cap chunk by chunk before it is spent, and ends when the cap cannot give the next chunk.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetSettings, Job } from '../../../src-main/common/api-types.js';
import { toMicro } from '../../../src-main/common/pricing.js';
import { LiveClient, refusedUpgrade } from '../../helpers/live-harness.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { JFK_WAV, pcmOf, sendPcm, tinyLiveModelSource, TINY_STREAMING_JFK_TEXT } from '../../helpers/dictation-fixtures.js';
import { scaled } from '../../helpers/time-scale.js';

let hosted: TestService;
let local: TestService;
let dir: string;
const jfk = pcmOf(JFK_WAV);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-hosted-dictation-'));
  const pricingFile = join(dir, 'pricing.json');
  writeFileSync(pricingFile, JSON.stringify({ models: { 'tiny-streaming': { request_fee_usd: 0.05, per_minute_usd: 0.01 } } }));
  hosted = await startTestService({ extraModelSources: [tinyLiveModelSource], pricingFile });
  local = await startTestService({ live: { hostedLiveChunkSeconds: 4 } });
  const put = await fetch(`${local.url}/v1/settings/remote`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: hosted.url, key: hosted.key }),
  });
  expect(put.status).toBe(200);
}, scaled(60_000));
afterAll(async () => {
  await local?.stop();
  await hosted?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const localUrl = (model: string): string => `${local.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=${model}`;

describe('hosted live dictation', () => {
  it('a hosted streaming model is live locally and its session is relayed; a local job follows the hosted one', { timeout: scaled(120_000) }, async () => {
    await expect
      .poll(async () => ((await (await fetch(`${local.url}/v1/models/remote:tiny-streaming`)).json()) as { live?: boolean }).live, { timeout: scaled(30_000) })
      .toBe(true);
    const c = await LiveClient.open(localUrl('remote:tiny-streaming'), { authorization: `Bearer ${local.key}` });
    const created = await c.waitFor('session.created');
    expect(created.session).toMatchObject({ model: 'tiny-streaming', mode: 'streaming' });
    await sendPcm((frame) => c.ws.send(frame), jfk.pcm, 16000, { frameSeconds: 0.1, speed: 4 });
    c.send({ type: 'input_audio.end' });
    const done = await c.waitFor('session.done', scaled(60_000));
    expect(c.json().filter((m) => m.type === 'transcript.final').map((f) => f.text).join(' ')).toBe(TINY_STREAMING_JFK_TEXT);
    // The hosted service recorded (and charged) the job in the hosted account…
    const hostedJobs = (await (await fetch(`${hosted.url}/v1/jobs?product=speech-to-text`, { headers: { authorization: `Bearer ${hosted.key}` } })).json()) as { data: Job[] };
    const hostedJob = hostedJobs.data.find((j) => j.name?.startsWith('Dictation'))!;
    expect(hostedJob).toMatchObject({ status: 'succeeded', model_id: 'tiny-streaming', duration_seconds: '11.000' });
    // …and session.done names the local job that follows it: in this device's Jobs with the transcript, the recording
    // (downloaded from the hosted service), its segments and an export, like any hosted transcription.
    const localHeaders = { authorization: `Bearer ${local.key}` };
    expect(done.job_id).not.toBe(hostedJob.id);
    await expect
      .poll(async () => ((await (await fetch(`${local.url}/v1/speech-to-text/${done.job_id as string}`, { headers: localHeaders })).json()) as Job).status, { timeout: scaled(60_000) })
      .toBe('succeeded');
    const job = (await (await fetch(`${local.url}/v1/speech-to-text/${done.job_id as string}`, { headers: localHeaders })).json()) as Job;
    expect(job).toMatchObject({ model_id: 'remote:tiny-streaming', duration_seconds: '11.000' });
    expect(job.name).toMatch(/^Dictation /);
    expect(job.result!.text).toBe(TINY_STREAMING_JFK_TEXT);
    const artifact = job.result!.artifacts![0]!;
    expect(artifact).toMatchObject({ content_type: 'audio/wav' });
    const wav = Buffer.from(await (await fetch(new URL(artifact.url, local.url))).arrayBuffer());
    expect(wav.length).toBe(44 + jfk.pcm.length);
    expect(wav.subarray(44).equals(jfk.pcm)).toBe(true);
    const segments = (await (await fetch(`${local.url}/v1/speech-to-text/${job.id}/segments`, { headers: localHeaders })).json()) as { data: { text: string }[] };
    expect(segments.data.map((x) => x.text).join(' ')).toBe(TINY_STREAMING_JFK_TEXT);
    const srt = await (await fetch(`${local.url}/v1/speech-to-text/${job.id}/export?format=srt`, { headers: localHeaders })).text();
    expect(srt).toMatch(/^1\n00:00:0\d,\d{3} --> /);
    const list = (await (await fetch(`${local.url}/v1/jobs?product=speech-to-text`, { headers: localHeaders })).json()) as { data: Job[] };
    expect(list.data.map((j) => j.id)).toContain(job.id);
  });

  it('bad input reaches the hosted session and its errors come back; the local checks still come first', { timeout: scaled(60_000) }, async () => {
    expect(await refusedUpgrade(localUrl('remote:tiny-streaming'))).toMatchObject({ status: 401 });
    // A hosted model that is not live is refused here, before the hosted service is asked.
    expect(await refusedUpgrade(localUrl('remote:tiny-whisper-novad'), { authorization: `Bearer ${local.key}` })).toMatchObject({ status: 422 });
    const c = await LiveClient.open(localUrl('remote:tiny-streaming'), { authorization: `Bearer ${local.key}` });
    await c.waitFor('session.created');
    c.ws.send(Buffer.alloc(3));
    expect((await c.waitFor('error')).error).toMatchObject({ code: 'invalid_audio_frame' });
    c.send({ type: 'input_audio.end' });
    expect(await c.waitFor('session.done')).toMatchObject({ job_id: null });
  });

  it('the monthly cap: a dictation reserves its first chunk before it starts and each next one before its audio gets there; the cap ends it when it cannot (trust review 2, item 7)', { timeout: scaled(120_000) }, async () => {
    const headers = { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' };
    const budget = async (): Promise<BudgetSettings> => (await (await fetch(`${local.url}/v1/settings/budget`, { headers })).json()) as BudgetSettings;
    const setCap = async (monthly_usd: number | null): Promise<void> => {
      expect((await fetch(`${local.url}/v1/settings/budget`, { method: 'PUT', headers, body: JSON.stringify({ monthly_usd }) })).status).toBe(200);
    };
    // The first test's dictation was charged here at the hosted price: $0.05 + 11 s at $0.01 a minute.
    const before = await budget();
    expect(toMicro(before.spent_usd)).toBe(51_833);
    const spent = toMicro(before.spent_usd);
    // This service reserves 4 s at a time: the first chunk is $0.05 + 4 s = $0.050667, each next one $0.000667.
    // Less than a first chunk left: refused before the hosted service is asked, with the reason.
    await setCap((spent + 50_000) / 1e6);
    const refused = await refusedUpgrade(localUrl('remote:tiny-streaming'), { authorization: `Bearer ${local.key}` });
    expect(refused).toMatchObject({ status: 402, body: { error: { code: 'budget_exceeded' } } });
    expect(JSON.stringify(refused.body)).toMatch(/monthly cap for hosted work leaves \$0\.05 .*less than the next \$0\.050667 of live hosted work/);

    // Room for the first chunk and one more: the session opens, its reservation shows while it runs, and once the
    // audio nears 8 s the next chunk is refused: the input ends with budget_exceeded, what was said is kept.
    const cap = spent + 50_667 + 667 + 300;
    await setCap(cap / 1e6);
    const c = await LiveClient.open(localUrl('remote:tiny-streaming'), { authorization: `Bearer ${local.key}` });
    await c.waitFor('session.created');
    expect(toMicro((await budget()).reserved_usd)).toBe(50_667);
    await sendPcm((frame) => c.ws.send(frame), jfk.pcm, 16000, { frameSeconds: 0.1, speed: 4 });
    const stopped = (await c.waitFor('error', scaled(30_000))) as unknown as { error: { code: string; message: string } };
    expect(stopped.error.code).toBe('budget_exceeded');
    expect(stopped.error.message).toMatch(/the dictation ends here and what was said so far is kept$/);
    const done = await c.waitFor('session.done', scaled(60_000));
    expect(done.duration_seconds as number).toBeGreaterThan(6);
    expect(done.duration_seconds as number).toBeLessThan(8);
    await expect
      .poll(async () => ((await (await fetch(`${local.url}/v1/speech-to-text/${done.job_id as string}`, { headers })).json()) as Job).status, { timeout: scaled(60_000) })
      .toBe('succeeded');
    const after = await budget();
    // Charged for what was said, never past the cap; nothing stays reserved.
    expect(toMicro(after.spent_usd)).toBeLessThanOrEqual(cap);
    expect(toMicro(after.spent_usd)).toBeGreaterThan(spent + 50_000);
    expect(after).toMatchObject({ reserved_usd: 0, waiting: 0 });
    await setCap(null);
  });

  it('the hosted service refusing the session (its key is wrong) refuses the local upgrade with 502 and the reason', async () => {
    const put = await fetch(`${local.url}/v1/settings/remote`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hosted.url, key: 'vdk_wrong_hosted_key_123456789' }),
    });
    expect(put.status).toBe(200);
    const refused = await refusedUpgrade(localUrl('remote:tiny-streaming'), { authorization: `Bearer ${local.key}` });
    expect(refused).toMatchObject({ status: 502, body: { error: { code: 'upstream_unavailable' } } });
    expect(JSON.stringify(refused.body)).toContain('invalid or revoked API key');
  });
});
