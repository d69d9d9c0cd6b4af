/**
 * Speakers people know (issue 29.3, docs/speakers.md): what the speaker library adds to a diarized transcription,
 * per recording, and how far apart voices are with the embedding model at hand.
 * - `voices_ms`: computing each diarized speaker's voice (diarization-voices.ts: the embedding model over at most
 *   60 s of each speaker's own audio), after diarization (`diarize_ms`, reported alongside as the baseline);
 * - `match_ms_p50`/`p95`: matching those voices against a library of PROFILES profiles (speaker-matching.ts), each
 *   a centre and 10 "not" voices (the most a profile keeps), over 200 runs;
 * - `same_voice`/`other_voice`: the cosine similarity of each speaker of the two-speaker clip to a recording cut from
 *   that speaker's own turns (ffmpeg) and to one cut from the other's — with a real embedding model, how well the
 *   0.6 threshold separates them (the tiny random-weight model puts everything above 0.98).
 * The embedding model: $VOXDESK_SPEAKER_EMBEDDING (e.g. an installed titanet or 3D-Speaker .onnx), default the tiny
 * one in ../shared/models/tiny. Prints one JSON line.
 * Usage: node --import tsx bench/speaker-matching.ts [PROFILES=200] [RECORDING=../shared/audio/diarization/pyannote-2spk.wav]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cosine, matchSpeakers, SPEAKER_MATCH_THRESHOLD, type KnownSpeaker, type RecordingVoice } from '../src-main/common/speaker-matching.js';
import { MAX_SPEAKER_NOT_SAMPLES, MAX_SPEAKER_PROFILES } from '../src-main/common/limits.js';
import { diarize, type DiarizationModels } from '../src-main/engines/asr/diarization.js';
import { recordingVoices } from '../src-main/engines/asr/diarization-voices.js';
import { decodeBlocks } from '../src-main/engines/audio/decode.js';
import { concatSamples } from '../src-main/engines/audio/segments.js';
import { percentile, round3 } from './_stats.js';

const SHARED = new URL('../../shared/', import.meta.url).pathname;
const PROFILES = Number(process.argv[2] ?? MAX_SPEAKER_PROFILES);
const RECORDING = process.argv[3] ?? join(SHARED, 'audio/diarization/pyannote-2spk.wav');
const models: DiarizationModels = {
  segmentation: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'),
  embedding: process.env.VOXDESK_SPEAKER_EMBEDDING ?? join(SHARED, 'models/tiny/tiny-speaker-embedding.onnx'),
};
const RUNS = 200;

async function samplesOf(file: string): Promise<Float32Array> {
  const blocks: Float32Array[] = [];
  for await (const block of decodeBlocks(file)) blocks.push(block);
  return concatSamples(blocks);
}

/** A seeded generator, so every run matches against the same library. */
let seed = 7;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31 - 0.5;
}

function library(dim: number): KnownSpeaker[] {
  const vector = (): number[] => Array.from({ length: dim }, random);
  return Array.from({ length: PROFILES }, (_, i) => ({ id: `spk_${i}`, name: `Person ${i}`, centre: vector(), not: Array.from({ length: MAX_SPEAKER_NOT_SAMPLES }, vector) }));
}

/** Voices of the clip's reference speakers cut out by their turns (pyannote-2spk.rttm), or null for another recording. */
async function separation(voices: RecordingVoice[]): Promise<{ same_voice: number[]; other_voice: number[] } | null> {
  const rttm = RECORDING.replace(/\.wav$/, '.rttm');
  let lines: string[];
  try {
    lines = readFileSync(rttm, 'utf8').split('\n').filter((l) => l.startsWith('SPEAKER'));
  } catch {
    return null;
  }
  const turns = lines.map((l) => l.split(/\s+/)).map((f) => ({ start: Number(f[3]), end: Number(f[3]) + Number(f[4]), speaker: f[7]! }));
  const names = [...new Set(turns.map((t) => t.speaker))].sort();
  if (names.length !== 2 || voices.length !== 2) return null;
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-speakers-'));
  try {
    const cut: RecordingVoice[] = [];
    for (const name of names) {
      // The stretches where only this speaker talks.
      let solo: [number, number][] = turns.filter((t) => t.speaker === name).map((t) => [t.start, t.end]);
      for (const o of turns.filter((t) => t.speaker !== name)) {
        solo = solo.flatMap(([a, b]): [number, number][] =>
          o.end <= a || o.start >= b ? [[a, b]] : [...(o.start > a ? [[a, o.start] as [number, number]] : []), ...(o.end < b ? [[o.end, b] as [number, number]] : [])],
        );
      }
      const select = solo.map(([a, b]) => `between(t,${a},${b})`).join('+');
      const file = join(dir, `${name}.wav`);
      execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', RECORDING, '-af', `aselect='${select}',asetpts=N/SR/TB`, '-ar', '16000', '-ac', '1', file]);
      const samples = await samplesOf(file);
      const [voice] = recordingVoices(models.embedding, samples, [{ start: 0, end: samples.length / 16000, speaker: name }]);
      if (voice) cut.push(voice);
    }
    if (cut.length !== 2) return null;
    // Which diarized speaker is which reference speaker: the pairing with the higher total similarity.
    const straight = cosine(voices[0]!.embedding, cut[0]!.embedding) + cosine(voices[1]!.embedding, cut[1]!.embedding);
    const crossed = cosine(voices[0]!.embedding, cut[1]!.embedding) + cosine(voices[1]!.embedding, cut[0]!.embedding);
    const pair = straight >= crossed ? [cut[0]!, cut[1]!] : [cut[1]!, cut[0]!];
    return {
      same_voice: voices.map((v, i) => round3(cosine(v.embedding, pair[i]!.embedding))),
      other_voice: voices.map((v, i) => round3(cosine(v.embedding, pair[1 - i]!.embedding))),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const samples = await samplesOf(RECORDING);
let started = performance.now();
const turns = diarize(models, samples, { exact: 2 });
const diarizeMs = performance.now() - started;
started = performance.now();
const voices = recordingVoices(models.embedding, samples, turns);
const voicesMs = performance.now() - started;
const known = library(voices[0]?.embedding.length ?? 128);
const matchMs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  started = performance.now();
  matchSpeakers(voices, known);
  matchMs.push(performance.now() - started);
}
console.log(
  JSON.stringify({
    bench: 'speaker-matching',
    recording: basename(RECORDING),
    seconds: round3(samples.length / 16000),
    embedding_model: basename(models.embedding),
    speakers: voices.length,
    profiles: PROFILES,
    diarize_ms: round3(diarizeMs),
    voices_ms: round3(voicesMs),
    match_ms_p50: round3(percentile(matchMs, 50)),
    match_ms_p95: round3(percentile(matchMs, 95)),
    threshold: SPEAKER_MATCH_THRESHOLD,
    ...((await separation(voices)) ?? {}),
  }),
);
