import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileResponse, SMALL_FILE_BYTES } from '../../../../src-main/service/http/file-response.js';

let dir: string;
const files: Record<string, Buffer> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-file-response-'));
  // A short clip is read at once, a long one streamed: both must answer byte for byte alike.
  files.short = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
  files.long = Buffer.from(Array.from({ length: SMALL_FILE_BYTES + 1000 }, (_, i) => i % 253));
  files.empty = Buffer.alloc(0);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function get(name: string, range?: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const bytes = files[name]!;
  const response = fileResponse({ path: join(dir, name), size: bytes.length, contentType: 'audio/wav' }, range);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

describe('file responses', () => {
  for (const name of ['short', 'long']) {
    it(`serve a ${name} file whole and by single byte ranges`, async () => {
      const bytes = files[name]!;
      const whole = await get(name);
      expect(whole.status).toBe(200);
      expect(whole.body.equals(bytes)).toBe(true);
      expect(whole.headers.get('content-length')).toBe(String(bytes.length));
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(whole.headers.get('x-content-type-options')).toBe('nosniff');

      const part = await get(name, 'bytes=10-19');
      expect(part.status).toBe(206);
      expect(part.body.equals(bytes.subarray(10, 20))).toBe(true);
      expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
      expect(part.headers.get('content-length')).toBe('10');

      const tail = await get(name, 'bytes=-5');
      expect(tail.body.equals(bytes.subarray(bytes.length - 5))).toBe(true);
      const open = await get(name, 'bytes=990-');
      expect(open.body.equals(bytes.subarray(990))).toBe(true);

      const past = await get(name, `bytes=${bytes.length}-`);
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    });
  }

  it('serve an empty file', async () => {
    const empty = await get('empty');
    expect(empty.status).toBe(200);
    expect(empty.body.length).toBe(0);
    expect(empty.headers.get('content-length')).toBe('0');
  });

  it('stream a short file that vanished since its stat, failing there as before', async () => {
    const response = fileResponse({ path: join(dir, 'gone'), size: 10, contentType: 'audio/wav' }, undefined);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });
});
