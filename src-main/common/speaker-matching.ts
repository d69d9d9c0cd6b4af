/**
 * Telling known voices apart (issue 29.3, docs/speakers.md#matching): a recording's speakers, each one embedding of
 * their voice, are compared with an account's speaker profiles by cosine similarity. Pure arithmetic on plain arrays,
 * shared by the engine worker (which labels a new recording) and the job service (which keeps the profiles):
 * - a profile's centre is the mean of its voice samples, each scaled to length 1 first (so that no one recording
 *   weighs more for being louder or longer);
 * - a voice matches a profile when their similarity reaches SPEAKER_MATCH_THRESHOLD and is higher than the voice's
 *   similarity to every "not" sample of that profile (a "not X" correction keeps the voice it was made on as such a
 *   sample: the same voice, or one closer to it than to X, is not taken for X again);
 * - names are given greedily, the most similar pair first: one name per speaker, one speaker per name.
 * sherpa-onnx's SpeakerEmbeddingManager finds the best name above a threshold too, but keeps no "not" examples and
 * may give one name to two speakers; this is the few lines it would take to add both around it.
 */

/**
 * Cosine similarity a voice must reach to take a profile's name. Real embedding models (3D-Speaker, NeMo TitaNet,
 * WeSpeaker) put two recordings of one person mostly above 0.6 and two people mostly below 0.4; sherpa-onnx's own
 * examples use 0.5-0.6. Erring towards leaving a speaker unnamed (a person names them) over naming the wrong one.
 */
export const SPEAKER_MATCH_THRESHOLD = 0.6;

/** A profile as the matcher needs it: its name, the centre of its voice samples and its "not" samples. */
export interface KnownSpeaker {
  id: string;
  name: string;
  centre: number[];
  not: number[][];
}

/** A recording's speaker: its key ("SPEAKER_0") and one embedding of its voice. */
export interface RecordingVoice {
  speaker: string;
  embedding: number[];
  /** Seconds of audio the embedding was computed over. */
  seconds: number;
}

export interface SpeakerMatch {
  speaker: string;
  profileId: string;
  name: string;
  similarity: number;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return -1;
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return aa === 0 || bb === 0 ? -1 : dot / Math.sqrt(aa * bb);
}

/** The mean of the embeddings scaled to length 1 (null for none, or embeddings of different lengths). */
export function centreOf(embeddings: readonly (readonly number[])[]): number[] | null {
  const first = embeddings[0];
  if (!first || embeddings.some((e) => e.length !== first.length)) return null;
  const sum = new Array<number>(first.length).fill(0);
  for (const e of embeddings) {
    const norm = Math.sqrt(e.reduce((n, x) => n + x * x, 0)) || 1;
    for (let i = 0; i < e.length; i++) sum[i]! += e[i]! / norm;
  }
  return sum.map((x) => x / embeddings.length);
}

/** Whether `voice` may take `profile`'s name, and how similar they are (see the docblock). */
export function similarityTo(voice: readonly number[], profile: KnownSpeaker, threshold = SPEAKER_MATCH_THRESHOLD): number | null {
  const similarity = cosine(voice, profile.centre);
  if (similarity < threshold) return null;
  for (const not of profile.not) if (cosine(voice, not) >= similarity) return null;
  return similarity;
}

/** The names a recording's speakers take: the most similar pairs first, one name per speaker and speaker per name. */
export function matchSpeakers(voices: readonly RecordingVoice[], profiles: readonly KnownSpeaker[], threshold = SPEAKER_MATCH_THRESHOLD): SpeakerMatch[] {
  const pairs: SpeakerMatch[] = [];
  for (const voice of voices) {
    for (const profile of profiles) {
      const similarity = similarityTo(voice.embedding, profile, threshold);
      if (similarity !== null) pairs.push({ speaker: voice.speaker, profileId: profile.id, name: profile.name, similarity });
    }
  }
  pairs.sort((a, b) => b.similarity - a.similarity || a.speaker.localeCompare(b.speaker) || a.profileId.localeCompare(b.profileId));
  const named = new Set<string>();
  const taken = new Set<string>();
  const out: SpeakerMatch[] = [];
  for (const pair of pairs) {
    if (named.has(pair.speaker) || taken.has(pair.profileId)) continue;
    named.add(pair.speaker);
    taken.add(pair.profileId);
    out.push(pair);
  }
  return out.sort((a, b) => a.speaker.localeCompare(b.speaker));
}
