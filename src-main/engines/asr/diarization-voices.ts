/**
 * Each diarized speaker's voice as one embedding (issue 29.3, docs/speakers.md): sherpa-onnx's
 * SpeakerEmbeddingExtractor with the same embedding model the diarization clustered with, over that speaker's own
 * turns — the parts no other speaker overlaps, longest first, at most MAX_VOICE_SECONDS in all — so that naming a
 * speaker can keep their voice, and a later recording's speakers can be compared with the voices kept. Runs in the
 * engine worker, after diarization, on the samples diarization read.
 */
import { JobError } from '../../common/errors.js';
import type { RecordingVoice } from '../../common/speaker-matching.js';
import type { SpeakerTurn } from './diarization.js';
import { loadSherpa, type SherpaSpeakerEmbeddingExtractor } from './sherpa-native.js';

/** Most audio one speaker's embedding is computed over: enough for a stable voice, bounded work per speaker. */
export const MAX_VOICE_SECONDS = 60;
/** A speaker with less audio of their own than this gets no embedding (too little to tell a voice by). */
export const MIN_VOICE_SECONDS = 1;

const SAMPLE_RATE = 16000;
const extractors = new Map<string, SherpaSpeakerEmbeddingExtractor>();

function extractor(model: string): SherpaSpeakerEmbeddingExtractor {
  let found = extractors.get(model);
  if (!found) {
    try {
      found = new (loadSherpa().SpeakerEmbeddingExtractor)({ model, numThreads: 1, debug: 0 });
    } catch (cause) {
      throw new JobError('engine_failed', `the speaker-embedding model could not be loaded: ${(cause as Error).message}`, { cause });
    }
    extractors.clear();
    extractors.set(model, found);
  }
  return found;
}

/** [start, end) pieces of `turn` that no turn of another speaker overlaps. */
function ownPieces(turn: SpeakerTurn, turns: readonly SpeakerTurn[]): [number, number][] {
  let pieces: [number, number][] = [[turn.start, turn.end]];
  for (const other of turns) {
    if (other.speaker === turn.speaker || other.end <= turn.start || other.start >= turn.end) continue;
    pieces = pieces.flatMap(([a, b]): [number, number][] => {
      if (other.end <= a || other.start >= b) return [[a, b]];
      const left: [number, number][] = other.start > a ? [[a, other.start]] : [];
      const right: [number, number][] = other.end < b ? [[other.end, b]] : [];
      return [...left, ...right];
    });
  }
  return pieces.filter(([a, b]) => b > a);
}

/** The stretches a speaker's embedding is computed over: their own audio, longest pieces first, bounded, in time order. */
export function voiceStretches(speaker: string, turns: readonly SpeakerTurn[], maxSeconds = MAX_VOICE_SECONDS): [number, number][] {
  const pieces = turns.filter((t) => t.speaker === speaker).flatMap((t) => ownPieces(t, turns));
  pieces.sort((x, y) => y[1] - y[0] - (x[1] - x[0]) || x[0] - y[0]);
  const kept: [number, number][] = [];
  let total = 0;
  for (const [a, b] of pieces) {
    if (total >= maxSeconds) break;
    const end = Math.min(b, a + (maxSeconds - total));
    kept.push([a, end]);
    total += end - a;
  }
  return kept.sort((x, y) => x[0] - y[0]);
}

/** One embedding per speaker with at least MIN_VOICE_SECONDS of their own audio in `samples` (16 kHz mono). */
export function recordingVoices(embeddingModel: string, samples: Float32Array, turns: readonly SpeakerTurn[]): RecordingVoice[] {
  const speakers = [...new Set(turns.map((t) => t.speaker))].sort();
  const out: RecordingVoice[] = [];
  for (const speaker of speakers) {
    const stretches = voiceStretches(speaker, turns);
    const seconds = stretches.reduce((n, [a, b]) => n + (b - a), 0);
    if (seconds < MIN_VOICE_SECONDS) continue;
    const parts = stretches.map(([a, b]) => samples.subarray(Math.round(a * SAMPLE_RATE), Math.min(samples.length, Math.round(b * SAMPLE_RATE))));
    const audio = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      audio.set(part, at);
      at += part.length;
    }
    const embedding = embed(extractor(embeddingModel), audio);
    if (embedding) out.push({ speaker, embedding, seconds: Math.round(seconds * 1000) / 1000 });
  }
  return out;
}

/**
 * One embedding of `samples` (16 kHz mono) with the embedding model, or null when they are too short for it: a live
 * meeting capture's utterance of the other side (engines/capture/speaker-child.ts).
 */
export function voiceEmbedding(embeddingModel: string, samples: Float32Array): number[] | null {
  return embed(extractor(embeddingModel), samples);
}

function embed(engine: SherpaSpeakerEmbeddingExtractor, audio: Float32Array): number[] | null {
  try {
    const stream = engine.createStream();
    stream.acceptWaveform({ samples: audio, sampleRate: SAMPLE_RATE });
    stream.inputFinished();
    if (!engine.isReady(stream)) return null;
    // Rounded: a voice is stored as JSON, and six digits keep every similarity to about 1e-6.
    return Array.from(engine.compute(stream, false), (x) => Math.round(x * 1e6) / 1e6);
  } catch (cause) {
    throw new JobError('engine_failed', `a speaker's voice could not be computed: ${(cause as Error).message}`, { cause });
  }
}
