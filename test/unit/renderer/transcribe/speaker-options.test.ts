/**
 * The Transcribe tab offers speaker separation exactly when the chosen model can do it (issue 29.5), read from the
 * params schemas the service publishes (engines/asr/asr-params-schema.ts): with the speaker models installed, and
 * not before (then speaker_diarization is listed as enum [false]).
 */
import { describe, expect, it } from 'vitest';
import { asrParamsSchema } from '../../../../src-main/engines/asr/asr-params-schema.js';
import { pocketsphinxDefinition } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import { speakerOptions } from '../../../../src-renderer/src/transcribe/speaker-options.js';

describe('speaker options of the Transcribe tab', () => {
  it('offers separation and the number of speakers once the speaker models are installed', () => {
    const schema = (diarization: boolean) => asrParamsSchema({ family: 'nemo-transducer', languages: ['en'], vad: true, diarization });
    expect(speakerOptions(schema(true) as { properties?: unknown })).toEqual({ separate: true, count: true });
    expect(speakerOptions(schema(false) as { properties?: unknown })).toEqual({ separate: false, count: false });
  });

  it('offers nothing for a model that labels no speakers, or none chosen', () => {
    expect(speakerOptions(pocketsphinxDefinition().paramsSchema as { properties?: unknown })).toEqual({ separate: false, count: false });
    expect(speakerOptions(undefined)).toEqual({ separate: false, count: false });
  });
});
