import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pcm16WavBlocks, plainPcm16Wav } from '../../../../src-main/engines/audio/wav-pcm16.js';
import { ffmpeg, makeTempDir } from '../../../helpers/audio-fixtures.js';
import { SHARED } from '../../../helpers/system.js';

const JFK = join(SHARED, 'audio/jfk.wav'); // 16 kHz mono PCM16, 11 s
const temp = makeTempDir('voxdesk-wav-pcm16-');
afterAll(() => temp.cleanup());

/** What ffmpeg decodes, as PCM16: the samples the reader must give. */
function ffmpegSamples(file: string): Int16Array {
  const bytes = execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '16000', '-']);
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

async function collect(blocks: AsyncIterable<Int16Array>): Promise<{ samples: Int16Array; sizes: number[] }> {
  const parts: Int16Array[] = [];
  for await (const block of blocks) parts.push(block.slice());
  const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return { samples, sizes: parts.map((p) => p.length) };
}

describe('plain PCM16 mono WAV read from disk', () => {
  it('gives the samples ffmpeg decodes, in blocks, and the exact length', async () => {
    const wav = await plainPcm16Wav(JFK, 16_000);
    expect(wav).toMatchObject({ samples: 176_000, sampleRate: 16_000 });
    const { samples, sizes } = await collect(pcm16WavBlocks(JFK, wav!, 0, 16_000));
    expect(samples).toEqual(ffmpegSamples(JFK));
    expect(sizes).toEqual(Array(11).fill(16_000));
  });

  it('starts at a sample (a resume) and ends with a short block; past the end gives nothing', async () => {
    const wav = (await plainPcm16Wav(JFK, 16_000))!;
    const { samples, sizes } = await collect(pcm16WavBlocks(JFK, wav, 40_001, 16_000));
    expect(samples).toEqual(ffmpegSamples(JFK).subarray(40_001));
    expect(sizes.at(-1)).toBe((176_000 - 40_001) % 16_000);
    expect((await collect(pcm16WavBlocks(JFK, wav, 176_000, 16_000))).samples.length).toBe(0);
  });

  it('reads past chunks before the data (LIST) and WAVE_FORMAT_EXTENSIBLE', async () => {
    const tagged = join(temp.dir, 'tagged.wav');
    ffmpeg(['-i', JFK, '-metadata', 'title=a title long enough to matter', '-c:a', 'pcm_s16le', tagged]);
    expect(readFileSync(tagged).includes('LIST')).toBe(true);
    const wav = await plainPcm16Wav(tagged, 16_000);
    expect(wav?.samples).toBe(176_000);
    expect((await collect(pcm16WavBlocks(tagged, wav!, 0, 16_000))).samples).toEqual(ffmpegSamples(JFK));
    // An extensible header, written by hand: format tag 0xFFFE with the PCM sub-format.
    const plain = readFileSync(JFK);
    const data = plain.subarray(plain.indexOf('data') + 8);
    const fmt = Buffer.alloc(8 + 40);
    fmt.write('fmt ', 0, 'latin1');
    fmt.writeUInt32LE(40, 4);
    fmt.writeUInt16LE(0xfffe, 8);
    fmt.writeUInt16LE(1, 10);
    fmt.writeUInt32LE(16_000, 12);
    fmt.writeUInt32LE(32_000, 16);
    fmt.writeUInt16LE(2, 20);
    fmt.writeUInt16LE(16, 22);
    fmt.writeUInt16LE(22, 24);
    fmt.writeUInt16LE(16, 26);
    fmt.writeUInt32LE(4, 28); // channel mask: front centre
    fmt.writeUInt16LE(1, 32); // sub-format GUID starts with the PCM tag
    const head = Buffer.alloc(12);
    head.write('RIFF', 0, 'latin1');
    head.write('WAVE', 8, 'latin1');
    const dataHead = Buffer.alloc(8);
    dataHead.write('data', 0, 'latin1');
    dataHead.writeUInt32LE(data.length, 4);
    const file = Buffer.concat([head, fmt, dataHead, data]);
    file.writeUInt32LE(file.length - 8, 4);
    const extensible = join(temp.dir, 'extensible.wav');
    writeFileSync(extensible, file);
    expect((await plainPcm16Wav(extensible, 16_000))?.samples).toBe(176_000);
  });

  it('anything else is left to ffmpeg: another rate, stereo, float, a streamed or truncated WAV, not a WAV', async () => {
    const cases: [string, string[]][] = [
      ['rate.wav', ['-i', JFK, '-ar', '22050', '-c:a', 'pcm_s16le']],
      ['stereo.wav', ['-i', JFK, '-ac', '2', '-c:a', 'pcm_s16le']],
      ['float.wav', ['-i', JFK, '-c:a', 'pcm_f32le']],
      ['mp3.wav', ['-i', JFK, '-f', 'mp3']],
    ];
    for (const [name, args] of cases) {
      const file = join(temp.dir, name);
      ffmpeg([...args, file]);
      expect(await plainPcm16Wav(file, 16_000), name).toBeNull();
    }
    // Written to a pipe, ffmpeg cannot go back to fill in the sizes.
    const streamed = join(temp.dir, 'streamed.wav');
    writeFileSync(streamed, execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', JFK, '-c:a', 'pcm_s16le', '-f', 'wav', '-']));
    expect(await plainPcm16Wav(streamed, 16_000)).toBeNull();
    const truncated = join(temp.dir, 'truncated.wav');
    writeFileSync(truncated, readFileSync(JFK).subarray(0, 20_000));
    expect(await plainPcm16Wav(truncated, 16_000)).toBeNull();
    expect(await plainPcm16Wav(join(temp.dir, 'missing.wav'), 16_000)).toBeNull();
    expect(await plainPcm16Wav(JFK, 8_000)).toBeNull();
  });

  it('an empty WAV (header only) has no samples', async () => {
    const empty = join(temp.dir, 'empty.wav');
    ffmpeg(['-i', JFK, '-t', '0', '-c:a', 'pcm_s16le', empty]);
    const wav = await plainPcm16Wav(empty, 16_000);
    expect(wav?.samples).toBe(0);
    expect((await collect(pcm16WavBlocks(empty, wav!, 0, 16_000))).sizes).toEqual([]);
  });
});
