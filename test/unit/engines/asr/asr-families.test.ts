import { Ajv } from 'ajv';
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
  const ajv = new Ajv({ useDefaults: true, strict: false });
  return ajv.compile(schema);
}

describe('asrFamilyDefinition', () => {
  it('Whisper: sherpa-asr engine, absolute files, spec defaults, additionalProperties false', () => {
    const def = whisper();
    expect(def.engine).toBe('sherpa-asr');
    expect(def.live).toBe(false);
    expect((def.engineConfig.files as Record<string, string>).encoder).toBe(join(TINY, 'tiny-whisper/encoder.onnx'));
    const validate = validator(def.paramsSchema);
    const params: Record<string, unknown> = {};
    expect(validate(params)).toBe(true);
    expect(params).toEqual({ response_format: 'verbose_json', timestamp_granularity: 'segment', language: 'auto', task: 'transcribe' });
    expect(validate({ language: 'xx' })).toBe(false); // would make sherpa-onnx exit the process
    expect(validate({ timestamp_granularity: 'word' })).toBe(false); // Whisper gives no token times here
    expect(validate({ prompt: 'hello' })).toBe(false);
    expect(validate({ speaker_diarization: true })).toBe(false); // no diarization models installed
  });

  it('offers speaker_diarization and num_speakers only with both diarization models', () => {
    const validate = validator(whisper(DIARIZATION).paramsSchema);
    const params: Record<string, unknown> = { speaker_diarization: true, num_speakers: 2 };
    expect(validate(params)).toBe(true);
    expect(params.speaker_diarization).toBe(true);
    expect(validate({ num_speakers: 0 })).toBe(false);
    const half = whisper({ speakerEmbedding: DIARIZATION.speakerEmbedding });
    expect(Object.keys((half.paramsSchema as { properties: object }).properties)).not.toContain('speaker_diarization');
  });

  it('NeMo CTC: word timings by default, no language or task', () => {
    const def = asrFamilyDefinition('nemo-ctc', {
      id: 'tiny-nemo-ctc',
      dir: join(TINY, 'tiny-nemo-ctc'),
      languages: ['en'],
      files: { model: 'model.onnx', tokens: 'tokens.txt' },
    });
    const validate = validator(def.paramsSchema);
    const params: Record<string, unknown> = {};
    expect(validate(params)).toBe(true);
    expect(params).toEqual({ response_format: 'verbose_json', timestamp_granularity: 'word' });
    expect(validate({ language: 'en' })).toBe(false);
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

  it('rejects diarization when the models are missing, and bad values', () => {
    expect(code({ speaker_diarization: true })).toBe('invalid_params');
    expect(code({ task: 'summarize' })).toBe('invalid_params');
    expect(code({ timestamp_granularity: 'word' })).toBe('invalid_params');
    expect(code({ num_speakers: 1.5 })).toBe('invalid_params');
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
