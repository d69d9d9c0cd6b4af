/**
 * Resource ids: a prefix, a time-sortable part (ms since epoch, base36, fixed width) and 14 random base62 chars,
 * incremented instead of redrawn within one millisecond so ids of one process sort in creation order.
 */
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix = 'job' | 'bat' | 'art' | 'acc' | 'key' | 'spk' | 'voice';

/** `length` characters drawn uniformly from [0-9A-Za-z] (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

let lastMs = -1;
let lastRandom = '';

/** Adds one to a base62 string (ULID-style monotonic ids within one millisecond). */
function increment(value: string): string {
  const digits = [...value];
  for (let i = digits.length - 1; i >= 0; i--) {
    const next = BASE62.indexOf(digits[i]!) + 1;
    if (next < 62) {
      digits[i] = BASE62[next]!;
      return digits.join('');
    }
    digits[i] = '0';
  }
  return randomBase62(value.length); // 62^14 ids in one ms: practically unreachable
}

/** Ids made in this process sort in creation order, even within one millisecond. */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  if (nowMs === lastMs) {
    lastRandom = increment(lastRandom);
  } else {
    lastMs = nowMs;
    lastRandom = randomBase62(14);
  }
  return `${prefix}_${lastMs.toString(36).padStart(10, '0')}${lastRandom}`;
}

/** 32 random bytes, base64url: the unguessable part of artifact links. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
