/**
 * OpenAI names → this machine's models and voices, with the real definitions of the engines (eSpeak NG,
 * PocketSphinx, sherpa-onnx families' schemas) and a real settings table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_VOICES } from '../../../../src-main/common/openai-names.js';
import type { AsrFamily } from '../../../../src-main/engines/asr/asr-families.js';
import { asrParamsSchema } from '../../../../src-main/engines/asr/asr-params-schema.js';
import { pocketsphinxDefinition } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import type { ModelDefinition, ModelSource } from '../../../../src-main/engines/model-definition.js';
import { espeakModelDefinition } from '../../../../src-main/engines/tts/espeak-models.js';
import { ttsFamilyDefinition } from '../../../../src-main/engines/tts/tts-families.js';
import { Catalogue } from '../../../../src-main/service/catalogue/catalogue.js';
import { EMPTY_PRICING_FILE } from '../../../../src-main/service/catalogue/pricing-file.js';
import { OpenAiModels } from '../../../../src-main/service/openai/openai-models.js';
import { openDatabase, type Db } from '../../../../src-main/store/database.js';
import { createSqliteStore } from '../../../../src-main/store/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'vox-oai-'));
let db: Db;
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

function asr(id: string, family: AsrFamily, languages: string[]): ModelDefinition {
  return {
    ...pocketsphinxDefinition(),
    id,
    name: id,
    engine: 'sherpa-asr',
    engineConfig: { family },
    languages,
    paramsSchema: asrParamsSchema({ family, languages, vad: false, diarization: false }),
    status: 'available',
    reason: null,
  };
}

const kokoro: ModelDefinition = {
  ...espeakModelDefinition(),
  id: 'kokoro-en-v0_19',
  name: 'Kokoro',
  ...ttsFamilyDefinition('kokoro', { id: 'kokoro-en-v0_19', dir: '/models/k', languages: ['en'], files: { model: 'm.onnx', voices: 'v.bin', tokens: 't.txt', dataDir: 'd' }, numSpeakers: 11 }),
};
const parakeet = asr('parakeet-tdt-0.6b-v2', 'nemo-transducer', ['en']);
const whisper = asr('whisper-small', 'whisper', ['en', 'de', 'fr']);
const senseVoice = asr('sense-voice-2024-07-17', 'sense-voice', ['zh', 'en', 'ja', 'ko', 'yue']);
const pocketsphinx = { ...pocketsphinxDefinition(), status: 'available' as const, reason: null };

let rows: ModelDefinition[];
const source: ModelSource = { name: 'test', list: () => rows };
let models: OpenAiModels;

beforeEach(() => {
  db?.close();
  rmSync(join(dir, 'o.db'), { force: true });
  db = openDatabase(join(dir, 'o.db'));
  rows = [espeakModelDefinition(), pocketsphinx, senseVoice, parakeet, whisper, kokoro];
  models = new OpenAiModels(new Catalogue([source], EMPTY_PRICING_FILE), createSqliteStore(db, join(dir, 'o.db')).repos.settings);
});

describe('OpenAI model names', () => {
  it('map to the best available model of each kind', async () => {
    expect((await models.resolve('transcription', 'whisper-1')).id).toBe('parakeet-tdt-0.6b-v2');
    expect((await models.resolve('transcription', 'gpt-4o-mini-transcribe')).id).toBe('parakeet-tdt-0.6b-v2');
    expect((await models.resolve('translation', 'whisper-1')).id).toBe('whisper-small');
    expect((await models.resolve('speech', 'tts-1')).id).toBe('kokoro-en-v0_19');
  });

  it('translation falls back to an English-only recogniser, never to one that neither translates nor hears only English', async () => {
    rows = [pocketsphinx, senseVoice, espeakModelDefinition()];
    expect((await models.resolve('translation', 'whisper-1')).id).toBe('pocketsphinx-en-us');
    rows = [senseVoice];
    await expect(models.resolve('translation', 'whisper-1')).rejects.toThrow(expect.objectContaining({ code: 'model_unavailable', param: 'model' }));
  });

  it('catalogue ids work; wrong kinds and unknown ids are refused on the model param', async () => {
    expect((await models.resolve('transcription', 'pocketsphinx-en-us')).id).toBe('pocketsphinx-en-us');
    await expect(models.resolve('transcription', 'tts-1')).rejects.toThrow(expect.objectContaining({ code: 'invalid_request', param: 'model' }));
    await expect(models.resolve('speech', 'whisper-1')).rejects.toThrow(expect.objectContaining({ code: 'invalid_request', param: 'model' }));
    await expect(models.resolve('speech', 'pocketsphinx-en-us')).rejects.toThrow(expect.objectContaining({ code: 'invalid_request', param: 'model' }));
    await expect(models.resolve('speech', 'no-such')).rejects.toThrow(expect.objectContaining({ code: 'not_found', param: 'model' }));
    await expect(models.resolve('speech', '')).rejects.toThrow(expect.objectContaining({ code: 'invalid_request', param: 'model' }));
    rows = [{ ...pocketsphinx, status: 'unavailable', reason: 'apt install pocketsphinx' }];
    await expect(models.resolve('transcription', 'pocketsphinx-en-us')).rejects.toThrow(expect.objectContaining({ code: 'model_unavailable' }));
  });

  it('the person’s choice wins while it is available, and is checked when set', async () => {
    (await models.update({ transcription_model: 'pocketsphinx-en-us', speech_model: 'espeak-ng' }));
    expect((await models.resolve('transcription', 'whisper-1')).id).toBe('pocketsphinx-en-us');
    expect((await models.resolve('speech', 'tts-1-hd')).id).toBe('espeak-ng');
    rows = rows.filter((r) => r.id !== 'pocketsphinx-en-us');
    expect((await models.resolve('transcription', 'whisper-1')).id).toBe('parakeet-tdt-0.6b-v2');
    await expect(models.update({ translation_model: 'sense-voice-2024-07-17' })).rejects.toThrow(expect.objectContaining({ code: 'invalid_params' }));
    await expect(models.update({ speech_model: 'parakeet-tdt-0.6b-v2' })).rejects.toThrow(expect.objectContaining({ code: 'invalid_params' }));
    await expect(models.update({ colour: 'blue' })).rejects.toThrow(expect.objectContaining({ code: 'unsupported_param' }));
    (await models.update({ transcription_model: null }));
    expect((await models.view())).toMatchObject({ transcription_model: null, speech_model: 'espeak-ng', resolved: { transcription_model: 'parakeet-tdt-0.6b-v2' } });
  });
});

describe('OpenAI voices', () => {
  it('eSpeak NG: thirteen distinct voices; its own ids (with variants) and {id} objects work', async () => {
    const espeak = espeakModelDefinition();
    const ids = await Promise.all(OPENAI_VOICES.map(async (name) => (await models.voice(espeak, name)).id));
    expect(new Set(ids).size).toBe(OPENAI_VOICES.length);
    expect((await models.voice(espeak, 'nova')).params).toEqual({ voice: 'en-us', speaker: 'f2' });
    expect((await models.voice(espeak, 'en-gb-x-rp+f4')).params).toEqual({ voice: 'en-gb-x-rp', speaker: 'f4' });
    expect((await models.voice(espeak, { id: 'de' })).params).toEqual({ voice: 'de' });
    await expect(models.voice(espeak, 'klingon')).rejects.toThrow(expect.objectContaining({ code: 'invalid_request', param: 'voice' }));
    await expect(models.voice(espeak, undefined)).rejects.toThrow(expect.objectContaining({ param: 'voice' }));
  });

  it('Kokoro: its eleven speakers for the first eleven voices; names and numbers work', async () => {
    const ids = await Promise.all(OPENAI_VOICES.slice(0, 11).map(async (name) => (await models.voice(kokoro, name)).params.speaker));
    expect(new Set(ids).size).toBe(11);
    expect((await models.voice(kokoro, 'af_bella')).params).toEqual({ speaker: 1 });
    expect((await models.voice(kokoro, '10')).params).toEqual({ speaker: 10 });
    await expect(models.voice(kokoro, '11')).rejects.toThrow(expect.objectContaining({ param: 'voice' }));
  });

  it('a voice can be changed per model and reset with null', async () => {
    (await models.update({ voices: { 'espeak-ng': { nova: 'de', onyx: 'en-us+m1' } } }));
    expect((await models.voice(espeakModelDefinition(), 'nova')).id).toBe('de');
    expect((await models.view()).voices).toEqual({ 'espeak-ng': { nova: 'de', onyx: 'en-us+m1' } });
    (await models.update({ voices: { 'espeak-ng': { nova: null } } }));
    expect((await models.voice(espeakModelDefinition(), 'nova')).id).toBe('en-us+f2');
    await expect(models.update({ voices: { 'espeak-ng': { nova: 'klingon' } } })).rejects.toThrow(expect.objectContaining({ code: 'invalid_params' }));
    await expect(models.update({ voices: { 'espeak-ng': { robot: 'de' } } })).rejects.toThrow(expect.objectContaining({ code: 'invalid_params' }));
    await expect(models.update({ voices: { 'pocketsphinx-en-us': { nova: 'de' } } })).rejects.toThrow(expect.objectContaining({ code: 'invalid_params' }));
  });

  it('the settings view lists choices for each kind and the voices of the speech model in use', async () => {
    const view = (await models.view());
    expect(view.choices.transcription.map((c) => c.id)).toEqual(['parakeet-tdt-0.6b-v2', 'whisper-small', 'sense-voice-2024-07-17', 'pocketsphinx-en-us']);
    expect(view.choices.translation.map((c) => c.id)).toEqual(['whisper-small', 'parakeet-tdt-0.6b-v2', 'pocketsphinx-en-us']);
    expect(view.choices.speech.map((c) => c.id)).toEqual(['kokoro-en-v0_19', 'espeak-ng']);
    expect(view.choices.voices).toHaveLength(11);
    expect(view.resolved.voices!.nova).toEqual({ id: 'af_nicole', name: 'af_nicole (speaker 2)' });
    expect(view.speech_formats).toContain('mp3');
  });
});
