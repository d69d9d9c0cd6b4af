/**
 * GET /v1/search over real HTTP on a real SQLite file: finds latest revisions and job names, never the words an
 * edit removed; hostile input never 500s; ranking ties go to the newest job; cursors page without gaps or repeats;
 * the history sweep (retention) deleting a job removes its index rows in the same transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit, SearchList } from '../../../../src-main/common/transcript-types.js';
import type { JobEngine } from '../../../../src-main/jobs/engine/job-service.js';
import { saveRetention } from '../../../../src-main/jobs/retention/retention-policy.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { diarizedResult, insertJob } from '../../../helpers/transcript-jobs.js';

let t: TestService;
let api: Client;
let accountId: string;
beforeAll(async () => {
  t = await startTestService({ workers: 1 });
  api = new Client(t.url, t.key);
  accountId = (await t.service.keys.find(t.key))!.accountId;
});
afterAll(async () => {
  await t?.stop();
});

const search = (q: string, extra = ''): Promise<SearchList> => json<SearchList>(api.get(`/v1/search?q=${encodeURIComponent(q)}${extra}`));

function job(texts: string[], options: { name?: string | null; createdAt?: string; input?: Record<string, unknown>; account?: string } = {}): string {
  const result = diarizedResult(texts.map((text, i) => ({ start: i * 5, end: i * 5 + 4, text, speaker: 'SPEAKER_0' })));
  const id = insertJob(t.service.repos, { accountId: options.account ?? accountId, name: options.name ?? null, result, ...(options.createdAt ? { createdAt: options.createdAt } : {}), ...(options.input ? { input: options.input } : {}) });
  // Gives it revision 0 and its index rows (a search catches up by itself too, so nothing waits for it here).
  void (t.service.jobs as unknown as { runMaintenance(): Promise<void> }).runMaintenance();
  return id;
}

function patch(id: string, body: unknown): Promise<Response> {
  return fetch(`${t.url}/v1/speech-to-text/${id}/transcript`, { method: 'PATCH', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
}

describe('search', () => {
  it('finds a segment of the latest revision with its times and a marked snippet; an edit replaces what is found', async () => {
    const id = job(['We will review the quarterly zeppelin numbers today.', 'Nothing else on the agenda.'], { name: 'Board call.m4a' });
    const found = await search('zeppelin');
    expect(found).toEqual({
      object: 'list',
      data: [{ job_id: id, name: 'Board call.m4a', segment_index: 0, start: 0, end: 4, snippet: 'We will review the quarterly <mark>zeppelin</mark> numbers today.', match: { word_index: 5, word_count: 1, start: 2.5, end: 3 }, ai: null }],
      next_cursor: null,
    });
    expect((await json(patch(id, { base_revision: 0, segments: [{ index: 0, text: 'We will review the quarterly blimp numbers & <totals> today.' }] }))).revision).toBe(1);
    expect((await search('zeppelin')).data).toEqual([]);
    const blimp = await search('blimp');
    expect(blimp.data.map((h) => [h.job_id, h.segment_index])).toEqual([[id, 0]]);
    expect(blimp.data[0]!.snippet).toBe('We will review the quarterly <mark>blimp</mark> numbers &amp; &lt;totals&gt; today.');
    // The word an edit wrote takes the time of the word it replaced: a search lands there (issue 29.5).
    expect(blimp.data[0]!.match).toEqual({ word_index: 5, word_count: 1, start: 2.5, end: 3 });
    expect((await search('AGENDA')).data.map((h) => h.segment_index)).toEqual([1]); // untouched segments stay indexed
    // Emptying a segment takes it out of the index.
    await json(patch(id, { base_revision: 1, segments: [{ index: 1, text: '' }] }));
    expect((await search('agenda')).data).toEqual([]);
  });

  it('matches job names (segment_index null), and the uploaded file name when the job has no name', async () => {
    const named = job(['Some words.'], { name: 'Orchard planning session' });
    const unnamed = job(['Other words.'], { input: { filePath: '/x', fileName: 'greenhouse-visit.wav' } });
    const hit = (await search('orchard')).data;
    expect(hit).toEqual([{ job_id: named, name: 'Orchard planning session', segment_index: null, start: null, end: null, snippet: '<mark>Orchard</mark> planning session', match: null, ai: null }]);
    expect((await search('greenhouse')).data).toMatchObject([{ job_id: unnamed, name: 'greenhouse-visit.wav', segment_index: null }]);
  });

  it('keeps "quoted phrases" and prefix*, ignores case and accents', async () => {
    const id = job(['The café opened at noon, said Renée.', 'Noon opened the café.']);
    expect((await search('"opened at noon"')).data.map((h) => [h.job_id, h.segment_index])).toEqual([[id, 0]]);
    // A phrase's hit names its words: from "opened" (the third of seven words over 4 s) to the end of "noon,".
    expect((await search('"opened at noon"')).data[0]!.match).toEqual({ word_index: 2, word_count: 3, start: 1.143, end: 2.857 });
    expect((await search('"noon opened"')).data.map((h) => h.segment_index)).toEqual([1]);
    expect((await search('rene*')).data.map((h) => h.segment_index)).toEqual([0]);
    expect((await search('CAFE renee')).data.map((h) => h.segment_index)).toEqual([0]);
  });

  it('treats whatever a person types as words: no 500, no FTS syntax error', async () => {
    job(['A sentence about the unicorn project and its NEAR term goals.']);
    const hostile = [
      '"', '""', '"unbalanced unicorn', 'unicorn"', '*', '**', '* unicorn', 'NEAR(', 'NEAR(unicorn project)', 'unicorn NEAR/2 project',
      'AND', 'unicorn AND', 'OR unicorn', 'NOT unicorn', 'unicorn -project', '(unicorn', 'unicorn)', '^unicorn', 'body:unicorn',
      '{body}: unicorn', "unicorn'; DROP TABLE jobs; --", '🦄', '🦄 unicorn', 'uni\u0000corn', '\\', '%', '+unicorn', ':', 'unicorn:',
      'x'.repeat(1000),
    ];
    for (const q of hostile) {
      const response = await api.get(`/v1/search?q=${encodeURIComponent(q)}`);
      expect(response.status, q).toBe(200);
      expect(((await response.json()) as SearchList).object).toBe('list');
    }
    expect((await search('NEAR(unicorn project)')).data).toHaveLength(1);
    expect((await search('"unbalanced unicorn')).data).toHaveLength(0); // read as two plain words; "unbalanced" is not there
    expect((await search('unicorn"')).data).toHaveLength(1);
    expect((await search('🦄 unicorn')).data).toHaveLength(1);
    expect((await search('near term')).data).toHaveLength(1); // lower-case operators are ordinary words
    expect((await search('🦄')).data).toEqual([]);
    expect((await search('*')).data).toEqual([]);
  });

  it('refuses an empty, a missing, an overlong or an over-wordy q, and bad limits and cursors, with 400', async () => {
    await expectError(api.get('/v1/search'), 400, 'invalid_request');
    await expectError(api.get('/v1/search?q='), 400, 'invalid_request');
    await expectError(api.get('/v1/search?q=%20%20'), 400, 'invalid_request');
    expect(await expectError(api.get(`/v1/search?q=${'a'.repeat(10_240)}`), 400, 'invalid_request')).toMatch(/1000 characters/);
    await expectError(api.get(`/v1/search?q=${encodeURIComponent(Array.from({ length: 33 }, (_, i) => `w${i}`).join(' '))}`), 400, 'invalid_request');
    await expectError(api.get('/v1/search?q=a&q=b'), 400, 'invalid_request');
    for (const limit of ['0', '101', 'ten', '1.5']) await expectError(api.get(`/v1/search?q=a&limit=${limit}`), 400, 'invalid_request');
    for (const cursor of ['nonsense', Buffer.from('[1,2,3]').toString('base64url'), Buffer.from('[-1,2]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      await expectError(api.get(`/v1/search?q=a&cursor=${cursor}`), 400, 'invalid_request');
    }
    await expectError(fetch(`${t.url}/v1/search?q=a`), 401, 'unauthorized');
  });

  it('puts the newest job first within equal rank, and pages with an opaque cursor without gaps or repeats', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => job(['The walrus report is due on Friday.'], { createdAt: `2030-01-0${i + 1}T00:00:00.000Z` }));
    const first = await search('walrus');
    expect(first.data.map((h) => h.job_id)).toEqual([...ids].reverse());
    const seen: SearchHit[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: SearchList = await search('walrus', `&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.data);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((h) => h.job_id)).toEqual([...ids].reverse());
    // A job created after the first page does not shift the pages that follow.
    const page1 = await search('walrus', '&limit=3');
    job(['The walrus report is late.'], { createdAt: '2031-01-01T00:00:00.000Z' });
    const page2 = await search('walrus', `&limit=3&cursor=${page1.next_cursor}`);
    expect(page2.data.map((h) => h.job_id)).toEqual(first.data.slice(3, 6).map((h) => h.job_id));
  });

  it('a query matching more segments than it ranks gives the most recently indexed first, and pages the same way', async () => {
    const texts = Array.from({ length: 450 }, (_, i) => `Line ${i} mentions the ubiquitous kumquat.`);
    const id = job(texts);
    const first = await search('kumquat', '&limit=100');
    expect(first.data.map((h) => h.segment_index)).toEqual(Array.from({ length: 100 }, (_, i) => 449 - i));
    const second = await search('kumquat', `&limit=100&cursor=${first.next_cursor}`);
    expect(second.data.map((h) => h.segment_index)).toEqual(Array.from({ length: 100 }, (_, i) => 349 - i));
    expect(second.data[0]).toMatchObject({ job_id: id, snippet: 'Line 349 mentions the ubiquitous <mark>kumquat</mark>.' });
  });

  it('shows an account only its own transcripts', async () => {
    const otherKey = await t.service.keys.createKey('another-account');
    const other = (await t.service.keys.find(otherKey))!.accountId;
    job(['The narwhal budget is private.'], { account: other });
    expect((await search('narwhal')).data).toEqual([]);
    expect((await json<SearchList>(new Client(t.url, otherKey).get('/v1/search?q=narwhal'))).data).toHaveLength(1);
  });

  it('deleting a job by the history retention removes its revisions and index rows in the same transaction', async () => {
    const old = insertJob(t.service.repos, {
      accountId,
      result: diarizedResult([{ start: 0, end: 2, text: 'An ancient platypus meeting.' }]),
      name: 'platypus.wav',
      createdAt: '2001-01-01T00:00:00.000Z',
      finishedAt: '2001-01-01T00:00:00.000Z',
    });
    const { repos, store } = t.service;
    const engine = t.service.jobs as JobEngine;
    await engine.runMaintenance(); // job_history_days is null: kept, and indexed
    expect((await search('platypus')).data).toHaveLength(2);
    await saveRetention(store.repos.settings, { recordings_hours: 24, job_history_days: 1 });
    try {
      await engine.runMaintenance();
    } finally {
      await saveRetention(store.repos.settings, { recordings_hours: 24, job_history_days: null });
    }
    expect(repos.jobs.get(old)).toBeUndefined();
    expect((await search('platypus')).data).toEqual([]);
    expect(repos.search.rowsOf(old)).toEqual([]);
    expect(repos.revisions.latestNumber(old)).toBeNull();
    repos.db.exec("INSERT INTO transcript_search (transcript_search) VALUES ('integrity-check')"); // throws when the index and rows disagree
  });
});
