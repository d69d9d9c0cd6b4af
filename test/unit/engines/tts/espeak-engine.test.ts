import { readFileSync } from 'node:fs';
import decode from 'audio-decode';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import createEspeakEngine from '../../../../src-main/engines/tts/espeak-engine.js';
import { espeakModelSource, espeakParamsSchema } from '../../../../src-main/engines/tts/espeak-models.js';
import { espeakVoiceCatalogue, voiceForLanguage } from '../../../../src-main/engines/tts/espeak-voices.js';
import { ESPEAK_BASE_RATE_WPM, EspeakSynth, resolveEspeakVoice } from '../../../../src-main/engines/tts/espeak-synth.js';
import type { Engine } from '../../../../src-main/engines/engine-types.js';
import { tempWorkDir, testContext, ttsTask } from '../../../helpers/tts-context.js';

const work = tempWorkDir();
afterAll(() => work.remove());
let engine: Engine;
const getEngine = async (): Promise<Engine> => (engine ??= await createEspeakEngine());
const SENTENCE = 'The quick brown fox jumps over the lazy dog.';

async function speak(text: string, params: Record<string, unknown>, sub: string) {
  const { mkdirSync } = await import('node:fs');
  const dir = `${work.dir}/${sub}`;
  mkdirSync(dir, { recursive: true });
  const ctx = testContext();
  const out = await (await getEngine()).run(ttsTask(dir, text, params), ctx);
  return { out, ctx };
}

describe('espeak-ng voices and catalogue row', () => {
  it('lists every voice the package ships (140 voices, 100+ variants), from the package itself', () => {
    const { voices, variants, languages } = espeakVoiceCatalogue();
    // Upstream eSpeak NG 1.52 ships these in espeak-ng-data/lang; the WASM module's list_voices() reports 140.
    expect(voices).toHaveLength(140);
    expect(new Set(voices.map((v) => v.id)).size).toBe(140);
    expect(voices.map((v) => v.id)).toEqual(expect.arrayContaining(['en-us', 'en', 'fr', 'de', 'cmn', 'ja', 'sw', 'yue']));
    expect(variants).toEqual(expect.arrayContaining(['f1', 'f5', 'm1', 'm7', 'whisper', 'klatt']));
    expect(languages).toEqual(expect.arrayContaining(['en', 'en-us', 'zh', 'pt-br', 'hi']));
    const schema = espeakParamsSchema() as { properties: Record<string, { enum?: unknown[]; default?: unknown }> };
    expect(schema.properties.voice!.enum).toHaveLength(140);
    expect(schema.properties.voice!.default).toBe('en-us');
  });

  it('the package file table lists exactly the voices the WASM module reports', async () => {
    const mod = (await import('@echogarden/espeak-ng-emscripten' as string)) as {
      default: () => Promise<{ eSpeakNGWorker: new () => { list_voices(): { identifier: string }[] } }>;
    };
    const worker = new (await mod.default()).eSpeakNGWorker();
    const fromWasm = worker.list_voices().map((v) => v.identifier).sort();
    expect(espeakVoiceCatalogue().voices.map((v) => v.identifier).sort()).toEqual(fromWasm);
  });

  it('speaks exactly as a worker that listed its voices, though it was made without listing them', async () => {
    type PlainWorker = { set_voice(name: string): number; set_rate(wpm: number): void; set_pitch(pitch: number): void; synthesize(text: string, callback: (audio: Int16Array) => boolean): void };
    const mod = (await import('@echogarden/espeak-ng-emscripten' as string)) as { default: () => Promise<{ eSpeakNGWorker: new () => PlainWorker }> };
    const plain = new (await mod.default()).eSpeakNGWorker();
    const synth = await EspeakSynth.create();
    for (const voice of ['en-us', 'pt-br', 'fr', 'cmn', 'yue-latn-jyutping']) {
      synth.configure({ voice });
      const ours = synth.synthesize(SENTENCE);
      expect(plain.set_voice(resolveEspeakVoice({ voice }).name)).toBe(0);
      plain.set_rate(ESPEAK_BASE_RATE_WPM);
      plain.set_pitch(50);
      const theirs: number[] = [];
      plain.synthesize(SENTENCE, (audio) => {
        for (const sample of audio) theirs.push(sample / 32768);
        return false;
      });
      expect(ours.length, voice).toBeGreaterThan(10_000);
      expect(Array.from(ours), voice).toEqual(theirs);
    }
    // A variant is loaded by its path too.
    synth.configure({ voice: 'de', speaker: 'whisper' });
    expect(synth.synthesize(SENTENCE).length).toBeGreaterThan(10_000);
  });

  it('resolves language codes to voices', () => {
    expect(voiceForLanguage('en-US')?.id).toBe('en-us');
    expect(voiceForLanguage('zh')?.id).toBe('cmn');
    expect(voiceForLanguage('pt-BR')?.id).toBe('pt-br');
    expect(voiceForLanguage('de-AT')?.id).toBe('de');
    expect(voiceForLanguage('es_MX')?.id).toBe('es-419');
    expect(voiceForLanguage('tlh')).toBeUndefined();
  });

  it('model source row', () => {
    const [row] = espeakModelSource({ dataDir: work.dir }).list();
    expect(row).toMatchObject({
      id: 'espeak-ng',
      capability: 'tts',
      products: ['text-to-speech'],
      engine: 'espeak',
      live: true,
      acceptsSpeed: true,
      status: 'available',
      limits: { max_text_chars: 5000 },
    });
    expect(row!.languages.length).toBeGreaterThan(100);
  });
});

describe('espeak engine', () => {
  it('speaks a wav at 22050 Hz; durationSeconds is the audio length', async () => {
    const { out, ctx } = await speak(SENTENCE, {}, 'wav');
    const art = out.artifacts[0]!;
    expect(art).toMatchObject({ contentType: 'audio/wav', sampleRate: 22050, channels: 1 });
    const wav = decodeWav(readFileSync(art.path));
    expect(wav.channels[0]!.length / 22050).toBeCloseTo(out.durationSeconds, 6);
    expect(out.durationSeconds).toBeGreaterThan(1.5);
    expect(out.durationSeconds).toBeLessThan(5);
    expect(ctx.progressValues.at(-1)).toBe(1);
  });

  it('speed 2 makes it shorter, 0.5 longer', async () => {
    const base = (await speak(SENTENCE, { speed: 1 }, 's1')).out.durationSeconds;
    const fast = (await speak(SENTENCE, { speed: 2 }, 's2')).out.durationSeconds;
    const slow = (await speak(SENTENCE, { speed: 0.5 }, 's05')).out.durationSeconds;
    expect(fast).toBeLessThan(base * 0.7);
    expect(slow).toBeGreaterThan(base * 1.5);
  });

  it('every output format: pcm, mp3, wav stereo 48 kHz', async () => {
    const pcm = (await speak('Hello there.', { output_format: 'pcm', output_sample_rate: 16000 }, 'pcm')).out;
    expect(readFileSync(pcm.artifacts[0]!.path).length).toBe(Math.round(pcm.durationSeconds * 16000) * 2);
    const mp3 = (await speak('Hello there.', { output_format: 'mp3' }, 'mp3')).out;
    const decoded = await decode(readFileSync(mp3.artifacts[0]!.path));
    expect(decoded.sampleRate).toBe(22050);
    expect(Math.abs(decoded.channelData[0]!.length / 22050 - mp3.durationSeconds)).toBeLessThan(0.11);
    const stereo = (await speak('Hello there.', { output_sample_rate: 48000, output_channels: 2 }, 'st')).out;
    const wav = decodeWav(readFileSync(stereo.artifacts[0]!.path));
    expect(wav.sampleRate).toBe(48000);
    expect(wav.channels).toHaveLength(2);
  });

  it('voices, languages, speakers and pitch change the audio', async () => {
    const fr = (await speak('Bonjour tout le monde.', { voice: 'fr' }, 'fr')).out;
    const byLang = (await speak('Bonjour tout le monde.', { language: 'fr-FR' }, 'fr2')).out;
    expect(voiceForLanguage('fr-FR')?.id).toBe('fr');
    expect(Math.abs(byLang.durationSeconds - fr.durationSeconds)).toBeLessThan(0.05);
    const f3 = readFileSync((await speak(SENTENCE, { speaker: 'f3' }, 'f3')).out.artifacts[0]!.path);
    const plain = readFileSync((await speak(SENTENCE, {}, 'plain')).out.artifacts[0]!.path);
    expect(Buffer.compare(f3, plain)).not.toBe(0);
    const high = readFileSync((await speak(SENTENCE, { pitch: 90 }, 'p90')).out.artifacts[0]!.path);
    expect(Buffer.compare(high, plain)).not.toBe(0);
  });

  it('long text: one progress step per sentence, and cancellation between sentences', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `This is sentence number ${i + 1}.`).join(' ');
    const { ctx } = await speak(text, {}, 'long');
    expect(ctx.progressValues).toHaveLength(12);
    expect(ctx.progressValues[0]).toBeCloseTo(1 / 12, 6);

    const cancelCtx = testContext();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(`${work.dir}/cancel`);
    const run = (await getEngine()).run(ttsTask(`${work.dir}/cancel`, text, {}), {
      ...cancelCtx,
      progress: (f) => {
        cancelCtx.progressValues.push(f);
        if (cancelCtx.progressValues.length === 3) cancelCtx.controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(cancelCtx.progressValues).toHaveLength(3);
  });

  it('bad input gets clear codes', async () => {
    await expect(speak('', {}, 'e1')).rejects.toMatchObject({ code: 'text_required' });
    await expect(speak(' ... ', {}, 'e2')).rejects.toMatchObject({ code: 'text_required' });
    await expect(speak('x'.repeat(5001), {}, 'e3')).rejects.toMatchObject({ code: 'text_too_long' });
    await expect(speak('hi', { voice: 'klingon' }, 'e4')).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(speak('hi', { language: 'tlh' }, 'e5')).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(speak('hi', { speaker: 'nobody' }, 'e6')).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(speak('hi', { speed: 3 }, 'e7')).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(speak('hi', { output_format: 'mp3', output_sample_rate: 9000 }, 'e8')).rejects.toMatchObject({ code: 'invalid_params' });
  });
});
