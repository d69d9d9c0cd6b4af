/**
 * Result files of jobs on PostgreSQL, with the semantics of store/artifacts-repo.ts. The token is unique (a second
 * insert of one fails); `markDeleted` changes a row once (`… AND deleted_at IS NULL`), whichever node sweeps first.
 */
import type { ArtifactRow, ArtifactsRepo } from '../artifacts-repo.js';
import type { Async } from '../store.js';
import type { Sql } from './sql.js';

const COLUMNS = [
  'id', 'job_id', 'token', 'file_name', 'path', 'content_type', 'bytes', 'duration_seconds', 'sample_rate', 'channels',
  'created_at', 'expires_at', 'deleted_at',
] as const satisfies readonly (keyof ArtifactRow)[];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM artifacts`;
const INSERT = `INSERT INTO artifacts (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
const OF_JOB = `${SELECT} WHERE job_id = $1 ORDER BY created_at, id`;
const BY_TOKEN = `${SELECT} WHERE token = $1`;
const EXPIRED = `${SELECT} WHERE deleted_at IS NULL AND expires_at <= $1 ORDER BY expires_at`;
const MARK_DELETED = 'UPDATE artifacts SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL';

export function createPgArtifactsRepo(sql: Sql): Async<ArtifactsRepo> {
  return {
    insert: async (row) => void (await sql.run(INSERT, COLUMNS.map((c) => row[c] ?? null))),
    ofJob: (jobId) => sql.all<ArtifactRow>(OF_JOB, [jobId]),
    byToken: (token) => sql.one<ArtifactRow>(BY_TOKEN, [token]),
    expired: (nowIso) => sql.all<ArtifactRow>(EXPIRED, [nowIso]),
    markDeleted: async (id, nowIso) => void (await sql.run(MARK_DELETED, [nowIso, id])),
  };
}
