/**
 * The model manager's tables: installed packages and downloads in progress (migration 002), and the packages people
 * added by URL (migration 014).
 */
import { isoAt, systemClock, type Clock } from './clock.js';
import type { Db } from './db.js';
import { toDownload, toInstalled, toUrlPackage, type DownloadRow, type DownloadSqlRow, type InstalledModel, type InstalledSqlRow, type UrlPackageRow, type UrlPackageSqlRow } from './models-rows.js';

export type { DownloadRow, InstalledModel, UrlPackageRow } from './models-rows.js';

/**
 * An installed package. Family and capability are the engine floor's names, kept as strings here (the store sits
 * below the engines): the model manager, the only writer, reads them back with its own types.
 */
export interface ModelsRepo<Family extends string = string, Capability extends string = string> {
  installed(): InstalledModel<Family, Capability>[];
  installedById(id: string): InstalledModel<Family, Capability> | null;
  /** Records an installed package and forgets its download, in one transaction. */
  putInstalled(m: InstalledModel<Family, Capability>): void;
  deleteInstalled(id: string): void;
  downloads(): DownloadRow[];
  download(id: string): DownloadRow | null;
  /** Starts (or restarts after a failure) a download: clears the error, keeps the progress. */
  startDownload(id: string, bytesTotal: number): void;
  saveProgress(id: string, p: { fileIndex: number; fileBytesDone: number; bytesDone: number; etag: string | null }): void;
  failDownload(id: string, code: string, message: string): void;
  deleteDownload(id: string): void;
  urlPackages(): UrlPackageRow<Family>[];
  urlPackage(id: string): UrlPackageRow<Family> | null;
  /** Adds a package; false when the id is taken. */
  addUrlPackage(p: Omit<UrlPackageRow<Family>, 'addedAt'>): boolean;
  /** Forgets a package added by URL with its download row and installed row, in one transaction. */
  deleteUrlPackage(id: string): void;
  /**
   * Moves whenever another connection commits anything (`PRAGMA data_version`; about a microsecond): the cue to look
   * at `fingerprint()` for a change made by another process, e.g. `voxdesk models pull` beside a running service.
   */
  othersCommits(): number;
  /**
   * Every installed package, download state and added package in one string (ids with their install time, folder
   * and verification, download status, add time; not progress): equal strings, same packages.
   */
  fingerprint(): string;
}

export function createModelsRepo(db: Db, clock: Clock = systemClock): ModelsRepo {
  const installedAll = db.prepare<[], InstalledSqlRow>('SELECT * FROM installed_models ORDER BY id');
  const installedOne = db.prepare<[string], InstalledSqlRow>('SELECT * FROM installed_models WHERE id = ?');
  const installedPut = db.prepare(`INSERT OR REPLACE INTO installed_models
    (id, source, name, description, family, capability, languages_json, licence, version, dir, files_json,
     size_bytes, sha256_json, verified, curated_list_version, installed_at)
    VALUES (@id, @source, @name, @description, @family, @capability, @languages_json, @licence, @version, @dir,
     @files_json, @size_bytes, @sha256_json, @verified, @curated_list_version, @installed_at)`);
  const installedDelete = db.prepare<[string]>('DELETE FROM installed_models WHERE id = ?');
  const downloadsAll = db.prepare<[], DownloadSqlRow>('SELECT * FROM downloads ORDER BY started_at');
  const downloadOne = db.prepare<[string], DownloadSqlRow>('SELECT * FROM downloads WHERE model_id = ?');
  const downloadStart = db.prepare(`INSERT INTO downloads (model_id, status, bytes_total, started_at, updated_at)
    VALUES (@model_id, 'downloading', @bytes_total, @now, @now)
    ON CONFLICT(model_id) DO UPDATE SET status = 'downloading', error_code = NULL, error_message = NULL,
      bytes_total = @bytes_total, updated_at = @now`);
  const downloadProgress = db.prepare(`UPDATE downloads SET file_index = @file_index, file_bytes_done = @file_bytes_done,
    bytes_done = @bytes_done, etag = @etag, updated_at = @now WHERE model_id = @model_id`);
  const downloadFail = db.prepare(`UPDATE downloads SET status = 'failed', error_code = @code, error_message = @message,
    updated_at = @now WHERE model_id = @model_id`);
  const downloadDelete = db.prepare<[string]>('DELETE FROM downloads WHERE model_id = ?');
  const urlAll = db.prepare<[], UrlPackageSqlRow>('SELECT * FROM url_model_packages ORDER BY added_at, id');
  const urlOne = db.prepare<[string], UrlPackageSqlRow>('SELECT * FROM url_model_packages WHERE id = ?');
  const urlInsert = db.prepare(`INSERT OR IGNORE INTO url_model_packages (id, name, url, sha256, size_bytes, family, languages_json, added_at)
    VALUES (@id, @name, @url, @sha256, @size_bytes, @family, @languages_json, @added_at)`);
  const urlDelete = db.prepare<[string]>('DELETE FROM url_model_packages WHERE id = ?');
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const fingerprint = db
    .prepare<[], string>(
      `SELECT (SELECT ifnull(group_concat(id || ' ' || installed_at || ' ' || verified || ' ' || dir, char(10)), '') FROM installed_models)
        || char(0) || (SELECT ifnull(group_concat(model_id || ' ' || status, char(10)), '') FROM downloads)
        || char(0) || (SELECT ifnull(group_concat(id || ' ' || added_at, char(10)), '') FROM url_model_packages)`,
    )
    .pluck();
  const deleteUrlPackage = db.transaction((id: string) => {
    urlDelete.run(id);
    downloadDelete.run(id);
    installedDelete.run(id);
  });

  const putInstalled = db.transaction((m: InstalledModel) => {
    installedPut.run({
      id: m.id,
      source: m.source,
      name: m.name,
      description: m.description,
      family: m.family,
      capability: m.capability,
      languages_json: JSON.stringify(m.languages),
      licence: m.licence,
      version: m.version,
      dir: m.dir,
      files_json: JSON.stringify(m.files),
      size_bytes: m.sizeBytes,
      sha256_json: JSON.stringify(m.sha256),
      verified: m.verified ? 1 : 0,
      curated_list_version: m.curatedListVersion,
      installed_at: m.installedAt,
    });
    downloadDelete.run(m.id);
  });

  return {
    installed: () => installedAll.all().map(toInstalled),
    installedById: (id) => {
      const row = installedOne.get(id);
      return row ? toInstalled(row) : null;
    },
    putInstalled: (m) => putInstalled(m),
    deleteInstalled: (id) => void installedDelete.run(id),
    downloads: () => downloadsAll.all().map(toDownload),
    download: (id) => {
      const row = downloadOne.get(id);
      return row ? toDownload(row) : null;
    },
    startDownload: (id, bytesTotal) => void downloadStart.run({ model_id: id, bytes_total: bytesTotal, now: isoAt(clock) }),
    saveProgress: (id, p) =>
      void downloadProgress.run({
        model_id: id,
        file_index: p.fileIndex,
        file_bytes_done: p.fileBytesDone,
        bytes_done: p.bytesDone,
        etag: p.etag,
        now: isoAt(clock),
      }),
    failDownload: (id, code, message) => void downloadFail.run({ model_id: id, code, message, now: isoAt(clock) }),
    deleteDownload: (id) => void downloadDelete.run(id),
    urlPackages: () => urlAll.all().map(toUrlPackage),
    urlPackage: (id) => {
      const row = urlOne.get(id);
      return row ? toUrlPackage(row) : null;
    },
    addUrlPackage: (p) =>
      urlInsert.run({
        id: p.id,
        name: p.name,
        url: p.url,
        sha256: p.sha256,
        size_bytes: p.sizeBytes,
        family: p.family,
        languages_json: JSON.stringify(p.languages),
        added_at: isoAt(clock),
      }).changes === 1,
    deleteUrlPackage: (id) => deleteUrlPackage(id),
    othersCommits: () => dataVersion.get()!,
    fingerprint: () => fingerprint.get()!,
  };
}
