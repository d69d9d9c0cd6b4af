/**
 * Each account's speaker library and each diarized recording's voices (migration 028, docs/speakers.md). The rules
 * (what naming a speaker or a "not X" correction does to a profile) are jobs/transcripts/speaker-library.ts's; this
 * file only reads and writes rows. Embeddings travel as JSON text.
 */
import type { Db } from './db.js';

export interface SpeakerProfileRow {
  id: string;
  account_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  /** Voice samples (named speakers) the profile is made of. */
  samples: number;
  /** "Not" samples (voices it must not match again). */
  not_samples: number;
}

export type SpeakerSampleKind = 'voice' | 'not';

export interface SpeakerSampleRow {
  profile_id: string;
  kind: SpeakerSampleKind;
  job_id: string;
  speaker: string;
  embedding_json: string;
  created_at: string;
}

export interface RecordingVoiceRow {
  job_id: string;
  speaker: string;
  seconds: number;
  embedding_json: string;
}

/** What matching needs of the account's profiles: each profile with a centre, and its "not" voices (null: none). */
export interface KnownProfileRow {
  profile_id: string;
  name: string;
  centre_json: string;
  /** One "not" voice per row; a profile without any has one row with null here. */
  not_json: string | null;
}

export interface SpeakersRepo {
  /** Stores a recording's voices (replacing any kept for the same speaker keys). */
  putVoices(rows: readonly RecordingVoiceRow[]): void;
  voiceOf(jobId: string, speaker: string): RecordingVoiceRow | undefined;
  list(accountId: string): SpeakerProfileRow[];
  count(accountId: string): number;
  get(accountId: string, id: string): SpeakerProfileRow | undefined;
  byName(accountId: string, name: string): SpeakerProfileRow | undefined;
  create(row: { id: string; account_id: string; name: string; created_at: string }): void;
  rename(id: string, name: string, at: string): void;
  touch(id: string, at: string): void;
  /** Deletes a profile and its samples. */
  delete(id: string): void;
  addSample(row: SpeakerSampleRow): void;
  /** Removes the samples of `kind` one recording's speaker gave the account's profiles; the profiles they were in. */
  removeRecordingSamples(accountId: string, kind: SpeakerSampleKind, jobId: string, speaker: string): string[];
  /** Removes one recording speaker's samples of `kind` from one profile. */
  removeProfileSamples(profileId: string, kind: SpeakerSampleKind, jobId: string, speaker: string): void;
  /** Keeps the newest `keep` samples of `kind` of a profile. */
  trimSamples(profileId: string, kind: SpeakerSampleKind, keep: number): void;
  /** Moves every sample of one profile to another. */
  moveSamples(fromId: string, intoId: string): void;
  /** The embeddings of a profile's samples of `kind`, oldest first. */
  embeddingsOf(profileId: string, kind: SpeakerSampleKind): string[];
  setCentre(profileId: string, centreJson: string | null): void;
  /** The account's profiles that have a centre, with their "not" voices. */
  known(accountId: string): KnownProfileRow[];
}

const PROFILE = `SELECT p.id, p.account_id, p.name, p.created_at, p.updated_at,
  (SELECT COUNT(*) FROM speaker_samples s WHERE s.profile_id = p.id AND s.kind = 'voice') AS samples,
  (SELECT COUNT(*) FROM speaker_samples s WHERE s.profile_id = p.id AND s.kind = 'not') AS not_samples
  FROM speaker_profiles p`;

/** Shared with the PostgreSQL repository (`?` placeholders rewritten there). */
export const KNOWN = `SELECT p.id AS profile_id, p.name, p.centre_json, s.embedding_json AS not_json
  FROM speaker_profiles p LEFT JOIN speaker_samples s ON s.profile_id = p.id AND s.kind = 'not'
  WHERE p.account_id = ? AND p.centre_json IS NOT NULL ORDER BY p.id, s.id`;

export function createSpeakersRepo(db: Db): SpeakersRepo {
  const putVoice = db.prepare<[string, string, number, string]>(
    `INSERT INTO recording_voices (job_id, speaker, seconds, embedding_json) VALUES (?, ?, ?, ?)
     ON CONFLICT(job_id, speaker) DO UPDATE SET seconds = excluded.seconds, embedding_json = excluded.embedding_json`,
  );
  const voiceOf = db.prepare<[string, string], RecordingVoiceRow>('SELECT job_id, speaker, seconds, embedding_json FROM recording_voices WHERE job_id = ? AND speaker = ?');
  const list = db.prepare<[string], SpeakerProfileRow>(`${PROFILE} WHERE p.account_id = ? ORDER BY p.name, p.id`);
  const count = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM speaker_profiles WHERE account_id = ?');
  const get = db.prepare<[string, string], SpeakerProfileRow>(`${PROFILE} WHERE p.account_id = ? AND p.id = ?`);
  const byName = db.prepare<[string, string], SpeakerProfileRow>(`${PROFILE} WHERE p.account_id = ? AND p.name = ?`);
  const create = db.prepare<[string, string, string, string, string]>('INSERT INTO speaker_profiles (id, account_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const rename = db.prepare<[string, string, string]>('UPDATE speaker_profiles SET name = ?, updated_at = ? WHERE id = ?');
  const touch = db.prepare<[string, string]>('UPDATE speaker_profiles SET updated_at = ? WHERE id = ?');
  const dropSamples = db.prepare<[string]>('DELETE FROM speaker_samples WHERE profile_id = ?');
  const dropProfile = db.prepare<[string]>('DELETE FROM speaker_profiles WHERE id = ?');
  const addSample = db.prepare<[string, string, string, string, string, string]>(
    'INSERT INTO speaker_samples (profile_id, kind, job_id, speaker, embedding_json, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const recordingSamples = db.prepare<[string, string, string, string], { id: number; profile_id: string }>(
    `SELECT s.id, s.profile_id FROM speaker_samples s JOIN speaker_profiles p ON p.id = s.profile_id
     WHERE p.account_id = ? AND s.kind = ? AND s.job_id = ? AND s.speaker = ?`,
  );
  const dropSample = db.prepare<[number]>('DELETE FROM speaker_samples WHERE id = ?');
  const dropProfileSamples = db.prepare<[string, string, string, string]>('DELETE FROM speaker_samples WHERE profile_id = ? AND kind = ? AND job_id = ? AND speaker = ?');
  const trim = db.prepare<[string, string, string, string, number]>(
    `DELETE FROM speaker_samples WHERE profile_id = ? AND kind = ? AND id NOT IN
     (SELECT id FROM speaker_samples WHERE profile_id = ? AND kind = ? ORDER BY id DESC LIMIT ?)`,
  );
  const move = db.prepare<[string, string]>('UPDATE speaker_samples SET profile_id = ? WHERE profile_id = ?');
  const embeddingsOf = db.prepare<[string, string], { embedding_json: string }>('SELECT embedding_json FROM speaker_samples WHERE profile_id = ? AND kind = ? ORDER BY id');
  const setCentre = db.prepare<[string | null, string]>('UPDATE speaker_profiles SET centre_json = ? WHERE id = ?');
  const known = db.prepare<[string], KnownProfileRow>(KNOWN);
  return {
    putVoices(rows) {
      for (const row of rows) putVoice.run(row.job_id, row.speaker, row.seconds, row.embedding_json);
    },
    voiceOf: (jobId, speaker) => voiceOf.get(jobId, speaker),
    list: (accountId) => list.all(accountId),
    count: (accountId) => count.get(accountId)?.n ?? 0,
    get: (accountId, id) => get.get(accountId, id),
    byName: (accountId, name) => byName.get(accountId, name),
    create(row) {
      create.run(row.id, row.account_id, row.name, row.created_at, row.created_at);
    },
    rename(id, name, at) {
      rename.run(name, at, id);
    },
    touch(id, at) {
      touch.run(at, id);
    },
    delete(id) {
      dropSamples.run(id);
      dropProfile.run(id);
    },
    addSample(row) {
      addSample.run(row.profile_id, row.kind, row.job_id, row.speaker, row.embedding_json, row.created_at);
    },
    removeRecordingSamples(accountId, kind, jobId, speaker) {
      const rows = recordingSamples.all(accountId, kind, jobId, speaker);
      for (const row of rows) dropSample.run(row.id);
      return [...new Set(rows.map((r) => r.profile_id))];
    },
    removeProfileSamples(profileId, kind, jobId, speaker) {
      dropProfileSamples.run(profileId, kind, jobId, speaker);
    },
    trimSamples(profileId, kind, keep) {
      trim.run(profileId, kind, profileId, kind, keep);
    },
    moveSamples(fromId, intoId) {
      move.run(intoId, fromId);
    },
    embeddingsOf: (profileId, kind) => embeddingsOf.all(profileId, kind).map((r) => r.embedding_json),
    setCentre(profileId, centreJson) {
      setCentre.run(centreJson, profileId);
    },
    known: (accountId) => known.all(accountId),
  };
}
