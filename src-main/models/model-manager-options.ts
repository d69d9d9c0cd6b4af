/**
 * What the model manager (model-manager.ts) is made with, and the events it sends while packages download and install.
 */
import type { InstalledModel, ModelStore } from './installed-store.js';
import type { ModelPackage } from './packages/curated-models.js';
import type { PackageStatus } from './packages/package-status.js';
import type { Log } from '../common/log.js';
import type { StoredPackages } from '../store/objects/stored-packages.js';

export interface ModelManagerOptions {
  /** The data dir; packages go to dataDir/models/<id>/, downloads are staged in dataDir/models/.staging/. */
  dataDir: string;
  /**
   * The store (store/store.ts, either backend): installed packages, downloads and packages added by URL (read
   * through installed-store.ts's view), and the mirror and CA settings.
   */
  store: ModelStore;
  /** Packages offered for download. Default: CURATED_PACKAGES. */
  packages?: readonly ModelPackage[];
  /**
   * Base URL replacing where curated files come from, for this manager only (the models command's --model-mirror;
   * see download-source.ts for the forms). Default: the `models.mirror` setting, else $VOXDESK_MODEL_MIRROR, else
   * none (the upstream URLs). Read at each download, so a changed setting applies to the next one.
   */
  mirror?: string | null;
  /** PEM file of extra CAs trusted for downloads, for this manager only. Default: `models.ca_file`, else $VOXDESK_CA_FILE. */
  caFile?: string | null;
  /** Attempts after a transient failure without progress. Default 4. */
  retries?: number;
  /** First retry delay, doubled up to 15 s. Default 500 ms. */
  backoffMs?: number;
  /** A connection silent this long is dropped and resumed. Default 30 s. */
  idleTimeoutMs?: number;
  /** Diagnostics (never stdout). Default: none. */
  log?: Log;
  /**
   * Models shipped with the app (packages/built-in-models.ts builtInModels()): installed without a download, never
   * removed. Default none.
   */
  builtIn?: readonly InstalledModel[];
  /**
   * Where installed packages are kept (store/objects/stored-packages.ts): the models folder itself (default), or a
   * bucket that a package is put in when installed and fetched from on a node's first use.
   */
  storedPackages?: StoredPackages;
}

export type ModelManagerEvents = {
  /** Download and import progress (at most every 200 ms per package). */
  progress: [PackageStatus];
  installed: [InstalledModel];
  failed: [{ id: string; code: string; message: string }];
};
