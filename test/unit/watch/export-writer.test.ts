/** The no-clobber export writer on a real temp folder: free names, numbered names, rewrites, no temp files left. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeExportFile } from '../../../src-main/watch/export-writer.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-export-writer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('writeExportFile', () => {
  it('writes the plain name when it is free, and creates the folder', async () => {
    const out = join(dir, 'a', 'b');
    expect(await writeExportFile(out, 'talk', 'srt', bytes('one'))).toBe(join(out, 'talk.srt'));
    expect(readFileSync(join(out, 'talk.srt'), 'utf8')).toBe('one');
    expect(readdirSync(out)).toEqual(['talk.srt']);
  });

  it('never replaces a file the person made: (1), (2), … and leaves no temporary file', async () => {
    writeFileSync(join(dir, 'talk.srt'), 'mine');
    writeFileSync(join(dir, 'talk (1).srt'), 'also mine');
    expect(await writeExportFile(dir, 'talk', 'srt', bytes('new'))).toBe(join(dir, 'talk (2).srt'));
    expect(readFileSync(join(dir, 'talk.srt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(dir, 'talk (1).srt'), 'utf8')).toBe('also mine');
    expect(readFileSync(join(dir, 'talk (2).srt'), 'utf8')).toBe('new');
    expect(readdirSync(dir).sort()).toEqual(['talk (1).srt', 'talk (2).srt', 'talk.srt']);
  });

  it('takes a name that already holds exactly these bytes as written before (a restart), and adds nothing', async () => {
    writeFileSync(join(dir, 'talk.txt'), 'mine');
    expect(await writeExportFile(dir, 'talk', 'txt', bytes('export'))).toBe(join(dir, 'talk (1).txt'));
    expect(await writeExportFile(dir, 'talk', 'txt', bytes('export'))).toBe(join(dir, 'talk (1).txt'));
    expect(readdirSync(dir).sort()).toEqual(['talk (1).txt', 'talk.txt']);
  });

  it('keeps names with dots, spaces and non-Latin letters', async () => {
    expect(await writeExportFile(dir, 'Réunion 3.1 – équipe', 'vtt', bytes('WEBVTT'))).toBe(join(dir, 'Réunion 3.1 – équipe.vtt'));
  });

  it('rejects when the folder cannot be made, leaving nothing behind', async () => {
    writeFileSync(join(dir, 'file'), 'x');
    await expect(writeExportFile(join(dir, 'file', 'sub'), 'talk', 'srt', bytes('x'))).rejects.toThrow(/EEXIST|ENOTDIR/);
    expect(readdirSync(dir)).toEqual(['file']);
  });
});
