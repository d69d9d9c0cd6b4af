/**
 * A language-model action survives a SIGKILL of the whole service: `voxdesk serve` (a real process) runs a summary of
 * a long transcript against the loopback chat server and is killed while the model answers its third part. Started
 * again, it continues the same job: the parts answered before the kill (kept in transcript_ai_parts as each arrived)
 * are not asked again, the interrupted one is, and the job succeeds with every part. The endpoint is priced: the job is
 * charged once, for every kept answer's reported tokens — the parts answered before the kill are not paid twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import { openDatabase } from '../../../../src-main/store/database.js';
import { createRepositories } from '../../../../src-main/store/repositories.js';
import { startChatServer, type ChatCall, type ChatServer } from '../../../helpers/chat-server.js';
import { Client, json } from '../../../helpers/http-client.js';
import { startServeProcess, stopServe, type ServeProcess } from '../../../helpers/service.js';
import { diarizedResult, insertJob, type SpokenSegment } from '../../../helpers/transcript-jobs.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

const KEY = 'vdk_' + 'A'.repeat(32);
let dir = '';
let chat: ChatServer;
const running: ServeProcess[] = [];

async function serve(): Promise<{ serve: ServeProcess; api: Client }> {
  const started = await startServeProcess(dir, ['--workers', '1', '--hold-seconds', '0'], { VOXDESK_API_KEY: KEY });
  running.push(started);
  return { serve: started, api: new Client(started.url, KEY) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-ai-kill-'));
  chat = await startChatServer();
});
afterAll(async () => {
  for (const s of running) s.child.kill('SIGKILL');
  await chat.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an AI action killed with SIGKILL resumes where it stopped', () => {
  it('asks only for the parts it had not got', { timeout: scaled(240_000) }, async () => {
    // First start: the settings (smallest context: many parts). Then a long transcript written into the file.
    const first = await serve();
    const put = await fetch(`${first.api.url}/v1/settings/language-model`, {
      method: 'PUT',
      headers: first.api.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ base_url: chat.baseUrl, model: 'tiny-chat', context_tokens: 1000, price: { input_per_million_tokens: 3, output_per_million_tokens: 15 } }),
    });
    expect(put.status).toBe(200);
    await stopServe(first.serve);
    const segments: SpokenSegment[] = [];
    for (let i = 0; i < 300; i++) segments.push({ start: i * 4, end: i * 4 + 3.5, text: `this is spoken segment ${i} of the long recording` });
    const db = openDatabase(join(dir, 'voxdesk.db'));
    const repos = createRepositories(db);
    const source = insertJob(repos, { accountId: repos.accounts.ensureAccount('local').id, name: 'long.wav', result: diarizedResult(segments) });
    db.close();

    const second = await serve();
    const isMap = (c: ChatCall): boolean => /summarise transcripts/.test(c.system);
    chat.answer = (call) => `Notes on ${call.user.split('\n').length} lines.`;
    chat.pieceDelayMs = 5;
    chat.onRequest = (call) => {
      if (isMap(call) && chat.calls.filter(isMap).length === 3) second.serve.child.kill('SIGKILL');
    };
    const posted = await json<Job>(second.api.postJson(`/v1/speech-to-text/${source}/ai`, { action: 'summary' }));
    await second.serve.exited;
    const before = chat.calls.filter(isMap).map((c) => c.user);
    expect(before).toHaveLength(3);
    chat.onRequest = null;

    const third = await serve();
    const done = await until('the resumed action', () => json<Job>(third.api.get(`/v1/transcript-ai/${posted.id}`)), (j) => isTerminal(j.status));
    expect(done.status, done.error_message ?? '').toBe('succeeded');
    const after = chat.calls.filter(isMap).slice(3).map((c) => c.user);
    const parts = done.result!.ai!.parts;
    expect(parts).toBeGreaterThan(5);
    // Parts 1 and 2 were answered before the kill: never asked again. Part 3 was cut off: asked again, first.
    expect(after).not.toContain(before[0]);
    expect(after).not.toContain(before[1]);
    expect(after[0]).toBe(before[2]);
    expect(new Set([...before, ...after]).size).toBe(parts);
    expect(before.length + after.length).toBe(parts + 1);
    // Charged once, for every kept answer once: the result's token totals at the price, as GET /v1/usage shows it.
    const { prompt, completion } = done.result!.ai!.tokens;
    const usage = await json<{ data: { key: string; hosted_usd: number }[] }>(third.api.get('/v1/usage?group_by=product'));
    expect(usage.data.find((g) => g.key === 'transcript-ai')?.hosted_usd).toBeCloseTo((prompt * 3 + completion * 15) / 1e6, 9);
    await stopServe(third.serve);
    const after2 = openDatabase(join(dir, 'voxdesk.db'));
    const reposAfter = createRepositories(after2);
    const ledger = reposAfter.ledger.forAccount(reposAfter.accounts.ensureAccount('local').id);
    const kept = after2.prepare<[string], { p: number; c: number }>('SELECT SUM(prompt_tokens) AS p, SUM(completion_tokens) AS c FROM transcript_ai_parts WHERE job_id = ?').get(posted.id)!;
    after2.close();
    expect([kept.p, kept.c]).toEqual([prompt, completion]);
    expect(ledger.filter((r) => r.job_id === posted.id && r.kind === 'usage').map((r) => r.amount_usd_micro)).toEqual([prompt * 3 + completion * 15]);
  });
});
