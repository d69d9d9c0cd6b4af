/** The wire shape of one package in GET /v1/local/models and `voxdesk models list` (snake_case like the API). */
import type { DownloadRow } from '../../store/models-repo.js';
import type { ModelFamily } from '../../common/model-families.js';
import type { PackageCapability } from '../family-engines.js';
import type { InstalledModel } from '../installed-store.js';
import { packageSize, type OfferedPackage, type SpeedClass } from './curated-models.js';
import type { SpecFamily } from '../../common/spec-families.js';

/** `importing`: a folder being copied in (POST /v1/local/models/import); its failures are `failed` too. */
export type PackageState = 'not_installed' | 'downloading' | 'installing' | 'importing' | 'installed' | 'failed';

export interface PackageStatus {
  id: string;
  name: string;
  description: string;
  /** null: a package added by URL whose family is known only once its files are there. */
  capability: PackageCapability | null;
  family: ModelFamily | null;
  languages: string[];
  licence: string;
  version: string;
  /** curated: from the curated list; url: added by URL (POST /v1/local/models); imported: a folder imported from disk. */
  source: 'curated' | 'url' | 'imported';
  /** Download size (curated, not installed) or size on disk (installed). */
  size_bytes: number;
  installed: boolean;
  state: PackageState;
  /** Installed: whether every file matched a published sha256 (false = hash computed on first download, or an import). */
  verified: boolean | null;
  /** While downloading (or after a failure, where it resumes): fraction 0..1 of the whole package. */
  progress: number | null;
  /** Bytes downloaded (or, importing, copied) so far (same moments as progress). */
  downloaded_bytes: number | null;
  /** The last failure (checksum_mismatch, download_failed, install_failed, unsafe_archive, import_failed), until the next attempt. */
  error_code: string | null;
  error_message: string | null;
  /** Installed: the package folder. */
  dir: string | null;
  /** Shipped inside the app (resources/models): installed from the first start, nothing to download, not removable. */
  built_in: boolean;
  /** The spec's family label the package serves (W-turbo, P3 …; common/spec-families.ts), or null. */
  spec_family: SpecFamily | null;
  /** fast, medium or slow on a laptop CPU (curated-models.ts SPEED_CLASSES); null when not known (imports, URLs). */
  speed_class: SpeedClass | null;
  /** Curated packages whose pin no published source confirms: why; a pull is refused unless the person accepts installing it unverified. */
  unconfirmed: string | null;
}

/** What a package's status is made of: its offer and install row, a download running here and its stored row. */
export interface StatusParts {
  offered: OfferedPackage | null;
  installed: InstalledModel | null;
  /** The download this process runs, if any. */
  running: { phase: 'downloading' | 'installing'; bytesDone: number; bytesTotal: number } | undefined;
  /** The stored download row, if any. */
  row: DownloadRow | null;
  /** Whether the stored row's download runs (here or in another process, recently). */
  rowRunning: boolean;
  builtIn: boolean;
}

/** The wire status of an offered or installed package (an import's is made by imports/package-imports.ts). */
export function packageStatus({ offered, installed, running, row, rowRunning, builtIn }: StatusParts): PackageStatus {
  const base = installed ?? offered!;
  let state: PackageState = installed ? 'installed' : 'not_installed';
  if (running) state = running.phase;
  else if (row?.status === 'downloading' && rowRunning) state = 'downloading';
  else if (row?.status === 'failed' && !installed) state = 'failed';
  const bytesDone = running ? running.bytesDone : (row?.bytesDone ?? 0);
  const bytesTotal = running ? running.bytesTotal : (row?.bytesTotal ?? 0);
  const failed = !!row && row.status === 'failed' && !running && !!row.errorCode;
  const showProgress = state === 'downloading' || state === 'installing' || state === 'failed' || (!!row && !installed);
  return {
    id: base.id,
    name: base.name,
    description: base.description,
    capability: installed?.capability ?? offered!.capability,
    family: base.family,
    languages: base.languages,
    licence: base.licence,
    version: base.version,
    source: installed?.source ?? offered!.source,
    size_bytes: installed ? installed.sizeBytes : running && running.bytesTotal > 0 ? running.bytesTotal : packageSize(offered!),
    installed: !!installed,
    state,
    verified: installed ? installed.verified : null,
    progress: showProgress && row ? (bytesTotal > 0 ? Math.min(1, bytesDone / bytesTotal) : 0) : null,
    downloaded_bytes: showProgress && row ? bytesDone : null,
    error_code: failed ? row.errorCode : null,
    error_message: failed ? (row.errorMessage ?? row.errorCode) : null,
    dir: installed?.dir ?? null,
    built_in: builtIn,
    spec_family: offered?.specFamily ?? null,
    speed_class: offered?.speedClass ?? null,
    unconfirmed: offered?.files.find((f) => f.unconfirmed)?.unconfirmed ?? null,
  };
}
