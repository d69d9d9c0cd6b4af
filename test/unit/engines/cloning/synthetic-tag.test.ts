import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWav, encodeWav } from '../../../../src-main/engines/audio/wav.js';
import { SYNTHETIC_COMMENT, tagSyntheticWav } from '../../../../src-main/engines/cloning/synthetic-tag.js';

const dir = mkdtempSync(join(tmpdir(), 'voxdesk-synthetic-tag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The RIFF chunks of a WAV file, in order: id and size. */
function chunks(bytes: Buffer): Array<{ id: string; size: number; at: number }> {
  const out = [];
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32LE(at + 4);
    out.push({ id: bytes.toString('ascii', at, at + 4), size, at });
    at += 8 + size + (size % 2);
  }
  return out;
}

describe('tagSyntheticWav', () => {
  it('appends a LIST/INFO chunk with the comment and brings the RIFF size up to date; the audio reads the same', async () => {
    const samples = Float32Array.from({ length: 2401 }, (_, i) => 0.2 * Math.sin(i / 3));
    const path = join(dir, 'speech.wav');
    writeFileSync(path, encodeWav([samples], 24000));
    expect(await tagSyntheticWav(path)).toBe(true);
    const bytes = readFileSync(path);
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    const list = chunks(bytes).find((c) => c.id === 'LIST')!;
    expect(list).toBeDefined();
    expect(list.at % 2).toBe(0);
    expect(bytes.toString('ascii', list.at + 8, list.at + 12)).toBe('INFO');
    expect(bytes.toString('utf8', list.at, list.at + 8 + list.size)).toContain(SYNTHETIC_COMMENT);
    const wav = decodeWav(new Uint8Array(bytes));
    expect(wav.sampleRate).toBe(24000);
    expect(wav.channels[0]!.length).toBe(samples.length);
  });

  it('leaves a file that is not a WAV as it is', async () => {
    const path = join(dir, 'speech.mp3');
    writeFileSync(path, Buffer.from('ID3 not a wave file'));
    expect(await tagSyntheticWav(path)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('ID3 not a wave file');
  });
});
