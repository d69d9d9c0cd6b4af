import { Ajv2020 } from 'ajv/dist/2020.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import { asrFamilyDefinition, ASR_FAMILIES } from '../../../../src-main/engines/asr/asr-families.js';
import { readAsrParams } from '../../../../src-main/engines/asr/asr-params.js';
import { paramRules } from '../../../../src-main/engines/asr/sherpa-asr-engine.js';
import { parseEngineConfig } from '../../../../src-main/engines/asr/sherpa-recognizers.js';
import { SHARED } from '../../../helpers/system.js';

const TINY = join(SHARED, 'models/tiny');
const WHISPER_LANGS = 'en zh de es ru ko fr ja pt it'.split(' ');
const whisper = (support = {}) =>
  asrFamilyDefinition('whisper', {
    id: 'tiny-whisper',
    dir: join(TINY, 'tiny-whisper'),
    languages: WHISPER_LANGS,
    files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', tokens: 'tokens.txt' },
    support,
  });
const DIARIZATION = {
  speakerEmbedding: join(TINY, 'tiny-speaker-embedding.onnx'),
  pyannoteSegmentation: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'),
};

function validator(schema: object) {
  // The dialect the service validates params in (dependentSchemas is a 2019-09 keyword).
  const ajv = new Ajv2020({ useDefaults: true, strict: false });
  return ajv.compile(schema);
}

describe('asrFamilyDefinition', () => {
  it('Whisper: sherpa-asr engine, absolute files, the spec\'s params with what sherpa-onnx can honour, additionalProperties false', () => {
    const def = whisper();
    expect(def.engine).toBe('sherpa-asr');
    expect(def.live).toBe(false);
    expect(def.languages).toEqual(WHISPER_LANGS);
    expect((def.engineConfig.files as Record<string, string>).encoder).toBe(join(TINY, 'tiny-whisper/encoder.onnx'));
    const validate = validator(def.paramsSchema);
    const params: Record<string, unknown> = {};
    expect(validate(params)).toBe(true);
    expect(params).toMatchObject({
      response_format: 'verbose_json',
      timestamp_granularity: 'word',
      language: 'auto',
      task: 'transcribe',
      temperature: 0,
      condition_on_previous_text: false,
      multilingual: false,
      vad_filter: false,
      speaker_diarization: false,
    });
    expect(validate({ language: 'xx' })).toBe(false); // would make sherpa-onnx exit the process
    expect(validate({ timestamp_granularity: 'word', temperature: 0, prompt: '', vad_filter: false, chunk_length: 20, max_new_tokens: 100 })).toBe(true);
    expect(validate({ temperature: 0.2 })).toBe(false); // greedy decoding only
    expect(validate({ prompt: 'hello' })).toBe(false);
    expect(validate({ vad_filter: true })).toBe(false); // no VAD model installed
    expect(validate({ speaker_diarization: true })).toBe(false); // no diarization models installed
    expect(validate({ blank_penalty: 1 })).toBe(false); // not a transducer
  });

  it('offers vad_filter (default on) and min_silence_duration_ms with Silero VAD installed', () => {
    const validate = validator(whisper({ sileroVad: join(SHARED, 'models/silero_vad_v5.onnx') }).paramsSchema);
    const params: Record<string, unknown> = { min_silence_duration_ms: 1000 };
    expect(validate(params)).toBe(true);
    expect(params).toMatchObject({ vad_filter: true, min_silence_duration_ms: 1000 });
    expect(validate({ vad_filter: false, min_silence_duration_ms: 1000 })).toBe(false);
  });

  it('offers num_speakers, and speaker_diarization true, only with both diarization models', () => {
    const validate = validator(whisper(DIARIZATION).paramsSchema);
    const params: Record<string, unknown> = { speaker_diarization: true, num_speakers: 2 };
    expect(validate(params)).toBe(true);
    expect(params.speaker_diarization).toBe(true);
    expect(validate({ num_speakers: 0 })).toBe(false);
    const half = whisper({ speakerEmbedding: DIARIZATION.speakerEmbedding });
    const properties = (half.paramsSchema as { properties: Record<string, { enum?: unknown[] }> }).properties;
    expect(properties.speaker_diarization!.enum).toEqual([false]);
    expect(Object.keys(properties)).not.toContain('num_speakers');
  });

  it('NeMo CTC: word timings by default, its own language only, no task or decoding choice (beam search would end the process)', () => {
    const def = asrFamilyDefinition('nemo-ctc', {
      id: 'tiny-nemo-ctc',
      dir: join(TINY, 'tiny-nemo-ctc'),
      languages: ['en'],
      files: { model: 'model.onnx', tokens: 'tokens.txt' },
    });
    const validate = validator(def.paramsSchema);
    const params: Record<string, unknown> = {};
    expect(validate(params)).toBe(true);
    // No punctuation model installed: a CTC recognizer gives no punctuation, and punctuate says how to get it.
    expect(params).toEqual({ response_format: 'verbose_json', timestamp_granularity: 'word', language: 'auto', vad_filter: false, chunk_length: 25, speaker_diarization: false, punctuate: false });
    expect(validate({ language: 'en' })).toBe(true);
    expect(validate({ language: 'de' })).toBe(false);
    expect(validate({ task: 'transcribe' })).toBe(false);
    expect(validate({ decoding_method: 'modified_beam_search' })).toBe(false);
  });

  it('transducers: decoding method, beam, blank penalty and hotwords (which need modified beam search)', () => {
    const def = asrFamilyDefinition('nemo-transducer', {
      id: 'tiny-nemo-tdt',
      dir: join(TINY, 'tiny-nemo-tdt'),
      languages: [],
      files: { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', joiner: 'joiner.int8.onnx', tokens: 'tokens.txt' },
    });
    expect(def.languages).toEqual(['en']); // a vocabulary of Latin letters
    const validate = validator(def.paramsSchema);
    expect(validate({ decoding_method: 'modified_beam_search', max_active_paths: 8, blank_penalty: 0.75, hotwords: 'Ada Lovelace, Voxdesk :3', hotwords_score: 2 })).toBe(true);
    expect(validate({ hotwords: 'Ada' })).toBe(true); // modified beam search is then the default
    expect(validate({ hotwords: 'Ada', decoding_method: 'greedy_search' })).toBe(false);
    expect(validate({ temperature: 0 })).toBe(false);
  });

  it('imported packages get their languages from the model: SenseVoice its five, Whisper its metadata', () => {
    const senseVoice = asrFamilyDefinition('sense-voice', { id: 'sv', dir: join(TINY, 'tiny-sense-voice'), languages: [], files: { model: 'model.int8.onnx', tokens: 'tokens.txt' } });
    expect(senseVoice.languages).toEqual(['zh', 'en', 'ja', 'ko', 'yue']);
    expect((senseVoice.paramsSchema as { properties: { language: { enum: string[] } } }).properties.language.enum).toEqual(['auto', 'zh', 'en', 'ja', 'ko', 'yue']);
    const imported = asrFamilyDefinition('whisper', { id: 'w', dir: join(TINY, 'tiny-whisper'), languages: [], files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', tokens: 'tokens.txt' } });
    expect(imported.languages).toEqual(WHISPER_LANGS);
    const moonshine = asrFamilyDefinition('moonshine', {
      id: 'm',
      dir: join(TINY, 'tiny-moonshine'),
      languages: [],
      files: { preprocessor: 'preprocess.onnx', encoder: 'encode.int8.onnx', uncachedDecoder: 'uncached_decode.int8.onnx', cachedDecoder: 'cached_decode.int8.onnx', tokens: 'tokens.txt' },
    });
    expect(moonshine.languages).toEqual(['en']);
  });

  it('adds how audio is segmented to a given description', () => {
    const base = { id: 'm', dir: join(TINY, 'tiny-nemo-ctc'), languages: ['en'], files: { model: 'model.onnx', tokens: 'tokens.txt' } };
    expect(asrFamilyDefinition('nemo-ctc', base).description).toBeUndefined();
    expect(asrFamilyDefinition('nemo-ctc', { ...base, description: 'Small English model.' }).description).toBe(
      'Small English model. No VAD model is installed: long recordings are cut into fixed 25 s windows at quiet moments (install Silero VAD for better segments).',
    );
    expect(asrFamilyDefinition('nemo-ctc', { ...base, description: 'Small.', support: { sileroVad: '/v.onnx' } }).description).toBe(
      'Small. Long recordings are cut into speech segments by Silero VAD.',
    );
    expect(asrFamilyDefinition('nemo-ctc', { ...base, support: { sileroVad: '/v.onnx' } }).engineConfig.vadModel).toBe('/v.onnx');
  });

  it('every family lists its required files and rejects a package without them', () => {
    for (const family of ASR_FAMILIES) {
      expect(() => asrFamilyDefinition(family, { id: 'x', dir: '/m', languages: ['en'], files: {} })).toThrow(/lacks its/);
    }
  });
});

describe('readAsrParams (the worker-side check)', () => {
  const config = parseEngineConfig(whisper().engineConfig);
  const rules = paramRules(config);
  const code = (params: Record<string, unknown>): string => {
    try {
      readAsrParams(params, rules);
      return 'ok';
    } catch (error) {
      return (error as JobError).code;
    }
  };

  it('rejects a language outside the model list before it reaches sherpa-onnx', () => {
    expect(code({ language: 'xx' })).toBe('invalid_params');
    expect(code({ language: 'de' })).toBe('ok');
    expect(code({ language: 42 })).toBe('invalid_params');
  });

  it('rejects diarization or VAD when the models are missing, and bad values', () => {
    expect(code({ speaker_diarization: true })).toBe('invalid_params');
    expect(code({ vad_filter: true })).toBe('invalid_params');
    expect(code({ task: 'summarize' })).toBe('invalid_params');
    expect(code({ timestamp_granularity: 'word' })).toBe('ok');
    expect(code({ num_speakers: 1.5 })).toBe('invalid_params');
    expect(code({ max_new_tokens: 0 })).toBe('invalid_params');
  });

  it('never lets a CTC model decode with modified beam search (sherpa-onnx would end the process)', () => {
    const ctc = parseEngineConfig(
      asrFamilyDefinition('nemo-ctc', { id: 'c', dir: join(TINY, 'tiny-nemo-ctc'), languages: ['en'], files: { model: 'model.onnx', tokens: 'tokens.txt' } }).engineConfig,
    );
    expect(readAsrParams({ decoding_method: 'modified_beam_search', hotwords: 'x' }, paramRules(ctc))).toMatchObject({ decodingMethod: 'greedy_search', hotwords: [] });
  });

  it('parseEngineConfig reports a missing model file as model_unavailable', () => {
    const broken = { ...whisper().engineConfig, files: { encoder: '/nonexistent/encoder.onnx' } };
    expect(() => parseEngineConfig(broken)).toThrow(JobError);
    try {
      parseEngineConfig(broken);
    } catch (error) {
      expect((error as JobError).code).toBe('model_unavailable');
    }
  });
});
