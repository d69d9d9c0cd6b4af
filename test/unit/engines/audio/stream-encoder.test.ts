/**
 * Every output format, streamed: the bytes arrive while audio is still being pushed, the finished file (with late
 * header fix-ups applied) is what ffprobe reads as the right codec, rate and length, and the in-order stream is a
 * playable file too. Opus and FLAC run through both ffmpeg and libav.js (VOXDESK_FFMPEG=none); AAC without ffmpeg
 * is refused with the list of formats this machine can make.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { inOrderOnly } from '../../../../src-main/engines/audio/encoded-sink.js';
import { availableOutputFormats, createSpeechEncoder, OUTPUT_FORMATS, type OutputFormat } from '../../../../src-main/engines/audio/stream-encoder.js';

const RATE = 22050;
const second = Float32Array.from({ length: RATE }, (_, i) => 0.4 * Math.sin((2 * Math.PI * 300 * i) / RATE));
const dir = mkdtempSync(join(tmpdir(), 'vox-enc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const savedFfmpeg = process.env.VOXDESK_FFMPEG;
afterEach(() => {
  if (savedFfmpeg === undefined) delete process.env.VOXDESK_FFMPEG;
  else process.env.VOXDESK_FFMPEG = savedFfmpeg;
});

interface Probe {
  codec_name: string;
  sample_rate: string;
  channels: number;
}

function probe(path: string, extra: string[] = []): { stream: Probe; seconds: number } {
  const out = execFileSync('ffprobe', ['-v', 'error', ...extra, '-show_entries', 'stream=codec_name,sample_rate,channels', '-of', 'json', path]).toString();
  const stream = (JSON.parse(out) as { streams: Probe[] }).streams[0]!;
  // Decode it all: the true length, whatever the container's header says.
  const pcm = execFileSync('ffmpeg', ['-v', 'error', ...extra, '-i', path, '-f', 's16le', '-ac', '1', '-ar', '8000', '-']);
  return { stream, seconds: pcm.length / 2 / 8000 };
}

async function encode(format: OutputFormat, sampleRate: number, channels: 1 | 2) {
  const writes: { bytes: Uint8Array; position: number; pushed: number }[] = [];
  const streamed: Uint8Array[] = [];
  const forward = inOrderOnly((b) => streamed.push(Uint8Array.from(b)));
  let pushed = 0;
  const encoder = await createSpeechEncoder({ format, sampleRate, channels }, RATE, (bytes, position) => {
    writes.push({ bytes: Uint8Array.from(bytes), position, pushed });
    forward(bytes, position);
  });
  for (let i = 0; i < 3; i++) {
    await encoder.push(second);
    // ffmpeg answers asynchronously: wait (generously, the machine may be loaded) for the first bytes to come back.
    for (let waited = 0; i === 0 && writes.length === 0 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    pushed++;
  }
  const { durationSeconds } = await encoder.finish();
  const size = writes.reduce((n, w) => Math.max(n, w.position + w.bytes.length), 0);
  const file = new Uint8Array(size);
  for (const w of writes) file.set(w.bytes, w.position);
  return { encoder, durationSeconds, file, stream: Buffer.concat(streamed), earlyBytes: writes.filter((w) => w.pushed < 3).length };
}

const CODECS: Record<OutputFormat, string> = { wav: 'pcm_s16le', pcm: 'pcm_s16le', mp3: 'mp3', opus: 'opus', aac: 'aac', flac: 'flac' };

describe('streamed speech encoders', () => {
  for (const backend of ['ffmpeg', 'libav.js'] as const) {
    for (const format of OUTPUT_FORMATS) {
      if (backend === 'libav.js' && !['opus', 'flac'].includes(format)) continue;
      it(`${format}${backend === 'libav.js' ? ' without ffmpeg (libav.js)' : ''}: bytes before the end, a file and a stream that both play for 3 s`, async () => {
        if (backend === 'libav.js') process.env.VOXDESK_FFMPEG = 'none';
        const { encoder, durationSeconds, file, stream, earlyBytes } = await encode(format, 24000, format === 'flac' ? 2 : 1);
        expect(durationSeconds).toBeCloseTo(3, 2);
        expect(earlyBytes).toBeGreaterThan(0);
        const extra = format === 'pcm' ? ['-f', 's16le', '-ar', '24000', '-ac', '1'] : [];
        for (const [name, bytes] of [
          ['file', file],
          ['stream', stream],
        ] as const) {
          const path = join(dir, `${backend}-${name}.${encoder.extension}`);
          writeFileSync(path, bytes);
          const { stream: info, seconds } = probe(path, extra);
          expect(info.codec_name).toBe(CODECS[format]);
          expect(Number(info.sample_rate)).toBe(encoder.sampleRate);
          expect(info.channels).toBe(format === 'flac' ? 2 : 1);
          expect(seconds).toBeGreaterThan(2.9);
          expect(seconds).toBeLessThan(3.2);
        }
        if (format === 'opus') expect(encoder.sampleRate).toBe(48000);
      });
    }
  }

  it('without ffmpeg, aac is refused and the message names the formats this machine can make', async () => {
    process.env.VOXDESK_FFMPEG = 'none';
    expect(availableOutputFormats()).toEqual(['wav', 'pcm', 'mp3', 'opus', 'flac']);
    await expect(createSpeechEncoder({ format: 'aac', sampleRate: 24000, channels: 1 }, RATE, () => {})).rejects.toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('it can make wav, pcm, mp3, opus, flac'),
    });
  });
});
