/** A live session's recording written as it arrives: a valid WAV of exactly what was written, private to its owner. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import { WavStreamWriter } from '../../../../src-main/engines/audio/wav-stream-writer.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('WavStreamWriter', () => {
  it('writes PCM16 frames into a WAV whose header says their length and rate', async () => {
    dir = mkdtempSync(join(tmpdir(), 'voxdesk-wav-'));
    const path = join(dir, 'rec.wav');
    const writer = new WavStreamWriter(path, 22050);
    const samples = Int16Array.from({ length: 3000 }, (_, i) => Math.round(Math.sin(i / 10) * 10000));
    for (let at = 0; at < samples.length; at += 1000) writer.write(new Uint8Array(samples.buffer, at * 2, 2000));
    expect(writer.dataBytes).toBe(6000);
    await writer.finish();
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(44 + 6000);
    const wav = decodeWav(bytes);
    expect(wav.sampleRate).toBe(22050);
    expect(wav.channels[0]!.length).toBe(3000);
    expect(Math.round(wav.channels[0]![10]! * 32768)).toBe(samples[10]);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('an empty recording is a valid WAV of no samples', async () => {
    dir = mkdtempSync(join(tmpdir(), 'voxdesk-wav-'));
    const writer = new WavStreamWriter(join(dir, 'empty.wav'), 16000);
    await writer.finish();
    expect(readFileSync(join(dir, 'empty.wav')).readUInt32LE(40)).toBe(0);
  });
});
