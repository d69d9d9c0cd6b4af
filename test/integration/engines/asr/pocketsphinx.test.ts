import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import pocketsphinxFactory from '../../../../src-main/engines/asr/pocketsphinx-engine.js';
import { pocketsphinxModelSource, POCKETSPHINX_MODEL_ID } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import { dictionaryWord, NON_WORD } from '../../../../src-main/engines/asr/pocketsphinx-output.js';
import { encodeWav } from '../../../../src-main/engines/audio/wav.js';
import type { Engine, EngineOutput } from '../../../../src-main/engines/engine-types.js';
import { EspeakSynth } from '../../../../src-main/engines/tts/espeak-synth.js';
import { requireCommand, requireFile, SHARED } from '../../../helpers/system.js';
import { ffmpeg, makeFixture, makeTempDir } from '../../../helpers/audio-fixtures.js';
import { recordingContext, sttTask, wordErrorRate } from '../../../helpers/engine-context.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');
requireFile('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin', 'pocketsphinx-en-us');

const JFK = join(SHARED, 'audio/jfk.wav');
const JFK_TEXT = 'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const HIFI = join(SHARED, 'audio/hifitts-6097');
const REFS = readFileSync(join(HIFI, 'refs.tsv'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split('\t') as [string, string]);

const temp = makeTempDir('voxdesk-sphinx-');
afterAll(() => temp.cleanup());
const engine: Engine = await pocketsphinxFactory();

function expectWordTimes(out: EngineOutput): void {
  const words = out.result.words!;
  expect(words.length).toBeGreaterThan(0);
  for (let i = 0; i < words.length; i++) {
    expect(words[i]!.end).toBeGreaterThanOrEqual(words[i]!.start);
    if (i > 0) expect(words[i]!.start).toBeGreaterThan(words[i - 1]!.start);
  }
  expect(words[words.length - 1]!.end).toBeLessThanOrEqual(out.durationSeconds + 0.01);
}

describe('pocketsphinx model source', () => {
  it('lists pocketsphinx-en-us as available when the Debian packages are installed', () => {
    const [row] = pocketsphinxModelSource({ dataDir: temp.dir }).list();
    expect(row).toMatchObject({
      id: POCKETSPHINX_MODEL_ID,
      capability: 'asr',
      products: ['speech-to-text'],
      languages: ['en'],
      engine: 'pocketsphinx',
      status: 'available',
      reason: null,
    });
  });

  it('is unavailable with the apt hint when the program is missing', () => {
    const saved = process.env.VOXDESK_POCKETSPHINX;
    process.env.VOXDESK_POCKETSPHINX = 'none';
    try {
      const [row] = pocketsphinxModelSource({ dataDir: temp.dir }).list();
      expect(row!.status).toBe('unavailable');
      expect(row!.reason).toBe('PocketSphinx is not installed: apt install pocketsphinx pocketsphinx-en-us');
    } finally {
      if (saved === undefined) delete process.env.VOXDESK_POCKETSPHINX;
      else process.env.VOXDESK_POCKETSPHINX = saved;
    }
  });
});

describe('PocketSphinx recognition (real model)', () => {
  it('transcribes jfk.wav with word times and a loose WER bound', { timeout: scaled(120_000) }, async () => {
    const ctx = recordingContext();
    const out = await engine.run(sttTask(JFK, 'pocketsphinx', {}), ctx);
    expect(out.durationSeconds).toBe(11);
    expect(out.result.language).toBe('en');
    expect(wordErrorRate(JFK_TEXT, out.result.text!)).toBeLessThan(0.75);
    expectWordTimes(out);
    expect(ctx.events[0]).toEqual({ kind: 'measured', value: 11 });
    expect(ctx.events.at(-1)).toEqual({ kind: 'progress', value: 1 });
  });

  it('scores WER < 0.6 over five Hi-Fi TTS utterances', { timeout: scaled(240_000) }, async () => {
    let errors = 0;
    let words = 0;
    for (const [file, reference] of REFS.slice(0, 5)) {
      const out = await engine.run(sttTask(join(HIFI, file), 'pocketsphinx', {}), recordingContext());
      expectWordTimes(out);
      const n = reference.split(/\s+/).length;
      errors += wordErrorRate(reference, out.result.text!) * n;
      words += n;
    }
    expect(errors / words).toBeLessThan(0.6);
  });

  it('reads compressed containers too (opus)', { timeout: scaled(120_000) }, async () => {
    const opus = makeFixture(temp.dir, 'opus');
    const out = await engine.run(sttTask(opus, 'pocketsphinx', {}, { response_format: 'json' }), recordingContext());
    expect(Object.keys(out.result)).toEqual(['text']);
    expect(wordErrorRate(JFK_TEXT, out.result.text!)).toBeLessThan(0.8);
  });

  it('zero-length audio is an empty transcript; corrupt audio is audio_decode_failed', async () => {
    const zero = join(temp.dir, 'zero.wav');
    ffmpeg(['-i', JFK, '-t', '0', zero]);
    const out = await engine.run(sttTask(zero, 'pocketsphinx', {}), recordingContext());
    expect(out.result).toEqual({ text: '', duration: 0, language: 'en', segments: [], words: [] });
    const bad = join(temp.dir, 'bad.mp3');
    writeFileSync(bad, 'ID3 this is not really an mp3 file '.repeat(30));
    await expect(engine.run(sttTask(bad, 'pocketsphinx', {}), recordingContext())).rejects.toMatchObject({ code: 'audio_decode_failed' });
  });

  it('rejects params it does not honour', async () => {
    await expect(engine.run(sttTask(JFK, 'pocketsphinx', {}, { language: 'de' }), recordingContext())).rejects.toMatchObject({
      code: 'invalid_params',
    });
  });

  it('a PocketSphinx library that cannot be loaded fails the job with model_unavailable, repeatedly, without hanging', async () => {
    const saved = process.env.VOXDESK_LIBPOCKETSPHINX;
    process.env.VOXDESK_LIBPOCKETSPHINX = join(temp.dir, 'no-such-libpocketsphinx.so');
    try {
      const broken = await pocketsphinxFactory(); // a fresh engine: its decoder is not loaded yet
      for (let i = 0; i < 6; i++) {
        await expect(broken.run(sttTask(JFK, 'pocketsphinx', {}), recordingContext())).rejects.toMatchObject({
          code: 'model_unavailable',
          message: expect.stringMatching(/^the PocketSphinx library could not be loaded \(apt install libpocketsphinx3\): /),
        });
      }
    } finally {
      if (saved === undefined) delete process.env.VOXDESK_LIBPOCKETSPHINX;
      else process.env.VOXDESK_LIBPOCKETSPHINX = saved;
    }
  });

  it('the warm decoder gives a recording the words and times pocketsphinx_continuous gives it, whatever it heard before', { timeout: scaled(600_000) }, async () => {
    const raw = join(temp.dir, 'jfk.raw');
    ffmpeg(['-i', JFK, '-f', 's16le', '-ac', '1', '-ar', '16000', raw]);
    const dir = '/usr/share/pocketsphinx/model/en-us';
    const printed = execFileSync('pocketsphinx_continuous', ['-infile', raw, '-time', 'yes', '-hmm', join(dir, 'en-us'), '-lm', join(dir, 'en-us.lm.bin'), '-dict', join(dir, 'cmudict-en-us.dict'), '-logfn', '/dev/null'], {
      encoding: 'utf8',
    });
    const program = printed
      .split('\n')
      .map((line) => /^(\S+) (\d+\.\d+) (\d+\.\d+) (\S+)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && !NON_WORD.test(m[1]!))
      .map((m) => ({ word: dictionaryWord(m[1]!), start: Number(m[2]), end: Number(m[3]), posterior: Number(m[4]) }));
    expect(program.length).toBeGreaterThan(10);
    // The engine's decoder has already heard other speech (its feature normalisation adapts to what it hears).
    await engine.run(sttTask(join(HIFI, REFS[1]![0]), 'pocketsphinx', {}), recordingContext());
    const first = await engine.run(sttTask(JFK, 'pocketsphinx', {}), recordingContext());
    expect(first.result.words!.map(({ word, start, end }) => ({ word, start, end }))).toEqual(program.map(({ word, start, end }) => ({ word, start, end })));
    // Each word's confidence is the posterior the program prints in its last column (issue 29.6).
    first.result.words!.forEach((w, i) => expect(w.confidence, w.word).toBeCloseTo(program[i]!.posterior, 2));
    await engine.run(sttTask(join(HIFI, REFS[2]![0]), 'pocketsphinx', {}), recordingContext());
    const again = await engine.run(sttTask(JFK, 'pocketsphinx', {}), recordingContext());
    expect(again.result).toEqual(first.result);
  });

  it('cancellation stops the recording and reports cancelled; the next job on the same decoder is unaffected', { timeout: scaled(600_000) }, async () => {
    const long = join(temp.dir, 'long.wav');
    ffmpeg(['-stream_loop', '8', '-i', JFK, '-c:a', 'pcm_s16le', long]);
    const before = await engine.run(sttTask(JFK, 'pocketsphinx', {}), recordingContext());
    const ctx = recordingContext((fraction, controller) => fraction > 0.05 && controller.abort());
    const error = await engine.run(sttTask(long, 'pocketsphinx', {}), ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobError);
    expect((error as JobError).code).toBe('cancelled');
    const progress = ctx.events.filter((e) => e.kind === 'progress').map((e) => e.value);
    expect(Math.max(...progress)).toBeLessThan(0.5); // stopped soon after the abort, not at the end of the file
    const after = await engine.run(sttTask(JFK, 'pocketsphinx', {}), recordingContext());
    expect(after.result).toEqual(before.result);
  });
});

describe('round trip: eSpeak NG speaks, PocketSphinx listens', () => {
  it('recovers most words of a sentence (loose bound)', { timeout: scaled(120_000) }, async () => {
    const text = 'the weather is nice today and we will walk to the park';
    const synth = await EspeakSynth.create();
    synth.configure({ voice: 'en-us', speed: 0.9 });
    const samples = synth.synthesize(text);
    const file = join(temp.dir, 'espeak.wav');
    writeFileSync(file, encodeWav([samples], synth.sampleRate));
    const out = await engine.run(sttTask(file, 'pocketsphinx', {}), recordingContext());
    expect(wordErrorRate(text, out.result.text!)).toBeLessThan(0.8);
  });
});
