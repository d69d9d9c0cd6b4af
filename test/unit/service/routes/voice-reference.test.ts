import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src-main/common/errors.js';
import type { ModelDefinition } from '../../../../src-main/engines/model-definition.js';
import { chooseTranscriber } from '../../../../src-main/service/routes/voice-reference.js';
import { ParamsValidator } from '../../../../src-main/service/params/params-validator.js';

function row(id: string, fields: Partial<ModelDefinition>): ModelDefinition {
  return {
    id,
    name: id,
    description: '',
    capability: 'asr',
    products: ['speech-to-text'],
    provider: 'local',
    engine: 'sherpa-asr',
    engineConfig: { id },
    languages: ['en'],
    live: false,
    acceptsSpeed: false,
    limits: { max_file_bytes: null, max_audio_seconds: null, max_text_chars: null },
    paramsSchema: { type: 'object', properties: { language: { type: 'string', default: 'auto' } } },
    status: 'available',
    reason: null,
    ...fields,
  };
}

const zipvoice = row('zipvoice', { capability: 'voice_cloning', products: ['voice-cloning', 'voice-continuation'], engine: 'sherpa-cloning', engineConfig: { family: 'zipvoice' }, languages: ['zh', 'en'] });
const pocket = row('pocket', { capability: 'voice_cloning', products: ['voice-cloning', 'voice-continuation'], engine: 'sherpa-cloning', engineConfig: { family: 'pocket' } });
const deps = (rows: ModelDefinition[]) => ({ catalogue: { definitions: () => rows }, validator: new ParamsValidator() }) as unknown as Parameters<typeof chooseTranscriber>[0];

describe('chooseTranscriber', () => {
  it('asks for nothing when the words were sent, or the model needs none (Pocket TTS)', () => {
    expect(chooseTranscriber(deps([]), zipvoice, 'hello', 'reference_audio')).toBeUndefined();
    expect(chooseTranscriber(deps([]), pocket, null, 'reference_audio')).toBeUndefined();
  });

  it('refuses with text_required (400) when no on-device recognizer is installed', () => {
    const rows = [row('hosted', { engine: 'remote', provider: 'remote' }), row('not-yet', { status: 'unavailable' }), row('fake', { engine: 'test' })];
    const call = () => chooseTranscriber(deps(rows), zipvoice, null, 'audio');
    expect(call).toThrow(ApiError);
    expect(call).toThrow(/reference_text part is required with model zipvoice.*audio recording.*no speech-to-text model is installed/);
  });

  it('a conversion always needs a recognizer: 422 model_unavailable without one, whatever the model', () => {
    expect(() => chooseTranscriber(deps([]), pocket, 'words', 'reference_audio', true)).toThrow(/voice-conversion with model pocket needs an installed speech-to-text model/);
    expect(chooseTranscriber(deps([row('sphinx', { engine: 'pocketsphinx' })]), pocket, null, 'reference_audio', true)?.modelId).toBe('sphinx');
  });

  it('takes the first recognizer that speaks one of the voice\'s languages, with its default params', () => {
    const rows = [row('german', { languages: ['de'] }), row('sphinx', { engine: 'pocketsphinx', languages: ['en'] }), row('whisper', { languages: ['en', 'de', 'zh'] })];
    expect(chooseTranscriber(deps(rows), zipvoice, null, 'reference_audio')).toEqual({ modelId: 'sphinx', engine: 'pocketsphinx', engineConfig: { id: 'sphinx' }, params: { language: 'auto' } });
  });

  it('else the recognizer with most languages', () => {
    const rows = [row('german', { languages: ['de'] }), row('multi', { languages: ['de', 'fr', 'es'] })];
    expect(chooseTranscriber(deps(rows), zipvoice, null, 'reference_audio')?.modelId).toBe('multi');
  });
});
