/** A batch's multipart body built in slices (src-renderer/src/transcribe/multipart-body.ts), parsed by busboy as the service does. */
import busboy from 'busboy';
import { describe, expect, it } from 'vitest';
import { multipartBody, quoteName } from '../../../../src-renderer/src/transcribe/multipart-body.js';

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
