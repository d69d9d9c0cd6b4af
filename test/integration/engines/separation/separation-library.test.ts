/**
 * The koffi binding of sherpa-onnx's source-separation C API, against the real library the platform package ships
 * (node_modules/sherpa-onnx-linux-x64/libsherpa-onnx-c-api.so) and the tiny random-weight Spleeter and UVR models
 * in their exact layouts (scripts/tiny-models/make_tiny_product_models.py).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSeparator, sherpaCApiPath, type Separator, type SeparatorModel } from '../../../../src-main/engines/separation/separation-library.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../../helpers/generated-models.js';

const spleeterDir = generatedModel('spleeter-2stems', PRODUCT_MODELS_SCRIPT);
const uvrDir = generatedModel('uvr-mdx', PRODUCT_MODELS_SCRIPT);
const MODELS: Record<string, SeparatorModel> = {
  spleeter: { kind: 'spleeter', vocals: join(spleeterDir, 'vocals.onnx'), accompaniment: join(spleeterDir, 'accompaniment.onnx') },
  uvr: { kind: 'uvr', model: join(uvrDir, 'UVR-MDX-NET-tiny.onnx') },
};

const opened: Separator[] = [];
afterAll(() => opened.forEach((s) => s.dispose()));

function tone(n: number, period: number, amplitude = 0.3): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * i) / period));
}

function rms(x: Float32Array, from = 0, to = x.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += x[i]! * x[i]!;
  return Math.sqrt(sum / Math.max(1, to - from));
}

describe('the sherpa-onnx C library', () => {
  it('is found in the platform package sherpa-onnx-node installed', () => {
    expect(sherpaCApiPath()).toMatch(/sherpa-onnx-(linux|darwin|win)-[a-z0-9]+[/\\].*sherpa-onnx-c-api\.(so|dylib|dll)$/);
  });
});

describe.each(Object.keys(MODELS))('%s through the C API', (kind) => {
  it('loads the model: 44.1 kHz, two stems', () => {
    const separator = createSeparator(MODELS[kind]!);
    opened.push(separator);
    expect(separator.sampleRate).toBe(44100);
    expect(separator.stemCount).toBe(2);
  });

  it('separates stereo into two stereo stems of (about) the input length, with finite, non-silent samples', () => {
    const separator = createSeparator(MODELS[kind]!);
    opened.push(separator);
    const n = 44100 * 2;
    const stems = separator.process([tone(n, 100), tone(n, 37)], 44100);
    expect(stems).toHaveLength(2);
    for (const stem of stems) {
      expect(stem.channels).toHaveLength(2);
      const [left, right] = stem.channels;
      expect(left!.length).toBe(right!.length);
      // Spleeter's uncentred STFT drops the last partial hop (< 1024 samples); UVR keeps the exact length.
      expect(left!.length).toBeGreaterThan(n - 4096);
      expect(left!.length).toBeLessThanOrEqual(n);
      expect(left!.every(Number.isFinite)).toBe(true);
      expect(rms(left!, 8192, n - 8192)).toBeGreaterThan(0.001);
    }
  });

  it('takes mono input and input at another rate (the library resamples it)', () => {
    const separator = createSeparator(MODELS[kind]!);
    opened.push(separator);
    const stems = separator.process([tone(48000, 80)], 48000);
    expect(stems).toHaveLength(2);
    expect(stems[0]!.channels[0]!.length).toBeGreaterThan(44100 - 4096);
  });

  it('refuses a missing model file with model_unavailable before the library sees it', () => {
    const model = MODELS[kind]!;
    const broken: SeparatorModel = model.kind === 'spleeter' ? { ...model, accompaniment: '/nonexistent/accompaniment.onnx' } : { kind: 'uvr', model: '/nonexistent/uvr.onnx' };
    expect(() => createSeparator(broken)).toThrowError(expect.objectContaining({ code: 'model_unavailable' }));
  });
});
