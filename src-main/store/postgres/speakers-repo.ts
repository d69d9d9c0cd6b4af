/** The speaker library on PostgreSQL, with the semantics of store/speakers-repo.ts. */
import type { Async } from '../store.js';
import { KNOWN, type KnownProfileRow, type RecordingVoiceRow, type SpeakerProfileRow, type SpeakersRepo } from '../speakers-repo.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const PROFILE = `SELECT p.id, p.account_id, p.name, p.created_at, p.updated_at,
  (SELECT COUNT(*) FROM speaker_samples s WHERE s.profile_id = p.id AND s.kind = 'voice')::int AS samples,
  (SELECT COUNT(*) FROM speaker_samples s WHERE s.profile_id = p.id AND s.kind = 'not')::int AS not_samples
  FROM speaker_profiles p`;
const PUT_VOICE = `INSERT INTO recording_voices (job_id, speaker, seconds, embedding_json) VALUES ($1, $2, $3, $4)
  ON CONFLICT (job_id, speaker) DO UPDATE SET seconds = excluded.seconds, embedding_json = excluded.embedding_json`;
const TRIM = `DELETE FROM speaker_samples WHERE profile_id = $1 AND kind = $2 AND id NOT IN
  (SELECT id FROM speaker_samples WHERE profile_id = $1 AND kind = $2 ORDER BY id DESC LIMIT $3)`;
const RECORDING_SAMPLES = `DELETE FROM speaker_samples s USING speaker_profiles p
  WHERE p.id = s.profile_id AND p.account_id = $1 AND s.kind = $2 AND s.job_id = $3 AND s.speaker = $4 RETURNING s.profile_id`;

export function createPgSpeakersRepo(sql: Sql, _shared: PgShared): Async<SpeakersRepo> {
  return {
    async putVoices(rows) {
      if (rows.length === 0) return;
      await sql.atomic(async (tx) => {
        for (const row of rows) await tx.run(PUT_VOICE, [row.job_id, row.speaker, row.seconds, row.embedding_json]);
      });
    },
    voiceOf: (jobId, speaker) => sql.one<RecordingVoiceRow>('SELECT job_id, speaker, seconds, embedding_json FROM recording_voices WHERE job_id = $1 AND speaker = $2', [jobId, speaker]),
    list: (accountId) => sql.all<SpeakerProfileRow>(`${PROFILE} WHERE p.account_id = $1 ORDER BY p.name, p.id`, [accountId]),
    async count(accountId) {
      return (await sql.one<{ n: number }>('SELECT COUNT(*)::int AS n FROM speaker_profiles WHERE account_id = $1', [accountId]))?.n ?? 0;
    },
    get: (accountId, id) => sql.one<SpeakerProfileRow>(`${PROFILE} WHERE p.account_id = $1 AND p.id = $2`, [accountId, id]),
    byName: (accountId, name) => sql.one<SpeakerProfileRow>(`${PROFILE} WHERE p.account_id = $1 AND p.name = $2`, [accountId, name]),
    async create(row) {
      await sql.run('INSERT INTO speaker_profiles (id, account_id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)', [row.id, row.account_id, row.name, row.created_at]);
    },
    async rename(id, name, at) {
      await sql.run('UPDATE speaker_profiles SET name = $1, updated_at = $2 WHERE id = $3', [name, at, id]);
    },
    async touch(id, at) {
      await sql.run('UPDATE speaker_profiles SET updated_at = $1 WHERE id = $2', [at, id]);
    },
    async delete(id) {
      await sql.atomic(async (tx) => {
        await tx.run('DELETE FROM speaker_samples WHERE profile_id = $1', [id]);
        await tx.run('DELETE FROM speaker_profiles WHERE id = $1', [id]);
      });
    },
    async addSample(row) {
      await sql.run('INSERT INTO speaker_samples (profile_id, kind, job_id, speaker, embedding_json, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        row.profile_id,
        row.kind,
        row.job_id,
        row.speaker,
        row.embedding_json,
        row.created_at,
      ]);
    },
    async removeRecordingSamples(accountId, kind, jobId, speaker) {
      const rows = await sql.write<{ profile_id: string }>(RECORDING_SAMPLES, [accountId, kind, jobId, speaker]);
      return [...new Set(rows.map((r) => r.profile_id))];
    },
    async removeProfileSamples(profileId, kind, jobId, speaker) {
      await sql.run('DELETE FROM speaker_samples WHERE profile_id = $1 AND kind = $2 AND job_id = $3 AND speaker = $4', [profileId, kind, jobId, speaker]);
    },
    async trimSamples(profileId, kind, keep) {
      await sql.run(TRIM, [profileId, kind, keep]);
    },
    async moveSamples(fromId, intoId) {
      await sql.run('UPDATE speaker_samples SET profile_id = $1 WHERE profile_id = $2', [intoId, fromId]);
    },
    async embeddingsOf(profileId, kind) {
      const rows = await sql.all<{ embedding_json: string }>('SELECT embedding_json FROM speaker_samples WHERE profile_id = $1 AND kind = $2 ORDER BY id', [profileId, kind]);
      return rows.map((r) => r.embedding_json);
    },
    async setCentre(profileId, centreJson) {
      await sql.run('UPDATE speaker_profiles SET centre_json = $1 WHERE id = $2', [centreJson, profileId]);
    },
    known: (accountId) => sql.all<KnownProfileRow>(KNOWN.replace('?', '$1'), [accountId]),
  };
}
