/**
 * The library search (Ctrl+K) apart from its dialog: the query, its results across every transcript of the account
 * (GET /v1/search), more pages on demand, and which result the keyboard is on. Typing searches after a short pause;
 * a newer query aborts the request of an older one, so results never arrive out of order.
 */
import { MAX_SEARCH_QUERY_CHARS, MAX_SEARCH_TERMS } from '$common/limits.js';
import { errorText } from '../../shared/error-messages.js';
import { t } from '../../shared/i18n/i18n.svelte.js';
import type { ServiceHost } from '../../shared/service/service-host.js';
import { searchLibrary, type SearchHit } from '../transcript-api.js';

/** Pause after the last key before searching. Default 150 ms: fast typists send one request per word or two. */
export const SEARCH_DEBOUNCE_MS = 150;
/** Results per page. Default 20: a screenful in the dialog. */
export const SEARCH_PAGE = 20;

export interface SnippetPart {
  text: string;
  hit: boolean;
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'", '&apos;': "'" };
const unescape = (text: string): string => text.replace(/&(?:lt|gt|amp|quot|apos|#39);/g, (e) => ENTITIES[e]!);

/**
 * A snippet as parts to draw as text (never as HTML). The service sends HTML-safe text with the matched words in
 * `<mark>`…`</mark>` and everything else escaped (docs/transcripts.md); an unclosed mark is plain text.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = snippet;
  while (rest) {
    const a = rest.indexOf('<mark>');
    const b = a < 0 ? -1 : rest.indexOf('</mark>', a + 6);
    if (a < 0 || b < 0) {
      parts.push({ text: unescape(rest), hit: false });
      break;
    }
    if (a > 0) parts.push({ text: unescape(rest.slice(0, a)), hit: false });
    parts.push({ text: unescape(rest.slice(a + 6, b)), hit: true });
    rest = rest.slice(b + 7);
  }
  return parts;
}

/** Why the service would refuse a query as too long (its limits, common/limits.ts), in plain words; null if fine. */
export function tooLongQuery(q: string): string | null {
  if (q.length > MAX_SEARCH_QUERY_CHARS) return t('search.tooManyChars', { max: MAX_SEARCH_QUERY_CHARS });
  if (q.split(/[\s"*]+/).filter(Boolean).length > MAX_SEARCH_TERMS) return t('search.tooManyWords', { max: MAX_SEARCH_TERMS });
  return null;
}

export class LibrarySearch {
  query = $state('');
  results = $state.raw<SearchHit[]>([]);
  nextCursor = $state<string | null>(null);
  loading = $state(false);
  /** Why the last search failed: the query too long (checked here), or what the request threw. */
  #problem = $state.raw<{ tooLong: string } | { failure: unknown } | null>(null);
  /** Index of the result the arrow keys are on; -1 for none. */
  active = $state(-1);
  /** The query the results belong to ('' before any search). */
  searched = $state('');

  #timer: ReturnType<typeof setTimeout> | null = null;
  #abort: AbortController | null = null;

  /** Why the last search failed, in words in the interface's language; null when it did not. */
  get error(): string | null {
    if (!this.#problem) return null;
    return 'tooLong' in this.#problem ? (tooLongQuery(this.#problem.tooLong) ?? null) : errorText(this.#problem.failure);
  }

  constructor(private readonly host: Pick<ServiceHost, 'api'>, private readonly debounceMs = SEARCH_DEBOUNCE_MS) {}

  /** The person typed: search after the pause (an empty box clears the results at once). */
  input(text: string): void {
    this.query = text;
    if (this.#timer) clearTimeout(this.#timer);
    if (!text.trim()) {
      this.#abort?.abort();
      this.results = [];
      this.nextCursor = null;
      this.searched = '';
      this.#problem = null;
      this.loading = false;
      this.active = -1;
      return;
    }
    this.#timer = setTimeout(() => void this.run(), this.debounceMs);
  }

  /** Search now for the current query (Enter before the pause ended, or a retry). */
  async run(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const q = this.query.trim();
    if (!q) return;
    this.#abort?.abort();
    const tooLong = tooLongQuery(q);
    if (tooLong) {
      this.#problem = { tooLong: q };
      this.results = [];
      this.nextCursor = null;
      this.active = -1;
      this.loading = false;
      return;
    }
    const abort = (this.#abort = new AbortController());
    this.loading = true;
    try {
      const page = await searchLibrary(this.host.api, q, { limit: SEARCH_PAGE, signal: abort.signal });
      if (abort.signal.aborted) return;
      this.results = page.data;
      this.nextCursor = page.next_cursor;
      this.searched = q;
      this.#problem = null;
      this.active = page.data.length ? 0 : -1;
    } catch (err) {
      if (abort.signal.aborted) return;
      this.#problem = { failure: err };
      this.results = [];
      this.nextCursor = null;
      this.active = -1;
    } finally {
      if (this.#abort === abort) this.loading = false;
    }
  }

  async more(): Promise<void> {
    const cursor = this.nextCursor;
    if (!cursor || this.loading) return;
    const abort = (this.#abort = new AbortController());
    this.loading = true;
    try {
      const page = await searchLibrary(this.host.api, this.searched, { limit: SEARCH_PAGE, cursor, signal: abort.signal });
      if (abort.signal.aborted) return;
      this.results = [...this.results, ...page.data];
      this.nextCursor = page.next_cursor;
    } catch (err) {
      if (!abort.signal.aborted) this.#problem = { failure: err };
    } finally {
      if (this.#abort === abort) this.loading = false;
    }
  }

  /** Arrow keys: move through the results, wrapping at the ends. */
  move(delta: number): void {
    const n = this.results.length;
    if (!n) return;
    this.active = ((this.active < 0 ? (delta > 0 ? -1 : 0) : this.active) + delta + n) % n;
  }

  get current(): SearchHit | null {
    return this.results[this.active] ?? null;
  }
}
