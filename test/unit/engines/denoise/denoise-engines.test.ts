import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import { s16leToFloat } from '../../../../src-main/engines/audio/pcm.js';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import { CLEAN_CLIP, GTCRN_MODEL, mixAtSnr, NOISY_CLIP, pinkNoise, readMono, rms, seededNoise, snrDb, writeMono } from '../../../helpers/denoise-fixtures.js';
import { DENOISERS, runDenoiser, type DenoiserKind } from '../../../helpers/run-denoiser.js';

const root = mkdtempSync(join(tmpdir(), 'voxdesk-denoise-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const clean = readMono(CLEAN_CLIP);

/**
 * SNR gains (dB) measured on this clip mixed at 5 dB (seed 7): white noise rnnoise +4.8, gtcrn +8.5; pink noise
 * rnnoise +4.7, gtcrn +5.8. The thresholds sit a little below.
 */
const MIN_GAIN_DB: Record<DenoiserKind, { white: number; pink: number }> = {
  rnnoise: { white: 3.5, pink: 3.5 },
  gtcrn: { white: 6.5, pink: 4.5 },
};

describe.each(DENOISERS)('%s engine', (kind) => {
  it('denoises the shared noisy clip into a WAV of the same duration that is not silent', async () => {
    const input = readMono(NOISY_CLIP);
    const { output, measured, progress } = await runDenoiser(kind, NOISY_CLIP, root);
    const artifact = output.artifacts[0]!;
    expect(artifact.contentType).toBe('audio/wav');
    const wav = decodeWav(readFileSync(artifact.path));
    expect(wav.sampleRate).toBe(input.sampleRate);
    expect(wav.channels).toHaveLength(1);
    expect(wav.channels[0]!.length).toBe(input.samples.length);
    expect(output.durationSeconds).toBeCloseTo(input.samples.length / input.sampleRate, 6);
    expect(measured[0]).toBeCloseTo(output.durationSeconds, 6);
    expect(artifact.durationSeconds).toBeCloseTo(output.durationSeconds, 6);
    expect(rms(wav.channels[0]!)).toBeGreaterThan(0.01);
    // Noise removed: the result is quieter than the noisy input, but keeps most of it.
    expect(rms(wav.channels[0]!)).toBeLessThan(rms(input.samples));
    expect(progress.at(-1)).toBe(1);
  });

  it.each(['white', 'pink'] as const)('raises the SNR of speech mixed with %s noise at 5 dB', async (noiseKind) => {
    const noise = noiseKind === 'white' ? seededNoise(clean.samples.length, 7) : pinkNoise(clean.samples.length, 7);
    const noisy = mixAtSnr(clean.samples, noise, 5);
    const file = writeMono(join(root, `${kind}-${noiseKind}-5db.wav`), noisy, clean.sampleRate);
    const before = snrDb(clean.samples, readMono(file).samples);
    const { output } = await runDenoiser(kind, file, root);
    const denoised = readMono(output.artifacts[0]!.path).samples;
    expect(denoised.length).toBe(clean.samples.length);
    const gain = snrDb(clean.samples, denoised) - before;
    expect(gain).toBeGreaterThan(MIN_GAIN_DB[kind][noiseKind]);
  });

  it('returns the input unchanged at strength 0 and a blend at 0.5', async () => {
    const input = readMono(NOISY_CLIP).samples;
    const dry = readMono((await runDenoiser(kind, NOISY_CLIP, root, { params: { strength: 0 } })).output.artifacts[0]!.path).samples;
    expect(dry.length).toBe(input.length);
    let worst = 0;
    for (let i = 0; i < input.length; i++) worst = Math.max(worst, Math.abs(dry[i]! - input[i]!));
    expect(worst).toBeLessThanOrEqual(1 / 32768);
    const wet = readMono((await runDenoiser(kind, NOISY_CLIP, root)).output.artifacts[0]!.path).samples;
    const half = readMono((await runDenoiser(kind, NOISY_CLIP, root, { params: { mix: 0.5 } })).output.artifacts[0]!.path).samples;
    let error = 0;
    for (let i = 0; i < input.length; i++) error = Math.max(error, Math.abs(half[i]! - (0.5 * wet[i]! + 0.5 * input[i]!)));
    expect(error).toBeLessThanOrEqual(2 / 32768);
  });

  it('writes raw PCM at a requested rate and channel count, of the same duration', async () => {
    const input = readMono(NOISY_CLIP);
    const { output } = await runDenoiser(kind, NOISY_CLIP, root, {
      params: { output_format: 'pcm', output_sample_rate: 48000, output_channels: 2 },
    });
    const artifact = output.artifacts[0]!;
    expect(artifact.contentType).toBe('audio/pcm;rate=48000;channels=2;encoding=s16le');
    expect(artifact.sampleRate).toBe(48000);
    expect(artifact.channels).toBe(2);
    const samples = s16leToFloat(readFileSync(artifact.path));
    expect(samples.length).toBe(2 * Math.round((input.samples.length * 48000) / input.sampleRate));
    expect(samples[1000]).toBe(samples[1001]);
    expect(rms(samples)).toBeGreaterThan(0.01);
  });

  it('keeps a stereo 44.1 kHz source at its rate and channels with "source"', async () => {
    const mono = readMono(NOISY_CLIP);
    const { resampleMono } = await import('../../../../src-main/engines/audio/resample.js');
    const up = await resampleMono(mono.samples, mono.sampleRate, 44100);
    const file = writeMono(join(root, `${kind}-stereo-44k.wav`), up, 44100, 2);
    const { output } = await runDenoiser(kind, file, root);
    const wav = decodeWav(readFileSync(output.artifacts[0]!.path));
    expect(wav.sampleRate).toBe(44100);
    expect(wav.channels).toHaveLength(2);
    expect(wav.channels[0]!.length).toBe(up.length);
    expect(wav.channels[1]).toEqual(wav.channels[0]);
    expect(output.durationSeconds).toBeCloseTo(up.length / 44100, 6);
  });

  it('keeps the full band of a 48 kHz source (strength 0 returns it bit-exact, a 12 kHz tone included)', async () => {
    const mono = readMono(NOISY_CLIP);
    const { resampleMono } = await import('../../../../src-main/engines/audio/resample.js');
    const up = await resampleMono(mono.samples, mono.sampleRate, 48000);
    for (let i = 0; i < up.length; i++) up[i] = 0.7 * up[i]! + 0.1 * Math.sin((2 * Math.PI * 12000 * i) / 48000);
    const file = writeMono(join(root, `${kind}-48k-tone.wav`), up, 48000);
    const input = readMono(file).samples;
    const { output } = await runDenoiser(kind, file, root, { params: { strength: 0 } });
    const out = readMono(output.artifacts[0]!.path);
    expect(out.sampleRate).toBe(48000);
    expect(out.samples.length).toBe(input.length);
    let worst = 0;
    for (let i = 0; i < input.length; i++) worst = Math.max(worst, Math.abs(out.samples[i]! - input[i]!));
    expect(worst).toBeLessThanOrEqual(1 / 32768);
  });

  it('fails audio longer than the model accepts with audio_too_long', async () => {
    const engineConfig = { ...(kind === 'gtcrn' ? { model: GTCRN_MODEL } : {}), maxAudioSeconds: 5 };
    await expect(runDenoiser(kind, NOISY_CLIP, root, { engineConfig })).rejects.toMatchObject({ code: 'audio_too_long' });
  });

  it('stops with JobError cancelled when the job is aborted mid-file', async () => {
    const controller = new AbortController();
    const long = new Float32Array(60 * 16000);
    const noisy = readMono(NOISY_CLIP).samples;
    for (let i = 0; i < long.length; i++) long[i] = noisy[i % noisy.length]!;
    const file = writeMono(join(root, `${kind}-cancel.wav`), long, 16000);
    const run = runDenoiser(kind, file, root, {
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.05) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'JobError', code: 'cancelled' });
  });

  it('fails a file that is not audio with audio_decode_failed', async () => {
    const file = join(root, `${kind}-not-audio.wav`);
    writeFileSync(file, 'this is a text file, not a recording\n'.repeat(20));
    await expect(runDenoiser(kind, file, root)).rejects.toMatchObject({ code: 'audio_decode_failed' });
  });

  it('rejects params it does not know with invalid_params', async () => {
    await expect(runDenoiser(kind, NOISY_CLIP, root, { params: { strength: 2 } })).rejects.toBeInstanceOf(JobError);
    await expect(runDenoiser(kind, NOISY_CLIP, root, { params: { loudness: 1 } })).rejects.toMatchObject({ code: 'invalid_params' });
  });
});

describe('gtcrn model file', () => {
  it('fails with model_unavailable when the model file is missing or the path is not absolute', async () => {
    await expect(runDenoiser('gtcrn', NOISY_CLIP, root, { engineConfig: { model: join(root, 'missing.onnx') } })).rejects.toMatchObject({
      code: 'model_unavailable',
    });
    await expect(runDenoiser('gtcrn', NOISY_CLIP, root, { engineConfig: { model: 'gtcrn.onnx' } })).rejects.toMatchObject({
      code: 'model_unavailable',
    });
  });
});

describe('without ffmpeg (VOXDESK_FFMPEG=none: the WASM decoder at 16 kHz, resampled to the source rate)', () => {
  it('still returns a 44.1 kHz source at its rate and duration', async () => {
    const mono = readMono(NOISY_CLIP);
    const { resampleMono } = await import('../../../../src-main/engines/audio/resample.js');
    const up = await resampleMono(mono.samples, mono.sampleRate, 44100);
    const file = writeMono(join(root, 'no-ffmpeg-44k.wav'), up, 44100);
    const saved = process.env.VOXDESK_FFMPEG;
    process.env.VOXDESK_FFMPEG = 'none';
    try {
      const { output } = await runDenoiser('rnnoise', file, root);
      const wav = readMono(output.artifacts[0]!.path);
      expect(wav.sampleRate).toBe(44100);
      expect(Math.abs(wav.samples.length - up.length)).toBeLessThanOrEqual(2);
      expect(rms(wav.samples)).toBeGreaterThan(0.01);
    } finally {
      if (saved === undefined) delete process.env.VOXDESK_FFMPEG;
      else process.env.VOXDESK_FFMPEG = saved;
    }
  });
});
