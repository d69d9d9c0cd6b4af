import decode from 'audio-decode';
import { describe, expect, it } from 'vitest';
import { encodeOutput, outputOptionsFromParams } from '../../../../src-main/engines/audio/encode.js';
import { splitSentences } from '../../../../src-main/engines/audio/sentences.js';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';

const RATE = 22050;
const tone = Float32Array.from({ length: RATE }, (_, i) => 0.4 * Math.sin((2 * Math.PI * 300 * i) / RATE));

describe('encodeOutput', () => {
  it('wav at the source rate, mono', async () => {
    const out = await encodeOutput(tone, RATE, outputOptionsFromParams({}));
    expect(out).toMatchObject({ contentType: 'audio/wav', extension: 'wav', sampleRate: RATE, channels: 1, durationSeconds: 1 });
    const back = decodeWav(out.bytes);
    expect(back.sampleRate).toBe(RATE);
    expect(back.channels).toHaveLength(1);
    expect(back.channels[0]!.length).toBe(RATE);
  });

  it('wav resampled to 48 kHz stereo', async () => {
    const out = await encodeOutput(tone, RATE, outputOptionsFromParams({ output_sample_rate: 48000, output_channels: 2 }));
    const back = decodeWav(out.bytes);
    expect(back.sampleRate).toBe(48000);
    expect(back.channels).toHaveLength(2);
    expect(back.channels[1]!.length).toBe(48000);
    expect(out.durationSeconds).toBe(1);
  });

  it('pcm: raw s16le, interleaved, 2 bytes per sample per channel', async () => {
    const out = await encodeOutput(tone, RATE, outputOptionsFromParams({ output_format: 'pcm', output_sample_rate: 16000, output_channels: 2 }));
    expect(out.contentType).toBe('audio/pcm;rate=16000;channels=2;encoding=s16le');
    expect(out.bytes.length).toBe(16000 * 2 * 2);
    const view = new Int16Array(out.bytes.buffer, out.bytes.byteOffset, out.bytes.length / 2);
    expect(view[2000]).toBe(view[2001]); // L == R
  });

  it('mp3 decodes back to the same length and rate (within one MPEG frame of padding)', async () => {
    const out = await encodeOutput(tone, RATE, outputOptionsFromParams({ output_format: 'mp3', output_sample_rate: 24000 }));
    expect(out.contentType).toBe('audio/mpeg');
    const back = await decode(out.bytes);
    expect(back.sampleRate).toBe(24000);
    expect(Math.abs(back.channelData[0]!.length - 24000)).toBeLessThanOrEqual(1152 * 2);
    let energy = 0;
    for (const s of back.channelData[0]!.subarray(4000, 20000)) energy += s * s;
    expect(Math.sqrt(energy / 16000)).toBeGreaterThan(0.2);
  });

  it('rejects bad output params with invalid_params', async () => {
    for (const params of [
      { output_format: 'ogg' },
      { output_sample_rate: 7999 },
      { output_sample_rate: 'native' },
      { output_channels: 3 },
    ]) {
      expect(() => outputOptionsFromParams(params)).toThrow(expect.objectContaining({ code: 'invalid_params' }));
    }
    await expect(encodeOutput(tone, RATE, outputOptionsFromParams({ output_format: 'mp3', output_sample_rate: 44000 }))).rejects.toMatchObject({
      code: 'invalid_params',
    });
  });
});

describe('splitSentences', () => {
  it('splits on sentence ends, keeps abbreviations-with-no-space, drops punctuation-only pieces', () => {
    expect(splitSentences('Hello, world! This is a test. Version 1.5 works?  Yes')).toEqual([
      'Hello, world!',
      'This is a test.',
      'Version 1.5 works?',
      'Yes',
    ]);
    expect(splitSentences('... !!! ')).toEqual([]);
    expect(splitSentences('你好。世界！')).toEqual(['你好。', '世界！']);
  });

  it('cuts overlong sentences at commas or spaces', () => {
    const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const pieces = splitSentences(long, 120);
    expect(pieces.every((p) => p.length <= 120)).toBe(true);
    expect(pieces.join(' ')).toBe(long);
  });
});
