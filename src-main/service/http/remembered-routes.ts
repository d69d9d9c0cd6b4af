/**
 * The app's router: Hono's TrieRouter, with the answers for recently asked paths remembered.
 *
 * Why not Hono's default (SmartRouter trying RegExpRouter first): RegExpRouter finds a route with one regular
 * expression match, so it cannot hold a parameter and a fixed segment at the same place of two paths, and this API has
 * several by design: `/v1/jobs` beside `/v1/:product/:jobId`, `/v1/:product/batch/:batchId` beside
 * `/v1/:product/:jobId`, `/v1/local/models/import` beside `/v1/local/models/:id/download` (the route the fallback was
 * first noticed on; removing it alone changes nothing). It refuses the table (UnsupportedPathError) and SmartRouter
 * falls back to TrieRouter anyway, so that is named here directly.
 *
 * TrieRouter walks its tree on every request (5–15 µs for this table on the development machine, a tenth of what
 * the service adds to a poll of a job, bench/api-overhead.ts). A client polls the same few paths over and over, and a
 * path's match never changes once the routes are added, so the last REMEMBERED_PATHS answers are kept (short paths
 * only, so the memory stays small whatever clients send).
 */
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths whose match is kept. Default 512; the oldest is forgotten past it. */
export const REMEMBERED_PATHS = 512;
/** Longer paths are matched every time (they are never polled; a cap keeps the memory to about 100 KB). */
const MAX_REMEMBERED_PATH = 200;

export class RememberedRoutes<T> implements Router<T> {
  readonly name = 'RememberedRoutes(TrieRouter)';
  private readonly inner = new TrieRouter<T>();
  private readonly answers = new Map<string, Result<T>>();

  /**
   * `shape` rewrites an answer once before it is kept (the app folds its gates into the route: route-gates.ts);
   * answers are otherwise TrieRouter's own.
   */
  constructor(
    private readonly size = REMEMBERED_PATHS,
    private readonly shape: (result: Result<T>) => Result<T> = (result) => result,
  ) {}

  add(method: string, path: string, handler: T): void {
    this.answers.clear();
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_REMEMBERED_PATH) return this.shape(this.inner.match(method, path));
    const key = `${method} ${path}`;
    const known = this.answers.get(key);
    if (known) return known;
    const result = this.shape(this.inner.match(method, path));
    if (this.answers.size >= this.size) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, result);
    return result;
  }
}
