/**
 * One way for a request's files to reach the disk: only the upload budget (service/uploads/upload-budget.ts) calls
 * the multipart reader, so a new upload route cannot forget the per-account limits (trust review 2, item 4: the
 * OpenAI-compatible route did).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

describe('uploads', () => {
  it('only the upload budget reads multipart bodies to disk', () => {
    const callers = sources(join(root, 'src-main'))
      .filter((file) => /\breceiveMultipart\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(callers.sort()).toEqual(['src-main/service/uploads/multipart.ts', 'src-main/service/uploads/upload-budget.ts']);
  });
});
