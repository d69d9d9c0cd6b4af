/**
 * A recording of two different real voices taking turns, for the meeting capture's speaker tests: a Hi-Fi TTS
 * reader (speaker 6097), then speaker91 of the pyannote two-speaker clip (their solo stretches, speaker-recordings.ts),
 * then the reader again, with 1.5 s of silence between turns so that every utterance is one voice. 16 kHz mono, 27 s.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { oneVoiceRecording } from './speaker-recordings.js';
import { requireCommand, SHARED } from './system.js';

const READER = join(SHARED, 'audio/hifitts-6097');

/** `dir/two-voices.wav` (made with sox). */
export function twoVoicesRecording(dir: string): string {
  const sox = requireCommand('sox', 'sox');
  const other = oneVoiceRecording(dir, 'speaker91');
  const silence = join(dir, 'silence.wav');
  execFileSync(sox, ['-n', '-r', '16000', '-c', '1', silence, 'trim', '0', '1.5']);
  const reader = (name: string): string => {
    const out = join(dir, name);
    execFileSync(sox, [join(READER, name), '-r', '16000', '-c', '1', out]);
    return out;
  };
  const out = join(dir, 'two-voices.wav');
  execFileSync(sox, [reader('astralplane_03_leadbeater_0639.wav'), silence, other, silence, reader('astralplane_06_leadbeater_0349.wav'), out]);
  return out;
}

/** The diarization models as installed in tests: the real pyannote segmentation, the tiny random-weight embedding. */
export const TEST_DIARIZATION_MODELS = {
  segmentation: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'),
  embedding: join(SHARED, 'models/tiny/tiny-speaker-embedding.onnx'),
};
