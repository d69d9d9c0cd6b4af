/**
 * The transcript workbench at library scale (issue 11): JOBS transcripts of about WORDS words each (default 5,000 ×
 * 1,500, words drawn from a Zipf-distributed vocabulary like speech), indexed as the service indexes them
 * (revision 0 and its search rows, jobs/transcripts.ts), then:
 * - search p50/p95 through Transcripts.search (query parsing, ranked FTS5 page of 20, snippets) over 300 queries a
 *   person would type: a content word, two, a "quoted phrase", a prefix* — against the bare FTS5 match of the same
 *   queries without ranking or snippets (LIMIT 20), in the same run; the most common word is reported apart;
 * - the index's size on disk (the FTS5 tables and the rows table), against the text itself;
 * - saving an edit (one word changed in one segment) p50/p95 through Transcripts.edit, against an IMMEDIATE
 *   transaction writing the same revision JSON into a plain table.
 * Prints one JSON line. Usage: node --import tsx bench/transcript-search.ts [JOBS=5000] [WORDS=1500]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { JobResult } from '../src-main/common/api-types.js';
import type { TranscriptRevision } from '../src-main/common/transcript-types.js';
import { createTranscripts, recordOriginal } from '../src-main/jobs/transcripts/transcripts.js';
import { openDatabase } from '../src-main/store/database.js';
import { newId } from '../src-main/store/ids.js';
import { createSqliteStore } from '../src-main/store/sqlite-store.js';
import { toFtsQuery } from '../src-main/store/fts-query.js';
import { writeTx } from '../src-main/store/transaction.js';
import { percentile, round3 } from './_stats.js';

const JOBS = Number(process.argv[2] ?? 5000);
const WORDS = Number(process.argv[3] ?? 1500);
const VOCABULARY = 30_000;
const SEGMENT_WORDS = 15;

/** A seeded generator, so every run indexes the same library. */
let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
}

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'be', 'da', 'fu', 'go', 'hi', 'ja', 'pe', 'zu', 'ar', 'en', 'ol', 'is'];
const vocabulary = Array.from({ length: VOCABULARY }, (_, i) => {
  let word = '';
  for (let n = i + 7; word.length < 3 || n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  return word;
});
// Zipf (s = 1): the cumulative weights, sampled by binary search.
const cumulative: number[] = [];
vocabulary.reduce((sum, _, i) => (cumulative[i] = sum + 1 / (i + 1)), 0);
function zipfWord(): string {
  const target = random() * cumulative[cumulative.length - 1]!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
}

function transcript(): JobResult {
  const segments: NonNullable<JobResult['segments']> = [];
  const words: NonNullable<JobResult['words']> = [];
  for (let s = 0, at = 0; s * SEGMENT_WORDS < WORDS; s++) {
    const count = Math.min(SEGMENT_WORDS, WORDS - s * SEGMENT_WORDS);
    const start = at;
    const texts: string[] = [];
    for (let w = 0; w < count; w++, at += 0.4) {
      const word = zipfWord();
      texts.push(word);
      words.push({ word, start: round3(at), end: round3(at + 0.35), speaker: `SPEAKER_${s % 2}` });
    }
    segments.push({ id: s, start: round3(start), end: round3(at), text: texts.join(' '), speaker: `SPEAKER_${s % 2}` });
  }
  return { text: segments.map((s) => s.text).join(' '), language: 'en', duration: segments[segments.length - 1]!.end, segments, words };
}

const dir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-search-'));
try {
  const file = join(dir, 'voxdesk.db');
  const db = openDatabase(file);
  const store = createSqliteStore(db, file);
  const repos = store.sync;
  const accountId = repos.accounts.createAccount('bench').id;
  const transcripts = createTranscripts(store, store.clock);
  const sizeBefore = statSync(file).size;

  // The library: jobs inserted 100 to a transaction, each with its revision 0 and search rows.
  const built = performance.now();
  const jobIds: string[] = [];
  let textBytes = 0;
  for (let i = 0; i < JOBS; i += 100) {
    await store.tx(async (t) => {
      for (let j = i; j < Math.min(JOBS, i + 100); j++) {
        const result = transcript();
        textBytes += Buffer.byteLength(result.text!);
        const id = newId('job');
        const at = new Date(Date.UTC(2026, 0, 1) + j * 60_000).toISOString();
        await t.repos.jobs.insert({
          id, account_id: accountId, product: 'speech-to-text', model_id: 'bench', name: `Recording ${j}.wav`, language: 'en', status: 'succeeded',
          error_code: null, error_message: null, params_json: '{}', input_json: '{}', duration_seconds: '600.000', result_json: JSON.stringify(result),
          progress: 1, batch_id: null, attempts: 1, cancel_requested: 0, pause_requested: 0, claimed_by: null, lease_expires_at: null, estimated_usd_micro: null, estimated_seconds: null, price_json: null, reserved_usd_micro: null,
          deadline_at: null, created_at: at, started_at: at, finished_at: at, updated_at: at,
        });
        await recordOriginal(t.repos, (await t.repos.jobs.get(id))!, result, at);
        jobIds.push(id);
      }
    });
  }
  const buildSeconds = (performance.now() - built) / 1000;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec("INSERT INTO transcript_search (transcript_search) VALUES ('optimize')");
  db.pragma('wal_checkpoint(TRUNCATE)');
  const bytesOf = (names: string[]): number =>
    db.prepare<string[], { bytes: number | null }>(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (${names.map(() => '?').join(', ')})`).get(...names)!.bytes ?? 0;
  const ftsBytes = bytesOf(['transcript_search_data', 'transcript_search_idx', 'transcript_search_docsize', 'transcript_search_config']);
  const rowsBytes = bytesOf(['transcript_search_rows', 'transcript_search_rows_job']);
  const revisionBytes = bytesOf(['transcript_revisions']);

  // Queries a person types: a content word (frequency ranks 200–20,000: "budget", not "the"), two such words, a
  // phrase from a transcript, a prefix of 2–5 letters.
  const midWord = (): string => vocabulary[200 + Math.floor(random() * 19_800)]!;
  const queries: string[] = [];
  for (let i = 0; i < 300; i++) {
    const kind = i % 4;
    if (kind === 0) queries.push(midWord());
    else if (kind === 1) queries.push(`${midWord()} ${midWord()}`);
    else if (kind === 2) {
      const tokens = repos.search.rowsOf(jobIds[Math.floor(random() * jobIds.length)]!)[3]!.body.split(' ');
      const at = Math.floor(random() * (tokens.length - 2));
      queries.push(`"${tokens[at]} ${tokens[at + 1]}"`);
    } else queries.push(`${midWord().slice(0, 2 + (i % 4))}*`);
  }
  const bare = db.prepare<[string], { rowid: number }>('SELECT rowid FROM transcript_search WHERE transcript_search MATCH ? LIMIT 20');
  const time = async (fn: () => unknown): Promise<number> => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (const q of queries.slice(0, 20)) await transcripts.search(accountId, q, 20, undefined); // warm the page cache
  const searchMs: number[] = [];
  const bareMs: number[] = [];
  let hits = 0;
  for (const q of queries) {
    bareMs.push(await time(() => bare.all(toFtsQuery(q).match!)));
    searchMs.push(await time(async () => (hits += (await transcripts.search(accountId, q, 20, undefined)).data.length)));
  }
  const commonMs: number[] = [];
  for (let i = 0; i < 5; i++) commonMs.push(await time(() => transcripts.search(accountId, vocabulary[0]!, 20, undefined)));
  const commonMatches = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM transcript_search WHERE transcript_search MATCH ?').get(`"${vocabulary[0]}"`)!.n;

  // Saving an edit: one word of one segment changed, on the latest revision of a random job.
  db.exec('CREATE TABLE bench_plain (job_id TEXT, revision INTEGER, speakers_json TEXT, segments_json TEXT, PRIMARY KEY (job_id, revision))');
  const plain = db.prepare('INSERT INTO bench_plain VALUES (?, ?, ?, ?)');
  const editMs: number[] = [];
  const plainMs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const id = jobIds[Math.floor(random() * jobIds.length)]!;
    const current = JSON.parse((await transcripts.get(accountId, id, null)).json) as TranscriptRevision;
    const index = Math.floor(random() * current.segments.length);
    const words = current.segments[index]!.text.split(' ');
    words[Math.floor(random() * words.length)] = `edited${i}`;
    const text = words.join(' ');
    editMs.push(await time(() => transcripts.edit(accountId, id, { base_revision: current.revision, segments: [{ index, text }] })));
    const segments = current.segments.map((s, k) => (k === index ? { ...s, text } : s));
    plainMs.push(await time(() => writeTx(db, () => plain.run(id, i, JSON.stringify(current.speakers), JSON.stringify(segments)))));
  }
  db.close();

  const p = (values: number[], q: number): number => round3(percentile(values, q));
  console.log(
    JSON.stringify({
      bench: 'transcript-search',
      jobs: JOBS,
      words_per_job: WORDS,
      index_rows: JOBS * (Math.ceil(WORDS / SEGMENT_WORDS) + 1),
      build_seconds: round3(buildSeconds),
      search_ms_p50: p(searchMs, 50),
      search_ms_p95: p(searchMs, 95),
      search_goal_ms_p95: 20,
      bare_match_ms_p50: p(bareMs, 50),
      bare_match_ms_p95: p(bareMs, 95),
      search_ratio_p95: round3(percentile(searchMs, 95) / percentile(bareMs, 95)),
      hits_per_query: round3(hits / queries.length),
      most_common_word_ms_median: p(commonMs, 50),
      most_common_word_matches: commonMatches,
      transcript_text_mb: round3(textBytes / 1e6),
      fts_index_mb: round3(ftsBytes / 1e6),
      search_rows_mb: round3(rowsBytes / 1e6),
      revisions_mb: round3(revisionBytes / 1e6),
      database_mb: round3((statSync(file).size - sizeBefore) / 1e6),
      edit_ms_p50: p(editMs, 50),
      edit_ms_p95: p(editMs, 95),
      plain_revision_write_ms_p95: p(plainMs, 95),
      edit_ratio_p95: round3(percentile(editMs, 95) / percentile(plainMs, 95)),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
