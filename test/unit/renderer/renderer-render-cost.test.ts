/** Renderer helpers that keep redraws small (structural sharing of polled lists, progressive slices), plain Node. */
import { describe, expect, it } from 'vitest';
import { share, shareById } from '../../../src-renderer/src/lib/structural-share.js';
import { nextLimit } from '../../../src-renderer/src/lib/progressive-slice.js';
import { multipartBody, quoteName } from '../../../src-renderer/src/lib/multipart-body.js';
import busboy from 'busboy';

interface Parsed {
  fields: [string, string][];
  files: { field: string; filename: string; type: string; text: string }[];
}

/** Parse a body with busboy, the parser the service uses. */
async function parse(body: Blob): Promise<Parsed> {
  const out: Parsed = { fields: [], files: [] };
  const bb = busboy({ headers: { 'content-type': body.type } });
  const done = new Promise<void>((resolve, reject) => {
    bb.on('field', (name, value) => out.fields.push([name, value]));
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => out.files.push({ field, filename: info.filename ?? '', type: info.mimeType, text: Buffer.concat(chunks).toString() }));
    });
    bb.on('close', resolve);
    bb.on('error', reject);
  });
  bb.end(Buffer.from(await body.arrayBuffer()));
  await done;
  return out;
}

interface Row {
  id: string;
  status: string;
  progress: number | null;
  result: { text: string; words: { word: string; start: number }[] } | null;
}

const row = (id: string, status = 'queued', progress: number | null = null): Row => ({ id, status, progress, result: null });
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('share', () => {
  it('returns the previous object when the fresh one is deep-equal', () => {
    const prev = { a: 1, b: [1, 2, { c: 'x' }], d: null };
    expect(share(prev, clone(prev))).toBe(prev);
  });

  it('keeps unchanged branches and replaces only the changed ones', () => {
    const prev = { keep: { words: [{ word: 'a' }] }, change: { n: 1 } };
    const next = { keep: { words: [{ word: 'a' }] }, change: { n: 2 } };
    const out = share(prev, next);
    expect(out).not.toBe(prev);
    expect(out).toEqual(next);
    expect(out.keep).toBe(prev.keep);
  });

  it('sees added, removed and type-changed fields', () => {
    expect(share({ a: 1 } as object, { a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(share({ a: 1, b: 2 } as object, { a: 1 })).toEqual({ a: 1 });
    expect(share({ a: 1, b: undefined } as object, { a: 1, c: undefined })).toEqual({ a: 1, c: undefined });
    expect(share({ a: [1] } as object, { a: { 0: 1 } })).toEqual({ a: { 0: 1 } });
    expect(share([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
    expect(share(null, { a: 1 })).toEqual({ a: 1 });
    expect(share({ a: 1 }, null)).toBeNull();
  });
});

describe('shareById', () => {
  it('returns the previous array when nothing changed', () => {
    const prev = [row('a'), row('b')];
    expect(shareById(prev, clone(prev))).toBe(prev);
  });

  it('keeps unchanged items by id when new items shift the positions', () => {
    const prev = [row('b', 'running', 0.5), row('a', 'succeeded')];
    const next = [row('c'), row('b', 'running', 0.6), row('a', 'succeeded')];
    const out = shareById(prev, next);
    expect(out.map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(out[2]).toBe(prev[1]);
    expect(out[1]).not.toBe(prev[0]);
    expect(out[1]!.progress).toBe(0.6);
  });

  it('drops items that are gone and keeps a finished result object stable across polls', () => {
    const done: Row = { ...row('a', 'succeeded'), result: { text: 'hi there', words: [{ word: 'hi', start: 0 }] } };
    const first = shareById([], [done, row('b')]);
    const second = shareById(first, [clone(done)]);
    expect(second).toHaveLength(1);
    expect(second[0]).toBe(first[0]);
    expect(second[0]!.result).toBe(done.result);
  });
});

describe('nextLimit', () => {
  it('extends by `step` rows of weight 1 and stops at the total', () => {
    expect(nextLimit(0, 50, 12)).toBe(12);
    expect(nextLimit(12, 50, 12)).toBe(24);
    expect(nextLimit(48, 50, 12)).toBe(50);
    expect(nextLimit(50, 50, 12)).toBe(50);
    expect(nextLimit(0, 0, 12)).toBe(0);
  });

  it('weighs rows (words per paragraph) and always makes progress past a heavy row', () => {
    const words = [100, 150, 100, 2000, 10];
    const weight = (i: number) => words[i]!;
    expect(nextLimit(0, words.length, 300, weight)).toBe(2);
    expect(nextLimit(2, words.length, 300, weight)).toBe(3);
    expect(nextLimit(3, words.length, 300, weight)).toBe(4);
    expect(nextLimit(4, words.length, 300, weight)).toBe(5);
  });
});

describe('multipartBody', () => {
  it('builds a body busboy parses into the same fields and files, in order, across several slices', async () => {
    const files = Array.from({ length: 11 }, (_, i) => ['file', { file: new Blob([`audio ${i}`], { type: i % 2 ? 'audio/wav' : '' }), filename: `take ${i}.wav` }] as const);
    const body = await multipartBody([['model', 'pocketsphinx-en-us'], ['params', '{}']], files, { filesPerSlice: 4 });
    expect(body.type).toMatch(/^multipart\/form-data; boundary=----voxdesk-[0-9a-f]{32}$/);
    const parsed = await parse(body);
    expect(parsed.fields).toEqual([['model', 'pocketsphinx-en-us'], ['params', '{}']]);
    expect(parsed.files.map((f) => f.filename)).toEqual(files.map(([, f]) => f.filename));
    expect(parsed.files.map((f) => f.text)).toEqual(files.map((_, i) => `audio ${i}`));
    expect(parsed.files[0]!.type).toBe('application/octet-stream');
    expect(parsed.files[1]!.type).toBe('audio/wav');
  });

  it('quotes awkward filenames as browsers do and lowercases a given boundary', async () => {
    expect(quoteName('a"b\r\nc')).toBe('"a%22b%0D%0Ac"');
    const body = await multipartBody([], [['file', { file: new Blob(['x']), filename: 'say "hi".wav' }]], { boundary: 'ABC123' });
    expect(body.type).toBe('multipart/form-data; boundary=abc123');
    const parsed = await parse(body);
    expect(parsed.files).toEqual([{ field: 'file', filename: 'say %22hi%22.wav', type: 'application/octet-stream', text: 'x' }]);
  });

  it('sends an empty file list as a body with only the fields', async () => {
    const parsed = await parse(await multipartBody([['model', 'm']], []));
    expect(parsed).toEqual({ fields: [['model', 'm']], files: [] });
  });
});
