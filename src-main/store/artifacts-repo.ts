/** Result files of jobs, served by an unguessable token until they expire (then the file is deleted, the row stays). */
import type { Db } from './db.js';

export interface ArtifactRow {
  id: string;
  job_id: string;
  token: string;
  file_name: string;
  path: string;
  content_type: string;
  bytes: number;
  duration_seconds: string | null;
  sample_rate: number | null;
  channels: number | null;
  created_at: string;
  expires_at: string;
  deleted_at: string | null;
}

/** What the HTTP layer needs to serve `GET /v1/artifacts/:token/:name`. */
export interface FoundArtifact {
  path: string;
  contentType: string;
  fileName: string;
  bytes: number;
  /** Past expires_at or already deleted: answer 410 artifact_expired. */
  expired: boolean;
}

export interface ArtifactsRepo {
  insert(row: ArtifactRow): void;
  ofJob(jobId: string): ArtifactRow[];
  byToken(token: string): ArtifactRow | undefined;
  /** Not yet deleted and expired at `nowIso`. */
  expired(nowIso: string): ArtifactRow[];
  markDeleted(id: string, nowIso: string): void;
}

export function createArtifactsRepo(db: Db): ArtifactsRepo {
  const insert = db.prepare(`INSERT INTO artifacts (id, job_id, token, file_name, path, content_type, bytes,
      duration_seconds, sample_rate, channels, created_at, expires_at, deleted_at)
    VALUES (@id, @job_id, @token, @file_name, @path, @content_type, @bytes, @duration_seconds, @sample_rate,
      @channels, @created_at, @expires_at, @deleted_at)`);
  const ofJob = db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE job_id = ? ORDER BY created_at, id');
  const byToken = db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE token = ?');
  const expired = db.prepare<[string], ArtifactRow>(
    'SELECT * FROM artifacts WHERE deleted_at IS NULL AND expires_at <= ? ORDER BY expires_at',
  );
  const markDeleted = db.prepare('UPDATE artifacts SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL');
  return {
    insert: (row) => void insert.run(row),
    ofJob: (jobId) => ofJob.all(jobId),
    byToken: (token) => byToken.get(token),
    expired: (nowIso) => expired.all(nowIso),
    markDeleted: (id, nowIso) => void markDeleted.run(nowIso, id),
  };
}

/** Looks an artifact up by its link token; undefined for an unknown token. */
export function findArtifact(db: Db, token: string, now: Date = new Date()): FoundArtifact | undefined {
  const row = createArtifactsRepo(db).byToken(token);
  return row ? toFound(row, now) : undefined;
}

export function toFound(row: ArtifactRow, now: Date): FoundArtifact {
  return {
    path: row.path,
    contentType: row.content_type,
    fileName: row.file_name,
    bytes: row.bytes,
    expired: row.deleted_at !== null || row.expires_at <= now.toISOString(),
  };
}
