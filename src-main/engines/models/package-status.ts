/** The wire shape of one package in GET /v1/local/models and `voxdesk models list` (snake_case like the API). */
import type { ModelFamily, PackageCapability } from './model-families.js';

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
}
