/**
 * The model manager's rows as both backends read them (store/models-repo.ts on SQLite, postgres/models-repo.ts): the
 * repository's types, the columns of the three tables and the mapping between them, written once so the two stay the
 * same.
 */

export interface InstalledModel<Family extends string = string, Capability extends string = string> {
  id: string;
  source: 'curated' | 'imported' | 'url';
  name: string;
  description: string;
  family: Family;
  capability: Capability;
  languages: string[];
  licence: string;
  version: string;
  dir: string;
  /** File role → file name inside dir. */
  files: Record<string, string>;
  sizeBytes: number;
  sha256: Record<string, string>;
  verified: boolean;
  curatedListVersion: number | null;
  installedAt: string;
}

export interface DownloadRow {
  modelId: string;
  status: 'downloading' | 'failed';
  fileIndex: number;
  fileBytesDone: number;
  bytesDone: number;
  bytesTotal: number;
  etag: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  startedAt: string;
  updatedAt: string;
}

/** A package added by URL, to be downloaded (and resumed) like a curated one. */
export interface UrlPackageRow<Family extends string = string> {
  id: string;
  name: string;
  url: string;
  /** Lower-case hex. */
  sha256: string;
  /** When given at add time; null: learnt from the server's Content-Length. */
  sizeBytes: number | null;
  /** null: detected from the files once downloaded. */
  family: Family | null;
  languages: string[];
  addedAt: string;
}

export interface UrlPackageSqlRow {
  id: string;
  name: string;
  url: string;
  sha256: string;
  size_bytes: number | null;
  family: string | null;
  languages_json: string;
  added_at: string;
}

export interface InstalledSqlRow {
  id: string;
  source: 'curated' | 'imported' | 'url';
  name: string;
  description: string;
  family: string;
  capability: string;
  languages_json: string;
  licence: string;
  version: string;
  dir: string;
  files_json: string;
  size_bytes: number;
  sha256_json: string;
  verified: number;
  curated_list_version: number | null;
  installed_at: string;
}

export interface DownloadSqlRow {
  model_id: string;
  status: 'downloading' | 'failed';
  file_index: number;
  file_bytes_done: number;
  bytes_done: number;
  bytes_total: number;
  etag: string | null;
  error_code: string | null;
  error_message: string | null;
  started_at: string;
  updated_at: string;
}

export function toInstalled(r: InstalledSqlRow): InstalledModel {
  return {
    id: r.id,
    source: r.source,
    name: r.name,
    description: r.description,
    family: r.family,
    capability: r.capability,
    languages: JSON.parse(r.languages_json) as string[],
    licence: r.licence,
    version: r.version,
    dir: r.dir,
    files: JSON.parse(r.files_json) as Record<string, string>,
    sizeBytes: r.size_bytes,
    sha256: JSON.parse(r.sha256_json) as Record<string, string>,
    verified: r.verified === 1,
    curatedListVersion: r.curated_list_version,
    installedAt: r.installed_at,
  };
}

export function toDownload(r: DownloadSqlRow): DownloadRow {
  return {
    modelId: r.model_id,
    status: r.status,
    fileIndex: r.file_index,
    fileBytesDone: r.file_bytes_done,
    bytesDone: r.bytes_done,
    bytesTotal: r.bytes_total,
    etag: r.etag,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    startedAt: r.started_at,
    updatedAt: r.updated_at,
  };
}

export function toUrlPackage(r: UrlPackageSqlRow): UrlPackageRow {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    sha256: r.sha256,
    sizeBytes: r.size_bytes,
    family: r.family,
    languages: JSON.parse(r.languages_json) as string[],
    addedAt: r.added_at,
  };
}
