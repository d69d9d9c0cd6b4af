/**
 * JSON of values that cannot change, written once. A client polling a job asks for the same view over and over, and
 * jobs/job-view-cache.ts hands out the very same deeply frozen view while the database stands still: serialising it
 * again for every poll was a tenth of what the service added to a GET of a job over a bare `node:http` answer
 * (bench/api-overhead.ts). The text is kept beside the object (a WeakMap: it goes when the view goes) and only for
 * values frozen all the way down, checked once when the text is first made; anything else is serialised each time.
 */
import type { Context } from 'hono';

const texts = new WeakMap<object, string>();
const JSON_TYPE = { 'Content-Type': 'application/json' } as const;

function deeplyFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(deeplyFrozen);
}

/** `JSON.stringify(value)`, made once per deeply frozen object. */
export function frozenJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  const known = texts.get(value);
  if (known !== undefined) return known;
  const text = JSON.stringify(value);
  if (deeplyFrozen(value)) texts.set(value, text);
  return text;
}

/** A 200 JSON answer of `value`, as `c.json(value)` would send it, with the text from frozenJson. */
export function frozenJsonAnswer(c: Context, value: unknown): Response {
  return c.body(frozenJson(value), 200, JSON_TYPE);
}
