/**
 * AI answers in the library search through the HTTP API (docs/ai-actions.md "Search"): an action run against the
 * scriptable OpenAI-compatible chat server on loopback (the true boundary); a word of its answer is found by
 * GET /v1/search with the transcript it was made from, which action, and a snippet; another account does not find it;
 * a long answer written in several transactions is found to its end;
 * a second run of the same action is found too, each hit naming its own job; a failed action's answer is never found;
 * the action's job deleted (as the history sweep deletes it), no hit is left; the transcript deleted, none of its
 * actions' hits are left. MCP's search_transcripts (the same search) finds them too, labelled. Real SQLite file,
 * real HTTP.
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { isTerminal } from '../../../../src-main/common/job-states.js';
import type { SearchList } from '../../../../src-main/common/transcript-types.js';
import { startChatServer, type ChatServer } from '../../../helpers/chat-server.js';
import { Client, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { diarizedResult, insertJob } from '../../../helpers/transcript-jobs.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let chat: ChatServer;
let api: Client;
let other: Client;
let source: string;
let account: string;

async function finished(id: string): Promise<Job> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await json<Job>(api.get(`/v1/transcript-ai/${id}`));
    if (isTerminal(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`AI job ${id} did not finish: ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function act(body: Record<string, unknown>): Promise<Job> {
  const job = await json<Job>(api.postJson(`/v1/speech-to-text/${source}/ai`, body));
  return isTerminal(job.status) ? job : finished(job.id);
}

const search = (q: string, client = api): Promise<SearchList> => json<SearchList>(client.get(`/v1/search?q=${encodeURIComponent(q)}`));

beforeAll(async () => {
  chat = await startChatServer();
  t = await startTestService({ dataDir: undefined });
  api = new Client(t.url, t.key);
  other = new Client(t.url, await t.service.keys.createKey('someone-else'));
  account = t.service.repos.accounts.ensureAccount('local').id;
  source = insertJob(t.service.repos, {
    accountId: account,
    name: 'harbour-meeting.wav',
    result: diarizedResult([
      { start: 0, end: 4, text: 'we met at the harbour to plan the season' },
      { start: 4, end: 9, text: 'the boats need painting before spring' },
    ]),
  });
  await fetch(`${t.url}/v1/settings/language-model`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ base_url: chat.baseUrl, model: 'tiny-chat' }),
  });
}, scaled(60_000));
afterAll(async () => {
  await t?.stop();
  await chat?.close();
});
beforeEach(() => chat.reset());

describe('AI answers in the library search', () => {
  it('a word of a summary is found with its transcript, its action and a snippet; nobody else finds it', async () => {
    chat.answer = () => 'The crew agreed to repaint the boats in a vermilion colour [00:04].\nThe season opens in May.';
    const job = await act({ action: 'summary' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    const found = await search('vermilion');
    expect(found.data).toEqual([
      {
        job_id: source,
        name: 'harbour-meeting.wav',
        segment_index: null,
        start: null,
        end: null,
        snippet: expect.stringContaining('<mark>vermilion</mark>'),
        // An AI answer's words are no transcript's words: no matched word to land on.
        match: null,
        ai: { job_id: job.id, action: 'summary' },
      },
    ]);
    // The transcript's own words are still found as segments, without `ai`.
    const segment = await search('harbour season');
    expect(segment.data.find((h) => h.segment_index === 0)).toMatchObject({ job_id: source, ai: null, start: 0 });
    expect((await search('vermilion', other)).data).toEqual([]);

    // MCP's search tool asks the same search: the hit says which action wrote it.
    const mcp = new McpClient({ name: 'voxdesk-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.key}` } } }));
    try {
      const answer = (await mcp.callTool({ name: 'search_transcripts', arguments: { query: 'vermilion' } })) as unknown as { content: { text: string }[]; structuredContent: { hits: unknown[] } };
      expect(answer.content[0]!.text).toContain(`harbour-meeting.wav (${source}) [AI summary ${job.id}]: `);
      expect(answer.structuredContent.hits).toEqual([expect.objectContaining({ job_id: source, ai: { job_id: job.id, action: 'summary' } })]);
    } finally {
      await mcp.close();
    }
  });

  it('a long answer (more rows than one transaction writes) is found to its last line', async () => {
    const filler = (i: number): string => `Line ${i}: ${'the crew discussed ropes and sails at length '.repeat(20)}`;
    chat.answer = () => [...Array.from({ length: 120 }, (_, i) => filler(i)), 'At the very end they named the boat Periwinkle.'].join('\n');
    const job = await act({ action: 'translate', language: 'English' });
    expect(job.status, job.error_message ?? '').toBe('succeeded');
    const rows = await t.service.store.repos.search.aiRowsOf(job.id);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.every((r) => r.body.length <= 1000)).toBe(true);
    expect((await search('periwinkle')).data.map((h) => h.ai)).toEqual([{ job_id: job.id, action: 'translate' }]);
  });

  it('two runs of an action are two hits, each naming its job; a failed action is never found', async () => {
    chat.answer = () => 'Ask about the tangerine sails [00:00].';
    const first = await act({ action: 'ask', question: 'What about the sails?' });
    const second = await act({ action: 'ask', question: 'And the sails again?' });
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded']);
    const hits = (await search('tangerine')).data;
    expect(hits.map((h) => h.ai?.job_id).sort()).toEqual([first.id, second.id].sort());
    expect(hits.every((h) => h.ai?.action === 'ask' && h.job_id === source)).toBe(true);

    chat.failWith = { status: 500, message: 'out of memory' };
    const failed = await act({ action: 'chapters' });
    expect(failed.status).toBe('failed');
    chat.failWith = null;
    // An answer written but whose job did not succeed (its run wrote rows before the job failed) is not shown.
    await t.service.store.tx(({ repos }) =>
      repos.search.replaceAiResult(failed.id, [{ job_id: source, account_id: account, job_created_at: failed.created_at, job_name: null, ai_job_id: failed.id, ai_action: 'chapters', body: 'ultramarine chapter' }]),
    );
    expect((await search('ultramarine')).data).toEqual([]);
  });

  it("the action's job deleted leaves no hit; the transcript deleted leaves none of its actions' hits", async () => {
    chat.answer = () => 'Buy saffron rope [00:00].';
    const job = await act({ action: 'action_items' });
    expect(job.status).toBe('succeeded');
    expect((await search('saffron')).data).toHaveLength(1);
    // What the history sweep does to a job past the retention days (jobs/retention/history-sweep.ts).
    await t.service.store.tx(({ repos }) => repos.history.deleteJob(job.id));
    expect((await search('saffron')).data).toEqual([]);

    chat.answer = () => 'The cobalt anchor [00:00].';
    expect((await act({ action: 'summary' })).status).toBe('succeeded');
    expect((await search('cobalt')).data).toHaveLength(1);
    await t.service.store.tx(({ repos }) => repos.history.deleteJob(source));
    expect((await search('cobalt')).data).toEqual([]);
    expect((await search('vermilion')).data).toEqual([]);
  });
});
