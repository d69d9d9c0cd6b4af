import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import { decodeBlocks, sniffFormat, type DecodeOptions } from '../../../../src-main/engines/audio/decode.js';
import { probeDuration } from '../../../../src-main/engines/audio/probe.js';
import { ffmpeg, FORMATS, JFK, makeFixture, makeTempDir, type FixtureFormat } from '../../../helpers/audio-fixtures.js';

const temp = makeTempDir('voxdesk-decode-');
const files = {} as Record<FixtureFormat, string>;

beforeAll(() => {
  for (const format of Object.keys(FORMATS) as FixtureFormat[]) files[format] = makeFixture(temp.dir, format);
});
afterAll(() => temp.cleanup());

async function decodeAll(file: string, options: DecodeOptions = {}): Promise<{ samples: number; blocks: number[]; peak: number }> {
  const blocks: number[] = [];
  let peak = 0;
  for await (const block of decodeBlocks(file, options)) {
    blocks.push(block.length);
    for (const v of block) peak = Math.max(peak, Math.abs(v));
  }
  return { samples: blocks.reduce((a, b) => a + b, 0), blocks, peak };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(JobError);
    return (error as JobError).code;
  }
  return 'no error';
}

describe('decodeBlocks with ffmpeg', () => {
  it.each(Object.keys(FORMATS) as FixtureFormat[])('%s → 16 kHz mono of the right length', async (format) => {
    const { samples, peak } = await decodeAll(files[format], { decoder: 'ffmpeg' });
    // jfk.wav is 11.0 s; lossy encoders add up to a few tens of ms of padding.
    expect(samples / 16000).toBeGreaterThan(10.9);
    expect(samples / 16000).toBeLessThan(11.15);
    expect(peak).toBeGreaterThan(0.1);
  });

  it('yields fixed-size blocks (the last may be shorter)', async () => {
    const { blocks } = await decodeAll(JFK, { blockSamples: 16000 });
    expect(blocks.slice(0, -1).every((n) => n === 16000)).toBe(true);
    expect(blocks.reduce((a, b) => a + b, 0)).toBe(176000);
  });
});

describe('decodeBlocks with the WASM fallback (no ffmpeg)', () => {
  it.each(['wav', 'mp3', 'flac', 'ogg', 'opus', 'm4a'] as FixtureFormat[])('%s', async (format) => {
    const { samples, peak } = await decodeAll(files[format], { decoder: 'wasm' });
    expect(samples / 16000).toBeGreaterThan(10.8);
    expect(samples / 16000).toBeLessThan(11.2);
    expect(peak).toBeGreaterThan(0.1);
  });

  it('sniffs containers from their first bytes', () => {
    const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
    expect(sniffFormat(bytes('RIFF\0\0\0\0WAVEfmt '))).toBe('wav');
    expect(sniffFormat(bytes('fLaC'))).toBe('flac');
    expect(sniffFormat(bytes('OggS\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0OpusHead'))).toBe('opus');
    expect(sniffFormat(bytes('OggS\0\0\0\0\u0001vorbis'))).toBe('oga');
    expect(sniffFormat(bytes('\0\0\0\u0018ftypM4A '))).toBe('m4a');
    expect(sniffFormat(bytes('ID3\u0004'))).toBe('mp3');
    expect(sniffFormat(bytes('hello world'))).toBeNull();
  });
});

describe('bad input', () => {
  it.each(['ffmpeg', 'wasm'] as const)('a text file is audio_decode_failed (%s)', async (decoder) => {
    const file = join(temp.dir, 'notes.txt');
    writeFileSync(file, 'these are not the samples you are looking for\n'.repeat(50));
    expect(await codeOf(decodeAll(file, { decoder }))).toBe('audio_decode_failed');
    expect(await codeOf(probeDuration(file, { decoder }))).toBe('audio_decode_failed');
  });

  it('a WAV header followed by garbage is audio_decode_failed', async () => {
    const file = join(temp.dir, 'broken.wav');
    writeFileSync(file, Buffer.concat([Buffer.from('RIFF\u0010\0\0\0WAVEfmt '), Buffer.alloc(20, 0xff)]));
    expect(await codeOf(decodeAll(file, { decoder: 'ffmpeg' }))).toBe('audio_decode_failed');
  });

  it('an empty (0-byte) file is audio_decode_failed with a clear message', async () => {
    const file = join(temp.dir, 'empty.mp3');
    writeFileSync(file, '');
    await expect(decodeAll(file)).rejects.toThrow(/empty \(0 bytes\)/);
  });

  it('a missing file is audio_decode_failed', async () => {
    expect(await codeOf(decodeAll(join(temp.dir, 'nope.wav')))).toBe('audio_decode_failed');
  });

  it('a video without sound is audio_decode_failed', async () => {
    const file = join(temp.dir, 'silent-video.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=5:d=1', '-c:v', 'mpeg4', file]);
    expect(await codeOf(probeDuration(file))).toBe('audio_decode_failed');
  });
});

describe('probeDuration', () => {
  it.each(Object.keys(FORMATS) as FixtureFormat[])('%s ≈ 11 s', async (format) => {
    const seconds = await probeDuration(files[format]);
    expect(seconds).toBeGreaterThan(10.9);
    expect(seconds).toBeLessThan(11.2);
  });

  it('counts samples without ffprobe (WASM)', async () => {
    expect(await probeDuration(files.flac, { decoder: 'wasm' })).toBeCloseTo(11, 1);
  });

  it('a WAV with a header and no samples lasts 0 s', async () => {
    const file = join(temp.dir, 'zero.wav');
    ffmpeg(['-i', JFK, '-t', '0', file]);
    expect(await probeDuration(file)).toBe(0);
    expect((await decodeAll(file)).samples).toBe(0);
  });

  it('cancellation stops decoding with the cancelled code', async () => {
    const controller = new AbortController();
    const run = (async () => {
      for await (const _block of decodeBlocks(files.mp3, { signal: controller.signal, blockSamples: 1600 })) controller.abort();
    })();
    expect(await codeOf(run)).toBe('cancelled');
  });
});
