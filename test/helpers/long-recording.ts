/**
 * A recording of several minutes for checkpoint tests and benchmarks, made with sox at test time from the shared
 * reference clips (the 58 Hi-Fi TTS utterances, jfk.wav, the two-speaker pyannote clip and the Silero test) with
 * pauses of 0.4 s, 1.5 s and 4 s between them, so that VAD both merges segments and cuts between them.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { requireCommand, SHARED } from './system.js';

const PAUSES = [0.4, 1.5, 4];

/** Writes `long-recording.wav` (16 kHz mono, about 5.5 minutes × `repeat`) into `dir` and returns its path. */
export function makeLongRecording(dir: string, repeat = 1): string {
  const sox = requireCommand('sox');
  const clips = [
    join(SHARED, 'audio/jfk.wav'),
    ...readdirSync(join(SHARED, 'audio/hifitts-6097'))
      .filter((f) => f.endsWith('.wav'))
      .sort()
      .map((f) => join(SHARED, 'audio/hifitts-6097', f)),
    join(SHARED, 'audio/diarization/pyannote-2spk.wav'),
    join(SHARED, 'audio/noisy/silero-test.wav'),
  ];
  const pauses = PAUSES.map((seconds, i) => {
    const path = join(dir, `pause-${i}.wav`);
    execFileSync(sox, ['-n', '-r', '16000', '-c', '1', '-b', '16', path, 'trim', '0', String(seconds)]);
    return path;
  });
  const normalised = clips.map((clip, i) => {
    const path = join(dir, `clip-${i}.wav`);
    execFileSync(sox, [clip, '-r', '16000', '-c', '1', '-b', '16', path]);
    return path;
  });
  const once = normalised.flatMap((clip, i) => [clip, pauses[i % pauses.length]!]);
  const out = join(dir, 'long-recording.wav');
  execFileSync(sox, [...Array.from({ length: repeat }, () => once).flat(), out]);
  return out;
}
