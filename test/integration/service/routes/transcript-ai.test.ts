/**
 * Language-model actions end to end through the HTTP API (docs/ai-actions.md): a real PocketSphinx transcript of
 * jfk.wav, the service in process on a real SQLite file, and the scriptable OpenAI-compatible chat server on
 * loopback as the endpoint (the true boundary). Every action, the settings (key sealed, never returned), chunking of
 * a two-hour transcript, a context-length refusal split and retried, an unreachable endpoint, a cancel, clean-up as a
 * revision, cited times that name segments, exports, and each bad input a clear 4xx with nothing created.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { TranscriptRevision } from '../../../../src-main/common/transcript-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { startChatServer, type ChatServer } from '../../../helpers/chat-server.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, requireFile, SHARED } from '../../../helpers/system.js';
import { insertJob, type SpokenSegment, diarizedResult } from '../../../helpers/transcript-jobs.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');
requireFile('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin', 'pocketsphinx-en-us');

let t: TestService;
let chat: ChatServer;
let api: Client;
let other: Client;
let jfk: string;
let localAccount: string;

const aiJob = (id: string): Promise<Job> => json<Job>(api.get(`/v1/transcript-ai/${id}`));
const finished = (id: string): Promise<Job> => until(`AI job ${id}`, () => aiJob(id), (j) => isTerminal(j.status));

async function act(source: string, body: Record<string, unknown>): Promise<Job> {
  const job = await json<Job>(api.postJson(`/v1/speech-to-text/${source}/ai`, body));
  expect(job.product).toBe('transcript-ai');
  return isTerminal(job.status) ? job : finished(job.id);
}

async function configure(extra: Record<string, unknown> = {}): Promise<void> {
  await json(api.put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'tiny-chat', ...extra }));
}

async function aiJobCount(): Promise<number> {
  return (await json<{ data: Job[] }>(api.get('/v1/jobs?product=transcript-ai&limit=100'))).data.length;
}

beforeAll(async () => {
  chat = await startChatServer();
  t = await startTestService({ dataDir: undefined });
  api = new Client(t.url, t.key);
  other = new Client(t.url, await t.service.keys.createKey('someone-else'));
  localAccount = t.service.repos.accounts.ensureAccount('local').id;
  const form = new FormData();
  form.append('model', 'pocketsphinx-en-us');
  form.append('file', new Blob([readFileSync(join(SHARED, 'audio/jfk.wav'))]), 'jfk.wav');
  const posted = await json<Job>(fetch(`${t.url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${t.key}` }, body: form }));
  const done = await until('the PocketSphinx transcript', () => json<Job>(api.get(`/v1/speech-to-text/${posted.id}`)), (j) => isTerminal(j.status));
  expect(done.status).toBe('succeeded');
  jfk = done.id;
}, scaled(180_000));
afterAll(async () => {
  await t?.stop();
  await chat?.close();
});
beforeEach(() => chat.reset());

Client.prototype.put = function (this: Client, path: string, body: unknown): Promise<Response> {
  return fetch(this.url + path, { method: 'PUT', headers: this.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
};
declare module '../../../helpers/http-client.js' {
  interface Client {
    put(path: string, body: unknown): Promise<Response>;
  }
}

describe('AI actions: bad inputs are clear 4xx and create nothing', () => {
  it('no endpoint configured: 409 language_model_not_configured', async () => {
    await json(api.put('/v1/settings/language-model', { base_url: null }));
    const message = await expectError(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'summary' }), 409, 'language_model_not_configured');
    expect(message).toMatch(/Settings/);
    expect(await aiJobCount()).toBe(0);
  });

  it('unknown action, translate without language, ask without question, unknown field: 400', async () => {
    await configure();
    await expectError(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'poem' }), 400, 'invalid_request');
    await expectError(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'translate' }), 400, 'invalid_request');
    await expectError(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'ask', question: '   ' }), 400, 'invalid_request');
    await expectError(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'summary', question: 'why?' }), 400, 'unsupported_param');
    await expectError(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'summary', tone: 'formal' }), 400, 'unsupported_param');
    expect(await aiJobCount()).toBe(0);
    expect(chat.calls).toEqual([]);
  });

  it("another account's transcription is 404, and its settings route too", async () => {
    await expectError(other.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'summary' }), 404, 'not_found');
    await expectError(other.get(`/v1/speech-to-text/${jfk}/ai`), 404, 'not_found');
    await expectError(other.get('/v1/settings/language-model'), 404, 'not_found');
    await expectError(api.postJson('/v1/speech-to-text/job_doesnotexist/ai', { action: 'summary' }), 404, 'not_found');
    expect(await aiJobCount()).toBe(0);
  });

  it('settings: a bad URL or model is 400; the key is sealed and never returned', async () => {
    await expectError(api.put('/v1/settings/language-model', { base_url: 'ftp://x', model: 'm' }), 400, 'invalid_request');
    await expectError(api.put('/v1/settings/language-model', { base_url: 'not a url', model: 'm' }), 400, 'invalid_request');
    await expectError(api.put('/v1/settings/language-model', { base_url: chat.baseUrl }), 400, 'invalid_request');
    await expectError(api.put('/v1/settings/language-model', { base_url: chat.baseUrl, model: 'm', context_tokens: 10 }), 400, 'invalid_request');
    const saved = await json<Record<string, unknown>>(api.put('/v1/settings/language-model', { base_url: `${chat.baseUrl}/chat/completions`, model: 'tiny-chat', api_key: 'sk-secret-123' }));
    expect(saved).toMatchObject({ base_url: chat.baseUrl, model: 'tiny-chat', api_key_set: true, configured: true });
    expect(JSON.stringify(saved)).not.toContain('sk-secret-123');
    expect(JSON.stringify(await json(api.get('/v1/settings/language-model')))).not.toContain('sk-secret-123');
    const raw = readFileSync(join(t.dataDir, 'voxdesk.db'));
    expect(raw.includes(Buffer.from('sk-secret-123'))).toBe(false);
    // Test connection sends it, and lists the models.
    chat.requiredKey = 'sk-secret-123';
    await expect(json(api.post('/v1/settings/language-model/test'))).resolves.toEqual({ ok: true, models: ['tiny-chat'], model_listed: true });
    // Omitting api_key keeps it; null clears it (then the endpoint refuses).
    await configure();
    expect((await json<{ api_key_set: boolean }>(api.get('/v1/settings/language-model'))).api_key_set).toBe(true);
    await configure({ api_key: null });
    expect((await json<{ api_key_set: boolean }>(api.get('/v1/settings/language-model'))).api_key_set).toBe(false);
    await expectError(api.post('/v1/settings/language-model/test'), 502, 'language_model_refused');
  });
});

describe('AI actions on a real PocketSphinx transcript', () => {
  beforeAll(() => configure());

  it('summary: one streamed request, tokens recorded, listed with the transcript, exported as Markdown and DOCX', async () => {
    const job = await act(jfk, { action: 'summary' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    expect(job.result!.text).toMatch(/^Summary of \d+ lines/);
    expect(job.result!.ai).toMatchObject({ action: 'summary', source_job_id: jfk, parts: 1, model: 'tiny-chat', revision: null });
    expect(job.result!.ai!.tokens.prompt).toBeGreaterThan(0);
    expect(job.result!.ai!.tokens.estimated).toBe(false);
    expect(chat.calls).toHaveLength(1);
    expect(chat.calls[0]!.stream).toBe(true);
    expect(chat.calls[0]!.user).toMatch(/^\[00:0\d\] /);
    const list = await json<{ data: Job[] }>(api.get(`/v1/speech-to-text/${jfk}/ai`));
    expect(list.data.map((j) => j.id)).toContain(job.id);
    const md = await api.get(`/v1/speech-to-text/${jfk}/ai/${job.id}/export?format=md`);
    expect(md.headers.get('content-type')).toMatch(/text\/markdown/);
    expect(await md.text()).toContain(job.result!.text!);
    const docx = await api.get(`/v1/speech-to-text/${jfk}/ai/${job.id}/export?format=docx`);
    expect(docx.status).toBe(200);
    expect(new Uint8Array(await docx.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    await expectError(api.get(`/v1/speech-to-text/${jfk}/ai/${job.id}/export?format=pdf`), 400, 'invalid_request');
  });

  it('chapters, action items and ask cite times that are segment starts of the transcript', async () => {
    const transcript = await json<TranscriptRevision>(api.get(`/v1/speech-to-text/${jfk}/transcript`));
    const starts = new Map(transcript.segments.map((s) => [s.index, s.start]));
    // A model that cites one real time and one made up (inside a segment) and one past the end.
    const lastEnd = transcript.segments.at(-1)!.end;
    const inside = Math.floor((transcript.segments[0]!.start + transcript.segments[0]!.end) / 2);
    const mmss = (s: number): string => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(Math.floor(s) % 60).padStart(2, '0')}`;
    for (const action of ['chapters', 'action_items', 'ask'] as const) {
      if (action === 'chapters') chat.answer = (call) => `${/\[(\d\d:\d\d)\]/.exec(call.user)![0]} Opening\n[${mmss(inside)}] Middle\n[${mmss(lastEnd + 120)}] Made up`;
      else chat.answer = (call) => `As said ${/\[(\d\d:\d\d)\]/.exec(call.user)![0]} and [${mmss(inside)}].`;
      const job = await act(jfk, action === 'ask' ? { action, question: 'What does he ask?' } : { action });
      expect(job.status, job.error_message ?? '').toBe('succeeded');
      const { citations } = job.result!.ai!;
      expect(citations.length).toBeGreaterThanOrEqual(2);
      for (const c of citations) {
        expect(starts.get(c.segment_index)).toBe(c.seconds);
        expect(c.time).toBe(mmss(c.seconds));
        expect(job.result!.text).toContain(`[${c.time}]`);
      }
      expect(job.result!.text).not.toContain(mmss(lastEnd + 120));
    }
    expect(chat.calls.find((c) => /Question: What does he ask\?/.test(c.system))).toBeDefined();
  });

  it('the same Idempotency-Key answers the same action once; with another request, 409', async () => {
    const key = { 'idempotency-key': 'ai-once' };
    const first = await json<Job>(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'summary' }, key));
    await finished(first.id);
    const again = await json<Job>(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'summary' }, key));
    expect(again.id).toBe(first.id);
    expect(chat.calls).toHaveLength(1);
    await expectError(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'chapters' }, key), 409, 'idempotency_key_reused');
  });

  it('translate keeps each line with its time', async () => {
    const job = await act(jfk, { action: 'translate', language: 'German' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    expect(chat.calls[0]!.system).toContain('into German');
    expect(job.result!.text!.split('\n').every((line) => /^\[\d\d:\d\d\] \(translated\) /.test(line))).toBe(true);
    expect(job.result!.ai!.citations.length).toBe(job.result!.text!.split('\n').length);
  });

  it('clean-up makes the next revision of the transcript; revision 0 stays the original', async () => {
    const before = await json<TranscriptRevision>(api.get(`/v1/speech-to-text/${jfk}/transcript`));
    const job = await act(jfk, { action: 'clean_up' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    expect(chat.calls[0]!.user).toMatch(/^\[0\] /);
    const after = await json<TranscriptRevision>(api.get(`/v1/speech-to-text/${jfk}/transcript`));
    expect(after.revision).toBe(before.revision + 1);
    expect(job.result!.ai).toMatchObject({ base_revision: before.revision, revision: after.revision });
    for (const segment of after.segments.filter((s) => s.text)) expect(segment.text).toMatch(/^[A-Z].*\.$/);
    const original = await json<TranscriptRevision>(api.get(`/v1/speech-to-text/${jfk}/transcript?revision=0`));
    expect(original.segments.map((s) => s.text)).not.toEqual(after.segments.map((s) => s.text));
    expect(after.segments.map((s) => [s.index, s.start, s.end])).toEqual(original.segments.map((s) => [s.index, s.start, s.end]));
  });

  it('visible in Jobs as transcript-ai, streams while it runs, and a cancelled action ends cancelled', async () => {
    chat.answer = () => 'x'.repeat(2400);
    chat.pieceDelayMs = 50;
    // Not awaited: the service holds the POST for its hold window while the answer streams in.
    const posted = json<Job>(api.postJson(`/v1/speech-to-text/${jfk}/ai`, { action: 'summary' }));
    const running = await until('a running AI job', () => json<{ data: Job[] }>(api.get('/v1/jobs?product=transcript-ai&status=running')), (l) => l.data.length > 0);
    const id = running.data[0]!.id;
    const streaming = await until('streamed text', () => json<{ partial_text: string | null; status: string }>(api.get(`/v1/speech-to-text/${jfk}/ai/${id}`)), (p) => (p.partial_text ?? '').length > 0);
    expect(streaming.status).toBe('running');
    expect(streaming.partial_text).toMatch(/^x+$/);
    await json(api.post(`/v1/transcript-ai/${id}/cancel`));
    expect((await finished(id)).status).toBe('cancelled');
    expect((await posted).id).toBe(id);
  });

  it('an unreachable endpoint fails the job language_model_unreachable; a refusing one language_model_refused', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await json(api.put('/v1/settings/language-model', { base_url: `http://127.0.0.1:${port}/v1`, model: 'tiny-chat' }));
    const failed = await act(jfk, { action: 'summary' });
    expect(failed).toMatchObject({ status: 'failed', error_code: 'language_model_unreachable' });
    expect(failed.error_message).toContain(`127.0.0.1:${port}`);
    await expectError(api.post('/v1/settings/language-model/test'), 502, 'language_model_unreachable');
    await configure();
    chat.failWith = { status: 404, message: 'model "tiny-chat" not found' };
    const refused = await act(jfk, { action: 'summary' });
    expect(refused).toMatchObject({ status: 'failed', error_code: 'language_model_refused' });
    expect(refused.error_message).toMatch(/not found.*base URL/);
  });
});

describe('AI actions on long transcripts', () => {
  let long: string;
  const segments: SpokenSegment[] = [];
  beforeAll(async () => {
    // Two hours: 1440 segments of five seconds.
    for (let i = 0; i < 1440; i++) segments.push({ start: i * 5, end: i * 5 + 4.5, text: `segment number ${i} says something about topic ${Math.floor(i / 100)}` });
    long = insertJob(t.service.repos, { accountId: localAccount, name: 'two-hours.wav', result: diarizedResult(segments) });
    await configure({ context_tokens: 4096 });
  });

  it('a two-hour transcript is split to fit the context and the parts combined (map-reduce)', async () => {
    const job = await act(long, { action: 'summary' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    const maps = chat.calls.filter((c) => /summarise transcripts/.test(c.system));
    const reduces = chat.calls.filter((c) => /combine partial summaries/.test(c.system));
    expect(job.result!.ai!.parts).toBe(maps.length);
    expect(maps.length).toBeGreaterThan(5);
    expect(reduces.length).toBeGreaterThanOrEqual(1);
    // Every part fits the budget (4096 − 600 reserved, × 0.75, in characters / 4), and together they are the whole transcript in order.
    const budgetChars = Math.floor((4096 - 600) * 0.75) * 4;
    for (const m of maps) expect(m.user.length).toBeLessThanOrEqual(budgetChars);
    const lines = maps.flatMap((m) => m.user.split('\n'));
    expect(lines).toHaveLength(1440);
    expect(lines[0]).toBe('[00:00] segment number 0 says something about topic 0');
    expect(lines[1439]).toBe('[119:55] segment number 1439 says something about topic 14');
    expect(maps[0]!.system).toContain(`part 1 of ${maps.length}`);
  });

  it('a context-length refusal is split in two and asked again once', async () => {
    chat.contextChars = 5000;
    const job = await act(long, { action: 'summary' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    const maps = chat.calls.filter((c) => /summarise transcripts/.test(c.system));
    const refused = maps.filter((c) => c.user.length > 5000);
    expect(refused.length).toBeGreaterThan(0);
    // Each refused part asked again as two halves that fit; the others once.
    expect(maps.length).toBe(job.result!.ai!.parts + 2 * refused.length);
    const lines = maps.filter((c) => c.user.length <= 5000).flatMap((m) => m.user.split('\n'));
    expect(lines).toHaveLength(1440);
  });
});
