/**
 * Where in a segment a search hit's words are, and when they are said (issue 29.5): search and "open at that moment"
 * land on the matching word rather than at the start of its segment. The search index holds segments' text only, so
 * the words' times are read from the latest revision of each job on the page — once per job and page (a page holds
 * at most 100 hits), never for hits that are a name or an AI action's answer.
 */
import type { RevisionSegment, SearchMatch } from '../../common/transcript-types.js';
import type { QueryPhrase } from '../../store/fts-query.js';
import type { StoreRepos } from '../../store/store.js';
import { firstMatch } from './transcript-snippet.js';

const round3 = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/**
 * The first match in the segment: its first and last word (indexes into `words`, which follow the text's words)
 * and their times. When the words do not follow the text one for one, the time is the segment's, in proportion to
 * where the match sits in its text.
 */
export function matchInSegment(segment: RevisionSegment, phrases: readonly QueryPhrase[]): SearchMatch | null {
  const found = firstMatch(segment.text, phrases);
  if (!found) return null;
  const tokens = [...segment.text.matchAll(/\S+/g)].map((m) => ({ from: m.index, to: m.index + m[0].length }));
  const first = tokens.findIndex((t) => t.to > found.from);
  const last = tokens.findIndex((t) => t.to >= found.to);
  if (first < 0 || last < first) return null;
  if (segment.words.length === tokens.length) {
    return { word_index: first, word_count: last - first + 1, start: segment.words[first]!.start, end: segment.words[last]!.end };
  }
  const span = Math.max(0, segment.end - segment.start);
  const length = segment.text.length || 1;
  return { word_index: first, word_count: last - first + 1, start: round3(segment.start + (span * found.from) / length), end: round3(segment.start + (span * found.to) / length) };
}

/** Reads each job's latest segments once for a page of hits. */
export function segmentReader(repos: StoreRepos): (jobId: string, index: number) => Promise<RevisionSegment | null> {
  const byJob = new Map<string, Promise<RevisionSegment[]>>();
  return async (jobId, index) => {
    let segments = byJob.get(jobId);
    if (!segments) {
      segments = Promise.resolve(repos.revisions.latest(jobId)).then((row) => (row ? (JSON.parse(row.segments_json) as RevisionSegment[]) : []));
      byJob.set(jobId, segments);
    }
    const list = await segments;
    const at = list[index];
    return at?.index === index ? at : (list.find((s) => s.index === index) ?? null);
  };
}
