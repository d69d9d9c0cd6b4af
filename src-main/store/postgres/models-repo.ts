/**
 * The model manager's tables on PostgreSQL, with the semantics of store/models-repo.ts. `putInstalled` and
 * `deleteUrlPackage` are one transaction each (the caller's, or their own); `addUrlPackage` is `INSERT … ON CONFLICT
 * DO NOTHING` on the id, so of two nodes adding one id exactly one is told true (and, as SQLite's INSERT OR IGNORE, a
 * row breaking the table's rules is skipped, not an error). `startDownload` is an upsert on the model id;
 * `saveProgress` and `failDownload` update one row (the later commit's values stay; one node downloads a model);
 * the deletions delete what is there, once. `othersCommits()` counts other
 * nodes' commits (the change feed), SQLite's data_version on one file; `fingerprint()` lists the same facts in the
 * same order.
 */
import { isoAt } from '../clock.js';
import type { ModelsRepo } from '../models-repo.js';
import { toDownload, toInstalled, toUrlPackage, type DownloadSqlRow, type InstalledSqlRow, type UrlPackageSqlRow } from '../models-rows.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const INSTALLED_COLUMNS = 'id, source, name, description, family, capability, languages_json, licence, version, dir, files_json, size_bytes, sha256_json, verified, curated_list_version, installed_at';
const DOWNLOAD_COLUMNS = 'model_id, status, file_index, file_bytes_done, bytes_done, bytes_total, etag, error_code, error_message, started_at, updated_at';
const URL_COLUMNS = 'id, name, url, sha256, size_bytes, family, languages_json, added_at';

const INSTALLED_ALL = `SELECT ${INSTALLED_COLUMNS} FROM installed_models ORDER BY id`;
const INSTALLED_ONE = `SELECT ${INSTALLED_COLUMNS} FROM installed_models WHERE id = $1`;
// INSERT OR REPLACE: every column of the row is the new one's.
const INSTALLED_PUT = `INSERT INTO installed_models (${INSTALLED_COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
  ON CONFLICT (id) DO UPDATE SET ${INSTALLED_COLUMNS.split(', ').filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ')}`;
const INSTALLED_DELETE = 'DELETE FROM installed_models WHERE id = $1';
const DOWNLOADS_ALL = `SELECT ${DOWNLOAD_COLUMNS} FROM downloads ORDER BY started_at`;
const DOWNLOAD_ONE = `SELECT ${DOWNLOAD_COLUMNS} FROM downloads WHERE model_id = $1`;
const DOWNLOAD_START = `INSERT INTO downloads (model_id, status, bytes_total, started_at, updated_at)
  VALUES ($1, 'downloading', $2, $3, $3)
  ON CONFLICT (model_id) DO UPDATE SET status = 'downloading', error_code = NULL, error_message = NULL,
    bytes_total = excluded.bytes_total, updated_at = excluded.updated_at`;
const DOWNLOAD_PROGRESS = `UPDATE downloads SET file_index = $2, file_bytes_done = $3, bytes_done = $4, etag = $5, updated_at = $6
  WHERE model_id = $1`;
const DOWNLOAD_FAIL = `UPDATE downloads SET status = 'failed', error_code = $2, error_message = $3, updated_at = $4 WHERE model_id = $1`;
const DOWNLOAD_DELETE = 'DELETE FROM downloads WHERE model_id = $1';
const URL_ALL = `SELECT ${URL_COLUMNS} FROM url_model_packages ORDER BY added_at, id`;
const URL_ONE = `SELECT ${URL_COLUMNS} FROM url_model_packages WHERE id = $1`;
// SQLite's INSERT OR IGNORE skips a row that breaks the table's NOT NULL or CHECK rules as well as a taken id (false,
// no error); ON CONFLICT covers the id only, so the other rules are checked in the SELECT.
const URL_INSERT = `INSERT INTO url_model_packages (${URL_COLUMNS})
  SELECT $1::text, $2::text, $3::text, $4::text, $5::bigint, $6::text, $7::text, $8::text
  WHERE $1::text IS NOT NULL AND $2::text IS NOT NULL AND $3::text IS NOT NULL AND char_length($4::text) = 64
    AND $7::text IS NOT NULL AND $8::text IS NOT NULL
  ON CONFLICT DO NOTHING`;
const URL_DELETE = 'DELETE FROM url_model_packages WHERE id = $1';
const FINGERPRINT = `SELECT
     (SELECT COALESCE(string_agg(id || ' ' || installed_at || ' ' || verified || ' ' || dir, chr(10) ORDER BY id), '') FROM installed_models)
  || chr(1) || (SELECT COALESCE(string_agg(model_id || ' ' || status, chr(10) ORDER BY model_id), '') FROM downloads)
  || chr(1) || (SELECT COALESCE(string_agg(id || ' ' || added_at, chr(10) ORDER BY id), '') FROM url_model_packages) AS fingerprint`;

export function createPgModelsRepo(sql: Sql, shared: PgShared): Async<ModelsRepo> {
  const now = (): string => isoAt(shared.clock);
  return {
    installed: async () => (await sql.all<InstalledSqlRow>(INSTALLED_ALL)).map(toInstalled),
    installedById: async (id) => {
      const row = await sql.one<InstalledSqlRow>(INSTALLED_ONE, [id]);
      return row ? toInstalled(row) : null;
    },
    putInstalled: (m) =>
      sql.atomic(async (t) => {
        await t.run(INSTALLED_PUT, [
          m.id, m.source, m.name, m.description, m.family, m.capability, JSON.stringify(m.languages), m.licence, m.version, m.dir,
          JSON.stringify(m.files), m.sizeBytes, JSON.stringify(m.sha256), m.verified ? 1 : 0, m.curatedListVersion, m.installedAt,
        ]);
        await t.run(DOWNLOAD_DELETE, [m.id]);
      }),
    deleteInstalled: async (id) => void (await sql.run(INSTALLED_DELETE, [id])),
    downloads: async () => (await sql.all<DownloadSqlRow>(DOWNLOADS_ALL)).map(toDownload),
    download: async (id) => {
      const row = await sql.one<DownloadSqlRow>(DOWNLOAD_ONE, [id]);
      return row ? toDownload(row) : null;
    },
    startDownload: async (id, bytesTotal) => void (await sql.run(DOWNLOAD_START, [id, bytesTotal, now()])),
    saveProgress: async (id, p) => void (await sql.run(DOWNLOAD_PROGRESS, [id, p.fileIndex, p.fileBytesDone, p.bytesDone, p.etag, now()])),
    failDownload: async (id, code, message) => void (await sql.run(DOWNLOAD_FAIL, [id, code, message, now()])),
    deleteDownload: async (id) => void (await sql.run(DOWNLOAD_DELETE, [id])),
    urlPackages: async () => (await sql.all<UrlPackageSqlRow>(URL_ALL)).map(toUrlPackage),
    urlPackage: async (id) => {
      const row = await sql.one<UrlPackageSqlRow>(URL_ONE, [id]);
      return row ? toUrlPackage(row) : null;
    },
    addUrlPackage: async (p) =>
      (await sql.run(URL_INSERT, [p.id, p.name, p.url, p.sha256, p.sizeBytes, p.family, JSON.stringify(p.languages), now()])) === 1,
    deleteUrlPackage: (id) =>
      sql.atomic(async (t) => {
        await t.run(URL_DELETE, [id]);
        await t.run(DOWNLOAD_DELETE, [id]);
        await t.run(INSTALLED_DELETE, [id]);
      }),
    othersCommits: async () => shared.othersVersion(),
    fingerprint: async () => (await sql.one<{ fingerprint: string }>(FINGERPRINT))!.fingerprint,
  };
}
