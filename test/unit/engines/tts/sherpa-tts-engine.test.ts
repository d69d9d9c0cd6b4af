import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import createSherpaTtsEngine from '../../../../src-main/engines/tts/sherpa-tts-engine.js';
import { ttsFamilyDefinition } from '../../../../src-main/engines/tts/tts-families.js';
import { SHARED } from '../../../helpers/system.js';
import { tempWorkDir, testContext, ttsTask } from '../../../helpers/tts-context.js';

const TINY = `${SHARED}models/tiny/tiny-vits`;
const work = tempWorkDir();
afterAll(() => work.remove());
const engine = createSherpaTtsEngine() as Awaited<ReturnType<typeof createSherpaTtsEngine>>;

const def = ttsFamilyDefinition('vits', {
  id: 'tiny-vits',
  dir: TINY,
  languages: ['en'],
  files: { model: 'model.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt' },
  numSpeakers: 2,
  sampleRate: 22050,
});

let n = 0;
async function speak(text: string, params: Record<string, unknown>, engineConfig = def.engineConfig) {
  const dir = `${work.dir}/${n++}`;
  mkdirSync(dir);
  const ctx = testContext();
  const out = await engine.run(ttsTask(dir, text, { speed: 1, ...params }, { engine: 'sherpa-tts', modelId: 'tiny-vits', engineConfig }), ctx);
  return { out, ctx, samples: () => decodeWav(readFileSync(out.artifacts[0]!.path)).channels[0]!.length };
}

describe('ttsFamilyDefinition', () => {
  it('builds engine settings with absolute paths and a speaker param from numSpeakers', () => {
    expect(def.engine).toBe('sherpa-tts');
    expect(def.engineConfig).toMatchObject({ family: 'vits', model: { vits: { model: `${TINY}/model.onnx`, lexicon: `${TINY}/lexicon.txt` } } });
    const props = (def.paramsSchema as { properties: Record<string, unknown> }).properties;
    expect(props.speaker).toMatchObject({ type: 'integer', minimum: 0, maximum: 1, default: 0 });
    expect(props).toHaveProperty('speed');
    expect(props).toHaveProperty('output_format');
    expect(def).toMatchObject({ live: true, acceptsSpeed: true, limits: { max_text_chars: 5000 } });
    const piper = ttsFamilyDefinition('piper', { id: 'p', dir: '/m', languages: ['en'], files: { model: 'a.onnx', tokens: 't.txt', dataDir: 'espeak-ng-data' } });
    expect(piper.engineConfig).toMatchObject({ family: 'piper', model: { vits: { dataDir: '/m/espeak-ng-data' } } });
    expect((piper.paramsSchema as { properties: Record<string, unknown> }).properties).not.toHaveProperty('speaker');
  });

  it('rejects incomplete packages', () => {
    expect(() => ttsFamilyDefinition('kokoro', { id: 'k', dir: '/m', languages: [], files: { model: 'm.onnx' } })).toThrow(/lacks voices, tokens, dataDir/);
    // An installed lexicon VITS (its metadata names no character frontend) without its lexicon is refused; one not
    // downloaded yet is given the benefit of the doubt (a character-level voice needs none), and checked when installed.
    expect(() => ttsFamilyDefinition('vits', { id: 'v', dir: TINY, languages: [], files: { model: 'model.onnx', tokens: 'tokens.txt' } })).toThrow(/lexicon or an espeak-ng dataDir/);
    expect(() => ttsFamilyDefinition('vits', { id: 'v', dir: '/not-downloaded', languages: [], files: { model: 'm.onnx', tokens: 't' } })).not.toThrow();
    expect(() => ttsFamilyDefinition('vits', { id: 'v', dir: '/m', languages: [], files: { model: 'm', tokens: 't', lexicon: 'l', bogus: 'x' } })).toThrow(/unknown file role/);
  });
});

describe('sherpa-tts engine with tiny-vits (exact sample counts from models/tiny/README.md)', () => {
  it('hello world → 23552 samples at 22050 Hz; speed 2 → 11776; speed 0.5 → 47104', async () => {
    const one = await speak('hello world', {});
    expect(one.samples()).toBe(23552);
    expect(one.out.durationSeconds).toBeCloseTo(23552 / 22050, 6);
    expect(one.out.artifacts[0]).toMatchObject({ sampleRate: 22050, channels: 1, contentType: 'audio/wav' });
    expect((await speak('hello world', { speed: 2 })).samples()).toBe(11776);
    expect((await speak('hello world', { speed: 0.5 })).samples()).toBe(47104);
  });

  it('sentence by sentence gives the same total as one call: "Hello, world! This is a test." → 67584', async () => {
    const { samples, ctx } = await speak('Hello, world! This is a test.', {});
    expect(samples()).toBe(67584);
    expect(ctx.progressValues).toEqual([0.5, 1]);
  });

  it('speaker 1 differs from speaker 0; an out-of-range speaker is invalid_params', async () => {
    const a = readFileSync((await speak('hello world', { speaker: 0 })).out.artifacts[0]!.path);
    const b = readFileSync((await speak('hello world', { speaker: 1 })).out.artifacts[0]!.path);
    expect(Buffer.compare(a, b)).not.toBe(0);
    await expect(speak('hello world', { speaker: 2 })).rejects.toMatchObject({ code: 'invalid_params' });
  });

  it('text with no known word: a clear engine_failed, not a crash; unknown sentences are skipped', async () => {
    await expect(speak('qzxv wprrt', {})).rejects.toMatchObject({ code: 'engine_failed', message: expect.stringMatching(/no audio/) });
    // First sentence's words unknown (only its '.' and space are spoken: (2·2+1)·1024 samples), second known.
    const mixed = await speak('qzxv wprrt. hello world', {});
    expect(mixed.samples()).toBe(5 * 1024 + 23552);
  });

  it('mp3 and pcm outputs at 16 kHz', async () => {
    const pcm = await speak('hello world', { output_format: 'pcm', output_sample_rate: 16000 });
    expect(readFileSync(pcm.out.artifacts[0]!.path).length).toBe(Math.round((23552 * 16000) / 22050) * 2);
    const mp3 = await speak('hello world', { output_format: 'mp3', output_sample_rate: 16000 });
    expect(mp3.out.artifacts[0]!.contentType).toBe('audio/mpeg');
  });

  it('a missing model file is model_unavailable', async () => {
    const broken = ttsFamilyDefinition('vits', { id: 'x', dir: work.dir, languages: ['en'], files: { model: 'nope.onnx', tokens: 'nope.txt', lexicon: 'nope.lex' } });
    await expect(speak('hello', {}, broken.engineConfig)).rejects.toMatchObject({ code: 'model_unavailable' });
  });
});
