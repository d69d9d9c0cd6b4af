/**
 * Who spoke when: sherpa-onnx OfflineSpeakerDiarization (pyannote segmentation + a speaker-embedding model), then
 * each transcript segment and word takes the speaker it overlaps most ("SPEAKER_0", "SPEAKER_1", …).
 */
import type { TranscriptSegment, TranscriptWord } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';
import { loadSherpa, type SherpaDiarizationSegment, type SherpaSpeakerDiarization } from './sherpa-native.js';

export interface DiarizationModels {
  segmentation: string;
  embedding: string;
}

/** Clustering threshold when the number of speakers is not given (sherpa-onnx's example value). Default 0.5. */
export const DIARIZATION_THRESHOLD = 0.5;

export interface SpeakerTurn {
  start: number;
  end: number;
  speaker: string;
}

/**
 * How many speakers to find: `exact` (num_speakers), or a range (`min`, `max`: min_speakers, max_speakers, either
 * optional), or neither (estimated from the audio). Checked by asr-params.ts speakerCount.
 */
export interface SpeakerCount {
  exact?: number;
  min?: number;
  max?: number;
}

/** One loaded diarizer per worker (the models of the last job); its clustering is set per call. */
const cache = new Map<string, SherpaSpeakerDiarization>();

function diarizer(models: DiarizationModels): SherpaSpeakerDiarization {
  const key = JSON.stringify(models);
  let engine = cache.get(key);
  if (!engine) {
    try {
      engine = new (loadSherpa().OfflineSpeakerDiarization)({
        segmentation: { pyannote: { model: models.segmentation }, numThreads: 1, debug: 0 },
        embedding: { model: models.embedding, numThreads: 1, debug: 0 },
        clustering: { numClusters: -1, threshold: DIARIZATION_THRESHOLD },
        minDurationOn: 0.3,
        minDurationOff: 0.5,
      });
    } catch (cause) {
      throw new JobError('engine_failed', `the diarization models could not be loaded: ${(cause as Error).message}`, { cause });
    }
    cache.clear();
    cache.set(key, engine);
  }
  return engine;
}

function run(engine: SherpaSpeakerDiarization, samples: Float32Array, clustering: { numClusters: number; threshold?: number }): SherpaDiarizationSegment[] {
  engine.setConfig({ clustering });
  return engine.process(samples);
}

/** The count to cluster into again when `found` speakers lie outside the range: its nearest bound; null inside it. */
export function nearestAllowedCount(found: number, count: SpeakerCount): number | null {
  if (count.min !== undefined && found < count.min) return count.min;
  if (count.max !== undefined && found > count.max) return count.max;
  return null;
}

/**
 * Who spoke when. sherpa-onnx clusters either into a given number of speakers or by a distance threshold, so a
 * range is honoured in up to two passes: clustered by the threshold first, and when that finds fewer speakers than
 * `min` (or more than `max`) clustered again into exactly `min` (or `max`) — the nearest count the range allows.
 * The second pass runs segmentation and embeddings again (about the time of the first).
 */
export function diarize(models: DiarizationModels, samples: Float32Array, count: SpeakerCount = {}): SpeakerTurn[] {
  if (samples.length === 0) return [];
  const engine = diarizer(models);
  let raw: SherpaDiarizationSegment[];
  if (count.exact !== undefined) {
    raw = run(engine, samples, { numClusters: count.exact });
  } else {
    raw = run(engine, samples, { numClusters: -1, threshold: DIARIZATION_THRESHOLD });
    const nearest = nearestAllowedCount(new Set(raw.map((s) => s.speaker)).size, count);
    if (nearest !== null && raw.length > 0) raw = run(engine, samples, { numClusters: nearest });
  }
  return raw.map((s) => ({ start: s.start, end: s.end, speaker: `SPEAKER_${s.speaker}` }));
}

/** The speaker overlapping [start, end) most; the nearest turn when none overlaps; undefined without turns. */
export function speakerAt(turns: SpeakerTurn[], start: number, end: number): string | undefined {
  const overlap = new Map<string, number>();
  for (const turn of turns) {
    const o = Math.min(end, turn.end) - Math.max(start, turn.start);
    if (o > 0) overlap.set(turn.speaker, (overlap.get(turn.speaker) ?? 0) + o);
  }
  let best: string | undefined;
  let bestOverlap = 0;
  for (const [speaker, o] of overlap) {
    if (o > bestOverlap) [best, bestOverlap] = [speaker, o];
  }
  if (best) return best;
  let nearest: SpeakerTurn | undefined;
  let distance = Infinity;
  for (const turn of turns) {
    const d = Math.max(turn.start - end, start - turn.end, 0);
    if (d < distance) [nearest, distance] = [turn, d];
  }
  return nearest?.speaker;
}

export function labelSpeakers<T extends TranscriptSegment | TranscriptWord>(items: T[] | undefined, turns: SpeakerTurn[]): void {
  if (!items || turns.length === 0) return;
  for (const item of items) {
    const speaker = speakerAt(turns, item.start, item.end);
    if (speaker) item.speaker = speaker;
  }
}

/**
 * Splits transcript segments where the speaker changes between their (labelled) words, so that a segment never
 * spans two speakers when word timings exist. Segments without words keep their single, majority speaker.
 */
export function splitSegmentsBySpeaker(segments: TranscriptSegment[], words: TranscriptWord[] | undefined): TranscriptSegment[] {
  if (!words || words.length === 0) return segments;
  const out: TranscriptSegment[] = [];
  let w = 0;
  for (const segment of segments) {
    const inside: TranscriptWord[] = [];
    while (w < words.length && words[w]!.start < segment.end) {
      if (words[w]!.start >= segment.start - 1e-6) inside.push(words[w]!);
      w++;
    }
    const groups: TranscriptWord[][] = [];
    for (const word of inside) {
      const last = groups[groups.length - 1];
      if (last && last[0]!.speaker === word.speaker) last.push(word);
      else groups.push([word]);
    }
    if (groups.length <= 1) {
      out.push({ ...segment, id: out.length });
      continue;
    }
    for (const group of groups) {
      const piece: TranscriptSegment = {
        id: out.length,
        start: group[0]!.start,
        end: group[group.length - 1]!.end,
        text: group.map((x) => x.word).join(' '),
        ...(segment.flags?.length ? { flags: [...segment.flags] } : {}),
      };
      if (group[0]!.speaker) piece.speaker = group[0]!.speaker;
      out.push(piece);
    }
  }
  return out;
}
