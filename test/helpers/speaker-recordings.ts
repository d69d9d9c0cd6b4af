/**
 * Recordings of one voice, cut from `../shared/audio/diarization/pyannote-2spk.wav` with ffmpeg: the stretches where
 * only that speaker talks, by the clip's reference turns (pyannote-2spk.rttm: speaker90, speaker91), put one after
 * another. The speaker-library tests name a speaker in the two-speaker clip and look for that name in these.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpeg } from './audio-fixtures.js';
import { SHARED } from './system.js';

export const TWO_SPEAKERS = join(SHARED, 'audio/diarization/pyannote-2spk.wav');
const RTTM = join(SHARED, 'audio/diarization/pyannote-2spk.rttm');

interface Turn {
  start: number;
  end: number;
  speaker: string;
}

function turns(): Turn[] {
  return readFileSync(RTTM, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('SPEAKER'))
    .map((line) => {
      const f = line.split(/\s+/);
      return { start: Number(f[3]), end: Number(f[3]) + Number(f[4]), speaker: f[7]! };
    });
}

/** [start, end] stretches where `speaker` talks and no one else does, a quarter second in from each edge. */
export function soloStretches(speaker: string): [number, number][] {
  const all = turns();
  let pieces: [number, number][] = all.filter((t) => t.speaker === speaker).map((t) => [t.start, t.end]);
  for (const other of all.filter((t) => t.speaker !== speaker)) {
    pieces = pieces.flatMap(([a, b]): [number, number][] => {
      if (other.end <= a || other.start >= b) return [[a, b]];
      return [...(other.start > a ? [[a, other.start] as [number, number]] : []), ...(other.end < b ? [[other.end, b] as [number, number]] : [])];
    });
  }
  return pieces.map(([a, b]): [number, number] => [a + 0.25, b - 0.25]).filter(([a, b]) => b - a >= 0.5);
}

/** `dir/<speaker>.wav`: the speaker's solo stretches of the two-speaker clip, one after another (16 kHz mono). */
export function oneVoiceRecording(dir: string, speaker: 'speaker90' | 'speaker91'): string {
  const out = join(dir, `${speaker}.wav`);
  const select = soloStretches(speaker)
    .map(([a, b]) => `between(t,${a.toFixed(3)},${b.toFixed(3)})`)
    .join('+');
  ffmpeg(['-i', TWO_SPEAKERS, '-af', `aselect='${select}',asetpts=N/SR/TB`, '-ar', '16000', '-ac', '1', out]);
  return out;
}
