/**
 * The model manager, as the service, the command line and the catalogue see it: which packages are offered
 * (curated, added by URL) and installed (downloaded, imported, shipped), their status, and the actions on them —
 * pull, add by URL, import, cancel, remove. It is a small façade over the parts that do the work:
 * downloads/package-downloads.ts (download, verify, install), imports/package-imports.ts (copy a folder in),
 * installed-store.ts (the store, the one door to it) and change-tracker.ts (when what it answers changed). Download
 * state lives in the store, so a download interrupted by a quit resumes on the next start(); imports live in memory.
 */
import { EventEmitter } from 'node:events';
import { rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ApiError } from '../common/errors.js';
import type { SupportKind } from '../common/model-families.js';
import { ChangeTracker, downloadRunning } from './change-tracker.js';
import { currentDownloadSource, type DownloadSource } from './downloads/download-source.js';
import { PackageDownloads } from './downloads/package-downloads.js';
import { PackageImports, type ImportOptions } from './imports/package-imports.js';
import { InstalledStore, type InstalledModel } from './installed-store.js';
import type { ModelManagerEvents, ModelManagerOptions } from './model-manager-options.js';
import { CURATED_PACKAGES, type ModelPackage, type OfferedPackage } from './packages/curated-models.js';
import { packageStatus, type PackageStatus } from './packages/package-status.js';
import { checkUrlPackage, offeredFromUrl, type NewUrlPackage } from './packages/url-packages.js';
import { prefixedLog, silentLog } from '../common/log.js';

export type { InstalledModel, ModelStore } from './installed-store.js';
export type { ImportOptions } from './imports/package-imports.js';
export type { ModelManagerEvents, ModelManagerOptions } from './model-manager-options.js';

export class ModelManager extends EventEmitter<ModelManagerEvents> {
  readonly modelsDir: string;
  private readonly store: InstalledStore;
  private readonly curated: readonly ModelPackage[];
  private readonly downloads: PackageDownloads;
  private readonly imports: PackageImports;
  private readonly changes: ChangeTracker;
  private readonly supportPaths = new Map<SupportKind, { revision: number; files: Record<string, string> | null }>();
  private stopped = false;

  /** A manager over the store's models, its view of them loaded (installed-store.ts). */
  static async open(options: ModelManagerOptions): Promise<ModelManager> {
    const made: { manager?: ModelManager } = {};
    const view = await InstalledStore.open(options.store, options.builtIn ?? [], () => made.manager?.changes.changed(), options.storedPackages);
    made.manager = new ModelManager(options, view);
    return made.manager;
  }

  private constructor(
    private readonly options: ModelManagerOptions,
    view: InstalledStore,
  ) {
    super();
    this.modelsDir = join(resolve(options.dataDir), 'models');
    this.curated = options.packages ?? CURATED_PACKAGES;
    this.store = view;
    const log = prefixedLog((options.log ?? silentLog).child('models'), '[models] ');
    this.changes = new ChangeTracker(
      () => this.store,
      (id) => this.downloads.running(id) !== undefined,
      (error) => {
        if (!this.stopped) log.info(`looking for changes other processes made failed: ${(error as Error).message}`);
      },
    );
    const onFailed = (failure: { id: string; code: string; message: string }) => this.emit('failed', failure);
    const onInstalled = (model: InstalledModel) => this.emit('installed', model);
    this.downloads = new PackageDownloads({
      modelsDir: this.modelsDir,
      store: this.store,
      source: () => this.downloadSource(),
      onChange: () => this.changes.changed(),
      onProgress: (id) => this.emit('progress', this.status(id)),
      onInstalled,
      onFailed,
      log,
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
      ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    });
    this.imports = new PackageImports({
      modelsDir: this.modelsDir,
      stagingDir: this.downloads.stagingDir,
      store: this.store,
      idTakenBy: (id) => (this.offered(id) ? 'the id of a downloadable model' : null),
      onProgress: (status) => this.emit('progress', status),
      onInstalled,
      onFailed,
      log,
    });
  }

  /**
   * A number that moves whenever installedModels(), offeredPackages(), supportModelPath() or isDownloading() may
   * answer differently, for caches of what they answer (the catalogue); see change-tracker.ts.
   */
  revision(): number {
    return this.changes.revision();
  }

  /**
   * Looks at once for a change another process made to the model tables (revision() looks in the background, so the
   * call after it sees one); true when there was one.
   */
  refresh(): Promise<boolean> {
    return this.store.refresh();
  }

  /** Resumes downloads that were running when the app last quit (or crashed), after clearing what a crash left. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.downloads.removeOrphanStaging();
    for (const row of this.store.downloads()) {
      if (row.status !== 'downloading' || this.downloads.running(row.modelId)) continue;
      const pkg = this.offered(row.modelId);
      if (!pkg) {
        await this.store.deleteDownload(row.modelId);
        continue;
      }
      this.options.log?.info(`[models] resuming the download of ${row.modelId} (${row.bytesDone} of ${row.bytesTotal} bytes)`);
      this.downloads.start(pkg);
    }
  }

  /** Stops running downloads (keeping their partial files and rows for the next start) and imports. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.downloads.stop(), this.imports.stop()]);
    await this.store.settled();
  }

  /** Every downloadable package: the curated ones, then those added by URL (oldest first). */
  offeredPackages(): OfferedPackage[] {
    return [...this.curated.map((p) => asOffered(p)), ...this.store.urlPackages().map((row) => offeredFromUrl(row))];
  }

  /** Every curated package, every package added by URL and every import, with install state and progress. */
  list(): PackageStatus[] {
    const installed = new Map(this.store.installed().map((m) => [m.id, m]));
    const offered = this.offeredPackages();
    const out = offered.map((pkg) => this.statusOf(pkg, installed.get(pkg.id) ?? null));
    const ids = new Set(offered.map((p) => p.id));
    for (const m of installed.values()) if (!ids.has(m.id)) out.push(this.statusOf(null, m));
    for (const id of this.imports.ids()) if (!installed.has(id)) out.push(this.imports.status(id)!);
    return out;
  }

  status(id: string): PackageStatus {
    const pkg = this.offered(id);
    const installed = this.store.installedById(id);
    const importing = this.imports.status(id);
    if (importing && !installed) return importing;
    if (!pkg && !installed) throw new ApiError('not_found', `no model package ${id}; voxdesk models list shows them`);
    return this.statusOf(pkg, installed);
  }

  installed(id: string): InstalledModel | null {
    return this.store.installedById(id);
  }

  installedModels(): InstalledModel[] {
    return this.store.installed();
  }

  /** Absolute path of a file role of an installed package (e.g. 'tokens'), or null. */
  filePath(model: InstalledModel, role: string): string | null {
    const rel = model.files[role];
    return rel ? join(model.dir, rel) : null;
  }

  /**
   * Path of an installed support model for the ASR engines (VAD, diarization), or null when none is installed.
   * Curated packages win over imports, in curated-list order.
   */
  supportModelPath(kind: SupportKind): string | null {
    return this.supportModelFiles(kind)?.model ?? null;
  }

  /** Absolute paths by role of the installed support model of a kind with several files (language-id: encoder, decoder), or null. */
  supportModelFiles(kind: SupportKind): Record<string, string> | null {
    const revision = this.revision();
    const known = this.supportPaths.get(kind);
    if (known?.revision === revision) return known.files;
    const files = this.findSupportModel(kind);
    this.supportPaths.set(kind, { revision, files });
    return files;
  }

  /** True while this process downloads the package, or another process (the CLI) did so within the last minute. */
  isDownloading(id: string): boolean {
    return downloadRunning(this.store.download(id), this.downloads.running(id) !== undefined);
  }

  /**
   * Adds a package by URL and sha256 (checked by checkUrlPackage) and starts its download: it then downloads,
   * resumes, verifies and installs like a curated one, its family detected from the files unless given.
   */
  async addFromUrl(input: NewUrlPackage): Promise<PackageStatus> {
    const row = checkUrlPackage(input);
    if (this.curated.some((p) => p.id === row.id)) throw new ApiError('conflict', `${row.id} is a curated model id; choose another id`);
    if (this.store.installedById(row.id) || this.store.urlPackage(row.id)) {
      throw new ApiError('conflict', `a model ${row.id} already exists; remove it first or choose another id`);
    }
    this.refuseWhenStopped();
    if (!(await this.store.addUrlPackage(row))) throw new ApiError('conflict', `a model ${row.id} already exists; choose another id`);
    return this.pull(row.id);
  }

  /**
   * Starts (or joins) the download of a curated or added package. Answers the state at once; see whenDone().
   * A curated package whose pin no published source confirms is downloaded only when the person says they accept
   * that (`acceptUnconfirmed`): its files are then installed unverified, with the sha256 of what arrived recorded
   * (`verified: false` in its status), never silently.
   */
  pull(id: string, options: { acceptUnconfirmed?: boolean } = {}): PackageStatus {
    const pkg = this.offered(id);
    if (!pkg) {
      if (this.store.installedById(id)) throw new ApiError('conflict', `${id} was imported from disk; there is nothing to download`);
      throw new ApiError('not_found', `no downloadable model ${id}; voxdesk models list shows them`);
    }
    this.refuseWhenStopped();
    const unconfirmed = pkg.files.find((f) => f.unconfirmed);
    if (unconfirmed && !options.acceptUnconfirmed && !this.store.installedById(id)) {
      throw new ApiError(
        'conflict',
        `${id} is not downloaded: no published source confirms its checksum (${unconfirmed.unconfirmed}), and a file nobody can check is not installed without you knowing. To install it unverified, ask again with accept_unconfirmed: true (voxdesk models pull ${id} --accept-unconfirmed); or add a copy you trust by URL with its sha256 (voxdesk models add URL --sha256 …)`,
      );
    }
    if (unconfirmed && !this.store.installedById(id) && !this.downloads.running(id)) {
      this.options.log?.info(`[models] ${id}: downloading unverified at the person's request (${unconfirmed.unconfirmed})`);
    }
    if (!this.store.installedById(id)) this.downloads.start(pkg);
    return this.status(id);
  }

  /** Resolves with the installed model when the running download of `id` ends (null if cancelled or stopped). */
  async whenDone(id: string): Promise<InstalledModel | null> {
    const running = this.downloads.running(id);
    if (running) return running.done;
    return this.store.installedById(id);
  }

  /** Cancels a running download (or import) and deletes its partial files. */
  async cancel(id: string): Promise<PackageStatus> {
    const importing = this.imports.cancel(id);
    if (importing) return importing;
    if (!this.downloads.running(id) && !this.store.download(id)) {
      this.status(id); // not_found for unknown ids
      throw new ApiError('conflict', `${id} is not downloading`);
    }
    await this.downloads.cancel(id);
    const after = this.status(id);
    return { ...after, state: after.installed ? 'installed' : 'not_installed', progress: null, downloaded_bytes: null, error_code: null, error_message: null };
  }

  /** Deletes an installed package's files and row. Queued jobs for it then fail model_unavailable when claimed. */
  async remove(id: string): Promise<void> {
    if (this.downloads.running(id)) throw new ApiError('conflict', `${id} is downloading; cancel the download first`);
    if (this.imports.isImporting(id)) throw new ApiError('conflict', `${id} is being imported; cancel the import first`);
    if (this.store.isBuiltIn(id)) throw new ApiError('conflict', `${id} is built into Voxdesk: there is nothing to remove`);
    const m = this.store.installedById(id);
    if (this.store.urlPackage(id)) {
      // A package added by URL goes entirely: its files, its partial download and the entry itself.
      await this.store.deleteUrlPackage(id);
      await rm(join(this.downloads.stagingDir, id), { recursive: true, force: true });
      if (m) await this.removeFolder(m.dir);
      return;
    }
    if (!m && this.imports.forgetFailed(id)) return;
    if (!m) {
      if (this.offered(id)) throw new ApiError('conflict', `${id} is not installed`);
      throw new ApiError('not_found', `no model package ${id}`);
    }
    await this.store.deleteInstalled(id);
    await this.store.deleteDownload(id);
    await this.removeFolder(m.dir);
  }

  /**
   * Imports a model folder (or a single .onnx file) from disk and waits for it: startImport() then whenImported().
   * The CLI's `models import`; rejects with the import's ApiError.
   */
  async importPath(path: string, options: ImportOptions = {}): Promise<InstalledModel> {
    const started = await this.startImport(path, options);
    const model = await this.whenImported(started.id);
    if (!model) throw new ApiError('conflict', `the import of ${started.id} was cancelled`);
    return model;
  }

  /**
   * Starts importing a model folder (or a single .onnx file) from disk (imports/package-imports.ts). Answers the
   * `importing` state; progress and the end (installed, or failed with error_code import_failed) show in status()
   * like a download's.
   */
  async startImport(path: string, options: ImportOptions = {}): Promise<PackageStatus> {
    this.refuseWhenStopped();
    return this.imports.start(path, options);
  }

  /** Resolves when the import of `id` ends: the installed model, or null if it was cancelled; rejects if it failed. */
  whenImported(id: string): Promise<InstalledModel | null> {
    return this.imports.whenImported(id);
  }

  /** The mirror and CA file the next download uses, and where each comes from. */
  downloadSource(): Promise<DownloadSource> {
    const overrides = {
      ...(this.options.mirror !== undefined ? { mirror: this.options.mirror } : {}),
      ...(this.options.caFile !== undefined ? { caFile: this.options.caFile } : {}),
    };
    return currentDownloadSource(this.options.store.repos.settings, overrides);
  }

  private refuseWhenStopped(): void {
    if (this.stopped) throw new ApiError('conflict', 'the model manager is shutting down');
  }

  private findSupportModel(kind: SupportKind): Record<string, string> | null {
    const all = this.store.installed().filter((m) => m.family === kind && (m.files.model || m.files.encoder));
    const rank = (m: InstalledModel) => {
      const i = this.curated.findIndex((p) => p.id === m.id);
      return i === -1 ? this.curated.length : i;
    };
    all.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
    const first = all[0];
    if (!first) return null;
    const files: Record<string, string> = {};
    for (const [role, rel] of Object.entries(first.files)) files[role] = join(first.dir, rel);
    return files;
  }

  private offered(id: string): OfferedPackage | null {
    const curated = this.curated.find((p) => p.id === id);
    if (curated) return asOffered(curated);
    const row = this.store.urlPackage(id);
    return row ? offeredFromUrl(row) : null;
  }

  /**
   * The installed packages whose files `paths` name (a model definition's engine files) complete on this node's disk:
   * with a bucket, fetched on the first use here. Paths outside the models folder are not packages'.
   */
  async fetchPackagesOf(paths: readonly string[]): Promise<void> {
    const ids = new Set<string>();
    for (const path of paths) {
      const inside = relative(this.modelsDir, resolve(path));
      if (inside && !inside.startsWith('..') && !isAbsolute(inside)) ids.add(inside.split(sep)[0]!);
    }
    for (const id of ids) await this.store.fetchInstalled(id);
  }

  /** Deletes a package folder, only ever inside the models folder (an old row may point elsewhere). */
  private async removeFolder(dir: string): Promise<void> {
    const p = resolve(dir);
    const inside = p === this.modelsDir || p.startsWith(this.modelsDir + '/') || p.startsWith(this.modelsDir + '\\');
    if (inside) await rm(p, { recursive: true, force: true });
  }

  private statusOf(offered: OfferedPackage | null, installed: InstalledModel | null): PackageStatus {
    const id = (installed ?? offered)!.id;
    return packageStatus({
      offered,
      installed,
      running: this.downloads.running(id),
      row: this.store.download(id),
      rowRunning: this.isDownloading(id),
      builtIn: this.store.isBuiltIn(id),
    });
  }
}

function asOffered(pkg: ModelPackage): OfferedPackage {
  return { ...pkg, source: 'curated' };
}
