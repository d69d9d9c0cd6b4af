/**
 * Speakers people know, on the real parts (issue 29.3): pyannote segmentation and the tiny random-weight speaker
 * embedding through the sherpa-onnx engine. A voice named in the two-speaker clip is found in a recording cut from
 * that speaker's turns (ffmpeg), and not in one cut from the other speaker's; a "not" sample stops the match; the
 * speaker counts are honoured. The tiny model's voices all lie above 0.98 cosine similarity (random weights), so these
 * tests set speaker_match_threshold to 0.993, between the same voice (≈0.997) and the other one (≈0.987).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centreOf, type KnownSpeaker, type RecordingVoice } from '../../../../src-main/common/speaker-matching.js';
import { asrFamilyDefinition } from '../../../../src-main/engines/asr/asr-families.js';
import sherpaAsrFactory from '../../../../src-main/engines/asr/sherpa-asr-engine.js';
import type { Engine, EngineOutput, EngineTask } from '../../../../src-main/engines/engine-types.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { recordingContext, sttTask } from '../../../helpers/engine-context.js';
import { oneVoiceRecording, TWO_SPEAKERS } from '../../../helpers/speaker-recordings.js';
import { requireFile, SHARED } from '../../../helpers/system.js';

const TINY = requireFile(join(SHARED, 'models/tiny/tiny-speaker-embedding.onnx'), '../shared/models/tiny').replace('/tiny-speaker-embedding.onnx', '');
const config = asrFamilyDefinition('nemo-ctc', {
  id: 'tiny-nemo-ctc',
  dir: join(TINY, 'tiny-nemo-ctc'),
  languages: ['en'],
  files: { model: 'model.onnx', tokens: 'tokens.txt' },
  support: {
    speakerEmbedding: join(TINY, 'tiny-speaker-embedding.onnx'),
    pyannoteSegmentation: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'),
    sileroVad: join(SHARED, 'models/silero_vad_v5.onnx'),
  },
}).engineConfig;
const THRESHOLD = 0.993;

const temp = makeTempDir('voxdesk-speakers-');
let engine: Engine;
let anna: RecordingVoice;
let justAnna: string;
let justOther: string;
beforeAll(async () => {
  engine = await sherpaAsrFactory();
  justAnna = oneVoiceRecording(temp.dir, 'speaker90');
  justOther = oneVoiceRecording(temp.dir, 'speaker91');
});
afterAll(() => temp.cleanup());

async function transcribe(file: string, params: Record<string, unknown>, knownSpeakers: KnownSpeaker[] = []): Promise<EngineOutput> {
  const task: EngineTask = { ...sttTask(file, 'sherpa-asr', config, { speaker_diarization: true, ...params }), knownSpeakers };
  return engine.run(task, recordingContext());
}

const named = (voice: RecordingVoice, not: number[][] = []): KnownSpeaker => ({ id: 'spk_anna', name: 'Anna', centre: centreOf([voice.embedding])!, not });

describe('speaker voices and names', () => {
  it('keeps one voice per diarized speaker (the embedding model\'s 128 numbers) with the seconds it heard', async () => {
    const out = await transcribe(TWO_SPEAKERS, { num_speakers: 2 });
    const voices = out.transcript!.voices!;
    expect(voices.map((v) => v.speaker)).toEqual(['SPEAKER_0', 'SPEAKER_1']);
    for (const v of voices) {
      expect(v.embedding).toHaveLength(128);
      expect(v.seconds).toBeGreaterThan(5);
    }
    expect(out.result.speaker_names).toBeUndefined();
    // SPEAKER_0 is the README's speaker90 (alone at 7–10 s): the voice this file's tests call Anna.
    anna = voices[0]!;
  });

  it('a voice named in one recording is named in the next, and not given to the other voice', async () => {
    const same = await transcribe(justAnna, { speaker_match_threshold: THRESHOLD }, [named(anna)]);
    const keys = new Set(same.result.segments!.map((s) => s.speaker));
    expect(keys.size).toBe(1);
    const [key] = [...keys];
    expect(same.result.speaker_names).toEqual({ [key!]: 'Anna' });
    expect(same.transcript!.speakerNames).toEqual({ [key!]: 'Anna' });

    const other = await transcribe(justOther, { speaker_match_threshold: THRESHOLD }, [named(anna)]);
    expect(other.result.speaker_names).toBeUndefined();
    expect(other.transcript!.voices).toHaveLength(1);
  });

  it('a "not Anna" sample of a voice keeps the name off it', async () => {
    const first = await transcribe(justAnna, { speaker_match_threshold: THRESHOLD }, [named(anna)]);
    const voice = first.transcript!.voices![0]!;
    const again = await transcribe(justAnna, { speaker_match_threshold: THRESHOLD }, [named(anna, [voice.embedding])]);
    expect(again.result.speaker_names).toBeUndefined();
  });

  it('min_speakers and max_speakers are honoured (the tiny model\'s threshold clustering finds one speaker in the clip)', async () => {
    const speakers = (out: EngineOutput): number => new Set(out.transcript!.speakerTurns!.map((t) => t.speaker)).size;
    expect(speakers(await transcribe(TWO_SPEAKERS, {}))).toBe(1);
    expect(speakers(await transcribe(TWO_SPEAKERS, { min_speakers: 2 }))).toBe(2);
    expect(speakers(await transcribe(TWO_SPEAKERS, { min_speakers: 2, max_speakers: 3 }))).toBe(2);
    expect(speakers(await transcribe(TWO_SPEAKERS, { max_speakers: 1 }))).toBe(1);
    const picovoice = join(SHARED, 'audio/diarization/picovoice-3spk.wav');
    expect(speakers(await transcribe(picovoice, { min_speakers: 3, max_speakers: 3 }))).toBe(3);
  });
});
