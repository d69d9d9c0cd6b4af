/**
 * Transcript segments, revisions and library search on both backends: segments appended in order only, revisions as
 * compare-and-set (two editors on two nodes: one wins), and search with FTS5's query language, limits, ranking and
 * tie order — the last checked row for row and score for score against SQLite's FTS5 on the same rows.
 */
import { describe, expect, it } from 'vitest';
import { highlight } from '../../../src-main/jobs/transcripts/transcript-snippet.js';
import { toFtsQuery } from '../../../src-main/store/fts-query.js';
import type { SegmentRow } from '../../../src-main/store/segments-repo.js';
import type { Store } from '../../../src-main/store/store.js';
import type { SearchRowInput } from '../../../src-main/store/transcript-search-repo.js';
import { BACKENDS, jobId, jobRow, useStore, type StoreFixture } from './store-fixture.js';

function segment(job: string, idx: number, overrides: Partial<SegmentRow> = {}): SegmentRow {
  return {
    job_id: job, idx, start_seconds: idx * 2.5, end_seconds: idx * 2.5 + 2.25, resume_seconds: idx * 2.5 + 2.25, text: `segment ${idx}`,
    words_json: idx % 2 ? '[{"word":"x","start":0,"end":1}]' : null, language: idx % 2 ? 'en' : null, created_at: `2026-05-01T12:00:0${idx}.000Z`,
    ...overrides,
  };
}

async function jobs(fx: StoreFixture, n: number): Promise<string> {
  const acc = (await fx.store.repos.accounts.createAccount('alice')).id;
  for (let i = 1; i <= n; i++) await fx.store.repos.jobs.insert(jobRow(acc, jobId(i), { status: 'succeeded' }));
  return acc;
}

const match = (text: string): string => toFtsQuery(text).match!;

describe.each(BACKENDS)('segments and revisions on %s', (backend) => {
  const fx = useStore(backend);

  it('appends a job’s segments in index order only, pages them and copies them to a retry', async () => {
    await jobs(fx, 2);
    const { segments } = fx.store.repos;
    expect(await segments.append(segment(jobId(1), 1))).toBe(false);
    for (let i = 0; i < 4; i++) expect(await segments.append(segment(jobId(1), i))).toBe(true);
    expect(await segments.append(segment(jobId(1), 2))).toBe(false);
    expect(await segments.append(segment(jobId(1), 5))).toBe(false);
    expect(await segments.count(jobId(1))).toBe(4);
    expect(await segments.count(jobId(2))).toBe(0);
    expect(await segments.last(jobId(1))).toEqual(segment(jobId(1), 3));
    expect(await segments.last(jobId(2))).toBeUndefined();
    expect(await segments.all(jobId(1))).toEqual([0, 1, 2, 3].map((i) => segment(jobId(1), i)));
    expect((await segments.page(jobId(1), -1, 2)).map((s) => s.idx)).toEqual([0, 1]);
    expect((await segments.page(jobId(1), 1, 10)).map((s) => s.idx)).toEqual([2, 3]);
    expect(await segments.hasAfter(jobId(1), 2)).toBe(true);
    expect(await segments.hasAfter(jobId(1), 3)).toBe(false);
    expect(await segments.resumedFrom(jobId(1), '2026-05-01T12:00:01.000Z')).toBe(4.75);
    expect(await segments.resumedFrom(jobId(1), '2026-05-01T11:00:00.000Z')).toBeNull();
    expect(await segments.copy(jobId(1), jobId(2), '2026-05-01T13:00:00.000Z')).toBe(4);
    expect(await segments.all(jobId(2))).toEqual([0, 1, 2, 3].map((i) => segment(jobId(2), i, { created_at: '2026-05-01T13:00:00.000Z' })));
  });

  it('keeps the flags an engine measured with a segment, and copies them to a retry (migration 030)', async () => {
    await jobs(fx, 2);
    const { segments } = fx.store.repos;
    const flagged = segment(jobId(1), 0, { flags_json: '["no_speech"]' });
    expect(await segments.append(flagged)).toBe(true);
    expect(await segments.append(segment(jobId(1), 1))).toBe(true);
    expect(await segments.all(jobId(1))).toEqual([flagged, segment(jobId(1), 1)]);
    expect(await segments.copy(jobId(1), jobId(2), '2026-05-01T13:00:00.000Z')).toBe(2);
    expect((await segments.all(jobId(2))).map((s) => s.flags_json)).toEqual(['["no_speech"]', undefined]);
  });

  it('of two nodes appending the same segment, one stores it', async () => {
    await jobs(fx, 1);
    const other = await fx.another();
    const results = await Promise.all([fx.store, other, fx.store, other].map((s) => s.tx((t) => t.repos.segments.append(segment(jobId(1), 0)))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await fx.store.repos.segments.count(jobId(1))).toBe(1);
  });

  it('keeps every revision; inserts only the next number; lists transcriptions without one', async () => {
    const acc = await jobs(fx, 2);
    await fx.store.repos.jobs.insert(jobRow(acc, jobId(3), { product: 'text-to-speech', status: 'succeeded' }));
    const { revisions } = fx.store.repos;
    const rev = (job: string, revision: number) => ({ job_id: job, revision, speakers_json: `{"S":"${revision}"}`, segments_json: `[${revision}]`, created_at: `t${revision}` });
    expect(await revisions.latestNumber(jobId(1))).toBeNull();
    expect(await revisions.insertNext(rev(jobId(1), 1))).toBe(false);
    expect(await revisions.insertNext(rev(jobId(1), 0))).toBe(true);
    expect(await revisions.insertNext(rev(jobId(1), 1))).toBe(true);
    expect(await revisions.insertNext(rev(jobId(1), 1))).toBe(false);
    expect(await revisions.latestNumber(jobId(1))).toBe(1);
    expect(await revisions.latest(jobId(1))).toEqual(rev(jobId(1), 1));
    expect(await revisions.get(jobId(1), 0)).toEqual(rev(jobId(1), 0));
    expect(await revisions.get(jobId(1), 7)).toBeUndefined();
    expect(await revisions.latest(jobId(2))).toBeUndefined();
    expect(await revisions.withoutRevision(10)).toEqual([jobId(2)]);
  });

  it('of two edits from the same base made on two nodes at once, exactly one is stored', async () => {
    await jobs(fx, 1);
    await fx.store.repos.revisions.insertNext({ job_id: jobId(1), revision: 0, speakers_json: '{}', segments_json: '[]', created_at: 'a' });
    const nodes: Store[] = [fx.store, await fx.another()];
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        nodes[i % 2]!.tx((t) => t.repos.revisions.insertNext({ job_id: jobId(1), revision: 1, speakers_json: '{}', segments_json: `["edit ${i}"]`, created_at: 'b' })),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await fx.store.repos.revisions.latestNumber(jobId(1))).toBe(1);
  });
});

function rows(accountId: string, job: string, created: string, bodies: string[], name = `Interview ${job}`): SearchRowInput[] {
  return [
    { job_id: job, account_id: accountId, job_created_at: created, job_name: name, segment_idx: null, start_seconds: null, end_seconds: null, body: name },
    ...bodies.map((body, i) => ({ job_id: job, account_id: accountId, job_created_at: created, job_name: name, segment_idx: i, start_seconds: i * 3, end_seconds: i * 3 + 2.5, body })),
  ];
}

describe.each(BACKENDS)('library search on %s', (backend) => {
  const fx = useStore(backend);

  it('keeps the pending list and the rows of each job, replacing a job’s edited segments', async () => {
    const acc = await jobs(fx, 3);
    const { search } = fx.store.repos;
    expect(await search.anyPending()).toBe(false);
    await search.markPending(jobId(2));
    await search.markPending(jobId(1));
    await search.markPending(jobId(1));
    expect(await search.pending(10)).toEqual([jobId(1), jobId(2)]);
    expect(await search.pending(1)).toEqual([jobId(1)]);
    expect(await search.isPending(jobId(1))).toBe(true);
    expect(await search.anyPending()).toBe(true);
    await search.clearPending(jobId(1));
    expect(await search.isPending(jobId(1))).toBe(false);
    expect(await search.maxRowId()).toBe(0);
    await search.insert(rows(acc, jobId(1), '2026-05-01T12:00:00.000Z', ['hello world', 'second line']));
    await search.insert([]);
    expect(await search.hasJob(jobId(1))).toBe(true);
    expect(await search.hasJob(jobId(2))).toBe(false);
    // How far a job's rows reach (the indexer goes on from there): its last segment, -1 for a name alone, null for none.
    expect(await search.indexedUpTo(jobId(1))).toBe(1);
    expect(await search.indexedUpTo(jobId(2))).toBeNull();
    expect((await search.rowsOf(jobId(1))).map((r) => [r.id, r.segment_idx, r.body])).toEqual([
      [1, null, 'Interview job_000001'], [2, 0, 'hello world'], [3, 1, 'second line'],
    ]);
    expect(await search.rowsOf(jobId(1))).toEqual(rows(acc, jobId(1), '2026-05-01T12:00:00.000Z', ['hello world', 'second line']).map((r, i) => ({ id: i + 1, ...r })));
    await search.replaceSegments(jobId(1), [0], rows(acc, jobId(1), '2026-05-01T12:00:00.000Z', ['goodbye world']).slice(1));
    expect((await search.rowsOf(jobId(1))).map((r) => [r.id, r.segment_idx, r.body])).toEqual([
      [1, null, 'Interview job_000001'], [3, 1, 'second line'], [4, 0, 'goodbye world'],
    ]);
    expect(await search.maxRowId()).toBe(4);
    expect(await search.countMatches(match('hello'), 4, 10)).toBe(0);
    expect(await search.countMatches(match('goodbye'), 4, 10)).toBe(1);
    // A name row alone: -1.
    await search.insert(rows(acc, jobId(3), '2026-05-01T12:00:00.000Z', []));
    expect(await search.indexedUpTo(jobId(3))).toBe(-1);
  });

  it('two nodes indexing the pending jobs at once write each job’s rows once; an edit racing the indexer is not lost', async () => {
    const acc = await jobs(fx, 3);
    for (const id of [jobId(1), jobId(2), jobId(3)]) await fx.store.repos.search.markPending(id);
    const other = await fx.another();
    /** What jobs/transcripts-search-index.ts does in one transaction: take the pending jobs, write their rows. */
    const index = (store: Store, hold?: Promise<void>) =>
      store.tx(async (t) => {
        const ids = await t.repos.search.pending(50);
        await hold;
        for (const id of ids) {
          if (!(await t.repos.search.hasJob(id))) await t.repos.search.insert(rows(acc, id, '2026-05-01T12:00:00.000Z', [`text of ${id}`]));
          await t.repos.search.clearPending(id);
        }
        return ids;
      });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = index(fx.store, held);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = index(other);
    // An edit of job 1 meanwhile: its segment rows are replaced unless the indexer will write them.
    const edit = other.tx(async (t) => {
      if (!(await t.repos.search.isPending(jobId(1)))) {
        await t.repos.search.replaceSegments(jobId(1), [0], rows(acc, jobId(1), '2026-05-01T12:00:00.000Z', ['edited text']).slice(1));
        return 'replaced';
      }
      return 'left to the indexer';
    });
    setTimeout(release, 20);
    const [a, b, edited] = await Promise.all([first, second, edit]);
    expect([...a, ...b].sort()).toEqual([jobId(1), jobId(2), jobId(3)]);
    for (const id of [jobId(1), jobId(2), jobId(3)]) expect((await fx.store.repos.search.rowsOf(id)).filter((r) => r.segment_idx === null)).toHaveLength(1);
    expect(await fx.store.repos.search.anyPending()).toBe(false);
    const bodies = (await fx.store.repos.search.rowsOf(jobId(1))).map((r) => r.body);
    expect(bodies).toContain(edited === 'replaced' ? 'edited text' : `text of ${jobId(1)}`);
    expect(bodies).toHaveLength(2);
  });

  it('reads the query language: every word required, phrases in order, prefixes, any case and accent', async () => {
    const acc = await jobs(fx, 2);
    const other = (await fx.store.repos.accounts.createAccount('bob')).id;
    await fx.store.repos.jobs.insert(jobRow(other, jobId(9), { status: 'succeeded' }));
    const { search } = fx.store.repos;
    await search.insert(rows(acc, jobId(1), '2026-05-01T12:00:00.000Z', [
      'The quick brown fox jumps over the lazy dog',
      'Café au lait, s’il vous plaît — 3.5 euros',
      'e-mail me at someone@example.com about the QUICKEST route',
      'brown quick',
    ]));
    await search.insert(rows(other, jobId(9), '2026-05-01T12:00:00.000Z', ['the quick brown fox of another account']));
    const found = async (q: string, accountId = acc): Promise<string[]> => {
      const hits = await search.search(accountId, match(q), 1000, 0, 50);
      return hits.map((h) => h.body);
    };
    expect(await found('quick brown')).toEqual(expect.arrayContaining(['The quick brown fox jumps over the lazy dog', 'brown quick']));
    expect(await found('quick brown')).toHaveLength(2);
    expect(await found('"quick brown"')).toEqual(['The quick brown fox jumps over the lazy dog']);
    expect(await found('"brown quick"')).toEqual(['brown quick']);
    expect(await found('quick*')).toHaveLength(3);
    expect(await found('QUICK')).toHaveLength(2);
    expect(await found('cafe PLAIT')).toEqual(['Café au lait, s’il vous plaît — 3.5 euros']);
    // The snippet is made from the hit's text, with the same markers on both backends.
    const [hit] = await search.search(acc, match('cafe PLAIT'), 1000, 0, 1);
    expect(highlight(hit!.body, toFtsQuery('cafe PLAIT').phrases)).toBe('<mark>Café</mark> au lait, s’il vous <mark>plaît</mark> — 3.5 euros');
    expect(await found('3')).toEqual(['Café au lait, s’il vous plaît — 3.5 euros']);
    expect(await found('"3 5"')).toEqual(['Café au lait, s’il vous plaît — 3.5 euros']);
    expect(await found('example')).toEqual(['e-mail me at someone@example.com about the QUICKEST route']);
    expect(await found('"e mail"')).toEqual(['e-mail me at someone@example.com about the QUICKEST route']);
    expect(await found('"lazy do"*')).toEqual(['The quick brown fox jumps over the lazy dog']);
    expect(await found('interview')).toEqual(['Interview job_000001']);
    expect(await found('zebra')).toEqual([]);
    expect(await found('quick', other)).toEqual(['the quick brown fox of another account']);
    expect((await search.searchNewest(acc, match('quick'), 1000, 0, 10)).map((h) => h.id)).toEqual([5, 2]);
    expect(await search.countMatches(match('quick'), 1000, 10)).toBe(3); // every account's rows
    expect(await search.countMatches(match('quick'), 1000, 2)).toBe(2); // counting no further than the cap
    expect(await search.countMatches(match('quick'), 2, 10)).toBe(1); // rows up to maxId
  });

  it('ranks best first, then newest job, job id and row; pages by offset; the newest-first order pages too', async () => {
    const acc = await jobs(fx, 4);
    const { search } = fx.store.repos;
    await search.insert(rows(acc, jobId(1), '2026-05-01T12:00:01.000Z', ['apple', 'apple apple banana', 'banana', 'apple pie with a long tail of other words here']));
    await search.insert(rows(acc, jobId(2), '2026-05-01T12:00:02.000Z', ['apple', 'cherry apple']));
    await search.insert(rows(acc, jobId(3), '2026-05-01T12:00:02.000Z', ['apple']));
    const hits = await search.search(acc, match('apple'), 1000, 0, 50);
    expect(hits.map((h) => [h.job_id, h.segment_idx])).toEqual([
      [jobId(3), 0], [jobId(2), 0], [jobId(1), 0], // one-word rows rank alike: newest job first, then the higher job id
      [jobId(1), 1], // twice in three words
      [jobId(2), 1], // once in two
      [jobId(1), 3], // once in ten
    ]);
    expect(hits.every((h, i) => i === 0 || h.score >= hits[i - 1]!.score)).toBe(true);
    expect(hits[0]!.score).toBeLessThan(0);
    expect(hits[3]).toMatchObject({ job_name: `Interview ${jobId(1)}`, start_seconds: 3, end_seconds: 5.5, body: 'apple apple banana', job_created_at: '2026-05-01T12:00:01.000Z' });
    expect((await search.search(acc, match('apple'), 1000, 2, 2)).map((h) => h.id)).toEqual(hits.slice(2, 4).map((h) => h.id));
    const maxId = hits.find((h) => h.job_id === jobId(2))!.id;
    expect((await search.search(acc, match('apple'), maxId, 0, 50)).every((h) => h.id <= maxId)).toBe(true);
    const newest = await search.searchNewest(acc, match('apple'), 1000, 0, 50);
    expect(newest.map((h) => h.id)).toEqual([...hits.map((h) => h.id)].sort((a, b) => b - a));
    expect(newest.every((h) => h.score === 0)).toBe(true);
    expect((await search.searchNewest(acc, match('apple'), 1000, 1, 2)).map((h) => h.id)).toEqual(newest.slice(1, 3).map((h) => h.id));
  });
});

describe('library search ranks on PostgreSQL as FTS5 does on SQLite', () => {
  const sqlite = useStore('sqlite');
  const postgres = useStore('postgres');
  const vocabulary = ['budget', 'council', 'river', 'bridge', 'school', 'naïve', 'Zürich', 'été', 'vote', 'tax', 'road', 'the', 'a', 'of', '2026', 'B2B'];

  it('gives the same rows in the same order with the same scores for many queries over the same rows', async () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const corpus: SearchRowInput[][] = [];
    for (let j = 1; j <= 12; j++) {
      const bodies = Array.from({ length: 3 + random(8) }, () => Array.from({ length: 1 + random(14) }, () => vocabulary[random(vocabulary.length)]).join(' '));
      corpus.push(rows('ACC', jobId(j), `2026-05-01T12:00:${String(random(4)).padStart(2, '0')}.000Z`, bodies, `Meeting ${vocabulary[random(vocabulary.length)]}`));
    }
    for (const fx of [sqlite, postgres]) {
      const acc = await jobs(fx, 12);
      for (const list of corpus) await fx.store.repos.search.insert(list.map((r) => ({ ...r, account_id: acc })));
    }
    const accountOf = async (fx: StoreFixture): Promise<string> => (await fx.store.repos.accounts.ensureAccount('alice')).id;
    const queries = ['budget', 'the', 'council vote', '"river bridge"', 'sch*', 'zurich', 'NAIVE ete', '"the budget"*', 'b2b 2026', 'tax road the', 'meeting', 'a', 'of the'];
    for (const q of queries) {
      const [a, b] = await Promise.all([sqlite, postgres].map(async (fx) => fx.store.repos.search.search(await accountOf(fx), match(q), 10_000, 0, 500)));
      expect(b!.map((h) => h.id), q).toEqual(a!.map((h) => h.id));
      b!.forEach((hit, i) => expect(hit.score, `${q} #${i}`).toBeCloseTo(a![i]!.score, 9));
      expect(await postgres.store.repos.search.countMatches(match(q), 10_000, 1000), q).toBe(await sqlite.store.repos.search.countMatches(match(q), 10_000, 1000));
    }
  });
});
