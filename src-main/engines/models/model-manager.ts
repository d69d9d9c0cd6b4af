/**
 * The model manager: downloads curated packages (progress, resume, retries, sha256 verification, atomic install
 * into dataDir/models/<id>/), imports model folders from disk, removes packages, and answers where support models
 * (VAD, speaker embedding, segmentation) are. Download state lives in SQLite, so a download interrupted by a quit
 * resumes on the next start(). Imports run in the background like downloads (state `importing` with progress, then
 * `installed` or `failed`); their state lives in memory: an import cut by a quit is simply gone (its staging folder is
 * deleted at the next start) and is started again by the person.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { ApiError } from '../../common/errors.js';
import type { InstalledModel as StoredModel, ModelsRepo } from '../../store/models-repo.js';
import type { Repositories } from '../../store/repositories.js';
import { ArchiveError, extractArchive } from './archive.js';
import { withBuiltIns } from './built-in-models.js';
import { CURATED_LIST_VERSION, CURATED_PACKAGES, packageSize, type ModelPackage, type OfferedPackage } from './curated-models.js';
import { DownloadNetwork, NetworkSetupError } from './download-network.js';
import { currentDownloadSource, downloadHint, mirroredUrl, type DownloadSource } from './download-source.js';
import { DownloadError, fetchToPart, sha256File } from './http-download.js';
import { copyPlan, ImportCopyError } from './import-copy.js';
import { planImport, skippedNote, type ImportPlan } from './import-plan.js';
import { detectLayout, detectLayoutIn, diskListing, familyCapability, isModelFamily, LayoutError, MODEL_FAMILIES, type DetectedLayout, type ModelFamily, type PackageCapability, type SupportKind } from './model-families.js';
import type { PackageStatus } from './package-status.js';
import { checkUrlPackage, MODEL_ID_PATTERN, offeredFromUrl, type NewUrlPackage } from './url-packages.js';

/** An installed package, with the engine floor's family and capability types. */
export type InstalledModel = StoredModel<ModelFamily, PackageCapability>;

export interface ModelManagerOptions {
  /** The data dir; packages go to dataDir/models/<id>/, downloads are staged in dataDir/models/.staging/. */
  dataDir: string;
  /** The store's repositories (built once by the service): installed packages, downloads, the mirror setting. */
  repos: Pick<Repositories, 'models' | 'settings'>;
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
  log?: (message: string) => void;
  /**
   * Models shipped with the app (built-in-models.ts builtInModels()): installed without a download, never removed.
   * Default none.
   */
  builtIn?: readonly InstalledModel[];
}

interface ActiveDownload {
  controller: AbortController;
  /** 'cancel' deletes the partial files; 'stop' keeps them for the next start. */
  reason: 'cancel' | 'stop' | null;
  phase: 'downloading' | 'installing';
  bytesDone: number;
  bytesTotal: number;
  done: Promise<InstalledModel | null>;
  /** The mirror the current file comes from (null: its own URL), for failure hints. */
  mirror: string | null;
}

interface ActiveImport {
  controller: AbortController;
  phase: 'importing' | 'failed';
  name: string;
  family: ModelFamily;
  languages: string[];
  bytesDone: number;
  bytesTotal: number;
  error: { code: string; message: string } | null;
  /** Resolves with the installed model, null when cancelled; rejects with an ApiError when the import failed. */
  done: Promise<InstalledModel | null>;
}

/** In a package's staging folder while it installs (see fetchAndInstall). */
const INSTALL_MARKER = 'installing';

/** A download row not updated for this long is not running in any process (a crash); start() resumes it. */
const STALE_DOWNLOAD_MS = 60_000;

type ManagerRepo = ModelsRepo<ModelFamily, PackageCapability>;

/** The repo with each write that can change what the manager reports counted (progress saves cannot: not shown). */
function countingWrites(repo: ManagerRepo, onWrite: () => void): ManagerRepo {
  const counted =
    <A extends unknown[], R>(write: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return write(...args);
      } finally {
        onWrite();
      }
    };
  return {
    ...repo,
    putInstalled: counted(repo.putInstalled),
    deleteInstalled: counted(repo.deleteInstalled),
    startDownload: counted(repo.startDownload),
    failDownload: counted(repo.failDownload),
    deleteDownload: counted(repo.deleteDownload),
    addUrlPackage: counted(repo.addUrlPackage),
    deleteUrlPackage: counted(repo.deleteUrlPackage),
  };
}

/** A Map that reports every set and delete (the downloads running here decide isDownloading). */
class CountedMap<K, V> extends Map<K, V> {
  constructor(private readonly onChange: () => void) {
    super();
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    this.onChange();
    return this;
  }

  override delete(key: K): boolean {
    const deleted = super.delete(key);
    if (deleted) this.onChange();
    return deleted;
  }
}
const SAVE_EVERY_MS = 1000;

export interface ImportOptions {
  /** Package id. Default: the folder's name, lower-cased, with unsafe characters replaced. */
  id?: string;
  /** Skip detection and check the folder against this family. */
  family?: string;
  /** Display name. Default: the id. */
  name?: string;
  /** Language codes. Default: those the model declares (Whisper), else [] (unknown). */
  languages?: string[];
}

export type ModelManagerEvents = {
  /** Download and import progress (at most every 200 ms per package). */
  progress: [PackageStatus];
  installed: [InstalledModel];
  failed: [{ id: string; code: string; message: string }];
};

export class ModelManager extends EventEmitter<ModelManagerEvents> {
  readonly modelsDir: string;
  private readonly stagingDir: string;
  private readonly store: ManagerRepo;
  private readonly curated: readonly ModelPackage[];
  private readonly active = new CountedMap<string, ActiveDownload>(() => this.changed());
  /** Imports running, and failed ones until the next attempt or a remove() (in memory only). */
  private readonly imports = new Map<string, ActiveImport>();
  /** Every download still settling, cancelled ones included: stop() waits for all of them. */
  private readonly pending = new Set<Promise<unknown>>();
  private stopped = false;
  /** See revision(). */
  private changes = 0;
  private seenCommits: number | undefined;
  private seenFingerprint: string | undefined;
  /** When a download another process runs stops counting as running (STALE_DOWNLOAD_MS); undefined: not known. */
  private staleAt: number | undefined;
  private readonly supportPaths = new Map<SupportKind, { revision: number; path: string | null }>();

  constructor(private readonly options: ModelManagerOptions) {
    super();
    this.modelsDir = join(resolve(options.dataDir), 'models');
    this.stagingDir = join(this.modelsDir, '.staging');
    // The manager is the only writer of these rows: family and capability read back are what it wrote.
    this.store = countingWrites(withBuiltIns(options.repos.models as ManagerRepo, options.builtIn ?? []), () => this.changed());
    this.curated = options.packages ?? CURATED_PACKAGES;
  }

  /**
   * A number that moves whenever installedModels(), offeredPackages(), supportModelPath() or isDownloading() may
   * answer differently, for caches of what they answer (the catalogue). This manager counts its own writes and the
   * downloads it starts and ends; a change another process made in the database (`voxdesk models pull` beside the
   * service) is seen by comparing the model tables' fingerprint whenever another connection has committed; and a
   * download another process left running stops counting after STALE_DOWNLOAD_MS, which moves it too. About a
   * microsecond while nothing changed.
   */
  revision(): number {
    const commits = this.store.othersCommits();
    if (commits !== this.seenCommits) {
      this.seenCommits = commits;
      const fingerprint = this.store.fingerprint();
      if (fingerprint !== this.seenFingerprint) {
        this.seenFingerprint = fingerprint;
        this.changed();
      }
    }
    this.staleAt ??= this.nextStaleAt();
    if (Date.now() >= this.staleAt) {
      this.changes += 1;
      this.staleAt = this.nextStaleAt();
    }
    return this.changes;
  }

  private changed(): void {
    this.changes += 1;
    this.staleAt = undefined;
  }

  /** The next time a download row of another process turns stale (Infinity: none will). */
  private nextStaleAt(): number {
    const now = Date.now();
    let at = Infinity;
    for (const row of this.store.downloads()) {
      if (row.status !== 'downloading' || this.active.has(row.modelId)) continue;
      const stale = Date.parse(row.updatedAt) + STALE_DOWNLOAD_MS;
      if (stale > now && stale < at) at = stale;
    }
    return at;
  }

  /** Resumes downloads that were running when the app last quit (or crashed). */
  start(): void {
    this.stopped = false;
    this.removeOrphanStaging();
    for (const row of this.store.downloads()) {
      if (row.status !== 'downloading' || this.active.has(row.modelId)) continue;
      const pkg = this.offered(row.modelId);
      if (!pkg) {
        this.store.deleteDownload(row.modelId);
        continue;
      }
      this.log(`resuming the download of ${row.modelId} (${row.bytesDone} of ${row.bytesTotal} bytes)`);
      this.launch(pkg);
    }
  }

  /** Stops running downloads, keeping their partial files and rows so the next start() resumes them. */
  async stop(): Promise<void> {
    this.stopped = true;
    const running = [...this.active.values()];
    for (const a of running) {
      a.reason = 'stop';
      a.controller.abort();
    }
    const importing = [...this.imports.values()].filter((i) => i.phase === 'importing');
    for (const i of importing) i.controller.abort(new Error('the model manager is stopping'));
    await Promise.allSettled([...running.map((a) => a.done), ...importing.map((i) => i.done), ...this.pending]);
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
    for (const [id, entry] of this.imports) if (!installed.has(id)) out.push(this.importStatus(id, entry));
    return out;
  }

  status(id: string): PackageStatus {
    const pkg = this.offered(id);
    const installed = this.store.installedById(id);
    const importing = this.imports.get(id);
    if (importing && !installed) return this.importStatus(id, importing);
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
    const revision = this.revision();
    const known = this.supportPaths.get(kind);
    if (known?.revision === revision) return known.path;
    const path = this.findSupportModel(kind);
    this.supportPaths.set(kind, { revision, path });
    return path;
  }

  private findSupportModel(kind: SupportKind): string | null {
    const all = this.store.installed().filter((m) => m.family === kind && m.files.model);
    const rank = (m: InstalledModel) => {
      const i = this.curated.findIndex((p) => p.id === m.id);
      return i === -1 ? this.curated.length : i;
    };
    all.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
    const first = all[0];
    return first ? join(first.dir, first.files.model!) : null;
  }

  /** True while this process downloads the package, or another process (the CLI) did so within the last minute. */
  isDownloading(id: string): boolean {
    if (this.active.has(id)) return true;
    const row = this.store.download(id);
    return !!row && row.status === 'downloading' && Date.now() - Date.parse(row.updatedAt) < STALE_DOWNLOAD_MS;
  }

  /**
   * Adds a package by URL and sha256 (checked by checkUrlPackage) and starts its download: it then downloads,
   * resumes, verifies and installs like a curated one, its family detected from the files unless given.
   */
  addFromUrl(input: NewUrlPackage): PackageStatus {
    const row = checkUrlPackage(input);
    if (this.curated.some((p) => p.id === row.id)) throw new ApiError('conflict', `${row.id} is a curated model id; choose another id`);
    if (this.store.installedById(row.id) || this.store.urlPackage(row.id)) {
      throw new ApiError('conflict', `a model ${row.id} already exists; remove it first or choose another id`);
    }
    if (this.stopped) throw new ApiError('conflict', 'the model manager is shutting down');
    if (!this.store.addUrlPackage(row)) throw new ApiError('conflict', `a model ${row.id} already exists; choose another id`);
    return this.pull(row.id);
  }

  /** Starts (or joins) the download of a curated or added package. Answers the state at once; see whenDone(). */
  pull(id: string): PackageStatus {
    const pkg = this.offered(id);
    if (!pkg) {
      if (this.store.installedById(id)) throw new ApiError('conflict', `${id} was imported from disk; there is nothing to download`);
      throw new ApiError('not_found', `no downloadable model ${id}; voxdesk models list shows them`);
    }
    if (this.stopped) throw new ApiError('conflict', 'the model manager is shutting down');
    if (this.store.installedById(id)) return this.status(id);
    if (!this.active.has(id)) this.launch(pkg);
    return this.status(id);
  }

  /** Resolves with the installed model when the running download of `id` ends (null if cancelled or stopped). */
  async whenDone(id: string): Promise<InstalledModel | null> {
    const a = this.active.get(id);
    if (a) return a.done;
    return this.store.installedById(id);
  }

  /** Cancels a running download (or import) and deletes its partial files. */
  cancel(id: string): PackageStatus {
    const importing = this.imports.get(id);
    if (importing?.phase === 'importing') {
      importing.controller.abort(new Error('the import was cancelled'));
      this.imports.delete(id);
      return { ...this.importStatus(id, importing), state: 'not_installed', progress: null, downloaded_bytes: null };
    }
    const a = this.active.get(id);
    const row = this.store.download(id);
    if (!a && !row) {
      this.status(id); // not_found for unknown ids
      throw new ApiError('conflict', `${id} is not downloading`);
    }
    if (a) {
      a.reason = 'cancel';
      a.controller.abort();
      this.active.delete(id);
    }
    this.discardDownload(id);
    const after = this.status(id);
    return { ...after, state: after.installed ? 'installed' : 'not_installed', progress: null, downloaded_bytes: null, error_code: null, error_message: null };
  }

  /** Deletes an installed package's files and row. Queued jobs for it then fail model_unavailable when claimed. */
  remove(id: string): void {
    if (this.active.has(id)) throw new ApiError('conflict', `${id} is downloading; cancel the download first`);
    const importing = this.imports.get(id);
    if (importing?.phase === 'importing') throw new ApiError('conflict', `${id} is being imported; cancel the import first`);
    if (this.isBuiltIn(id)) throw new ApiError('conflict', `${id} is built into Voxdesk: there is nothing to remove`);
    const m = this.store.installedById(id);
    if (this.store.urlPackage(id)) {
      // A package added by URL goes entirely: its files, its partial download and the entry itself.
      this.store.deleteUrlPackage(id);
      rmSync(join(this.stagingDir, id), { recursive: true, force: true });
      if (m && this.isInsideModelsDir(m.dir)) rmSync(m.dir, { recursive: true, force: true });
      return;
    }
    if (!m && importing) {
      this.imports.delete(id); // a failed import: forget it
      return;
    }
    if (!m) {
      if (this.offered(id)) throw new ApiError('conflict', `${id} is not installed`);
      throw new ApiError('not_found', `no model package ${id}`);
    }
    this.store.deleteInstalled(id);
    this.store.deleteDownload(id);
    if (this.isInsideModelsDir(m.dir)) rmSync(m.dir, { recursive: true, force: true });
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
   * Starts importing a model folder (or a single .onnx file) from disk: checks the path, walks it without leaving
   * it (import-plan.ts) and detects or checks the family from what the copy will hold — so a wrong folder is a 400
   * at once, naming what is missing — then copies it in the background into dataDir/models/<id>/ (a copy, so the
   * model keeps working when the original moves or is on removable media). Answers the `importing` state; progress
   * and the end (installed, or failed with error_code import_failed) show in status() like a download's.
   */
  async startImport(path: string, options: ImportOptions = {}): Promise<PackageStatus> {
    if (typeof path !== 'string' || path.trim() === '') throw new ApiError('invalid_request', 'path is required: a model folder or .onnx file');
    if (this.stopped) throw new ApiError('conflict', 'the model manager is shutting down');
    const source = resolve(path);
    let family: ModelFamily | undefined;
    if (options.family !== undefined) {
      if (!isModelFamily(options.family)) {
        throw new ApiError('invalid_request', `unknown family ${options.family}; one of ${MODEL_FAMILIES.join(', ')}`);
      }
      family = options.family;
    }
    const id = options.id ?? defaultImportId(source);
    if (!MODEL_ID_PATTERN.test(id)) {
      throw new ApiError('invalid_request', `model id ${JSON.stringify(id)} must be 1-64 characters of a-z, 0-9, '.', '_', '-' (pass --id)`);
    }
    if (this.offered(id)) throw new ApiError('conflict', `${id} is the id of a downloadable model; pass another --id`);
    if (this.store.installedById(id)) throw new ApiError('conflict', `a model ${id} is already installed; remove it first or pass another --id`);
    if (this.imports.get(id)?.phase === 'importing') throw new ApiError('conflict', `${id} is already being imported`);
    const plan = await planImport(source);
    if (this.isInsideModelsDir(plan.root)) throw new ApiError('invalid_request', `${source} is already inside the models folder`);
    let layout: DetectedLayout;
    try {
      layout = detectLayoutIn(plan.listing, family);
    } catch (err) {
      if (err instanceof LayoutError) throw new ApiError('invalid_request', `${source}: ${err.message}${skippedNote(plan)}`, { cause: err });
      throw err;
    }
    if (this.imports.get(id)?.phase === 'importing' || this.store.installedById(id)) throw new ApiError('conflict', `${id} is already being imported`);
    const languages = importLanguages(options.languages, layout.languages);

    const entry: ActiveImport = {
      controller: new AbortController(),
      phase: 'importing',
      name: options.name ?? id,
      family: layout.family,
      languages,
      bytesDone: 0,
      bytesTotal: plan.bytes,
      error: null,
      done: Promise.resolve(null),
    };
    this.imports.set(id, entry);
    entry.done = this.runImport(id, plan, layout, entry, options);
    // Failures are kept in the entry (status shows them); whenImported() callers get the rejection.
    const settled = entry.done.catch(() => undefined);
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
    return this.importStatus(id, entry);
  }

  /** Resolves when the import of `id` ends: the installed model, or null if it was cancelled; rejects if it failed. */
  async whenImported(id: string): Promise<InstalledModel | null> {
    const entry = this.imports.get(id);
    if (entry) return entry.done;
    return this.store.installedById(id);
  }

  private async runImport(id: string, plan: ImportPlan, layout: DetectedLayout, entry: ActiveImport, options: ImportOptions): Promise<InstalledModel | null> {
    const staging = join(this.stagingDir, `import-${id}`);
    const signal = entry.controller.signal;
    let lastEmit = 0;
    try {
      await rm(staging, { recursive: true, force: true });
      await copyPlan(plan, staging, {
        signal,
        onProgress: (bytes) => {
          entry.bytesDone = bytes;
          const now = Date.now();
          if (now - lastEmit >= 200) {
            lastEmit = now;
            this.emit('progress', this.importStatus(id, entry));
          }
        },
      });
      signal.throwIfAborted();
      // The copy is checked again: what was detected from the walk must be what arrived.
      const copied = detectLayoutIn(diskListing(staging), layout.family);
      const dir = join(this.modelsDir, id);
      await rm(dir, { recursive: true, force: true });
      await rename(staging, dir);
      const model: InstalledModel = {
        id,
        source: 'imported',
        name: options.name ?? id,
        description: `Imported ${copied.family} model`,
        family: copied.family,
        capability: familyCapability(copied.family),
        languages: entry.languages,
        licence: 'unknown (imported)',
        version: 'imported',
        dir,
        files: copied.files,
        sizeBytes: plan.bytes,
        sha256: {},
        verified: false,
        curatedListVersion: null,
        installedAt: new Date().toISOString(),
      };
      this.store.putInstalled(model);
      if (this.imports.get(id) === entry) this.imports.delete(id);
      this.emit('installed', model);
      return model;
    } catch (err) {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
      if (signal.aborted) {
        if (this.imports.get(id) === entry) this.imports.delete(id);
        return null;
      }
      const message = err instanceof ImportCopyError || err instanceof LayoutError ? err.message : `the import failed: ${(err as Error).message}`;
      entry.phase = 'failed';
      entry.error = { code: 'import_failed', message };
      this.log(`import of ${id} failed: ${message}`);
      this.emit('failed', { id, code: 'import_failed', message });
      throw new ApiError('invalid_request', message, { cause: err });
    }
  }

  private importStatus(id: string, entry: ActiveImport): PackageStatus {
    return {
      id,
      name: entry.name,
      description: `Imported ${entry.family} model`,
      capability: familyCapability(entry.family),
      family: entry.family,
      languages: entry.languages,
      licence: 'unknown (imported)',
      version: 'imported',
      source: 'imported',
      size_bytes: entry.bytesTotal,
      installed: false,
      state: entry.phase,
      verified: null,
      progress: entry.bytesTotal > 0 ? Math.min(1, entry.bytesDone / entry.bytesTotal) : entry.phase === 'importing' ? 0 : null,
      downloaded_bytes: entry.bytesDone,
      error_code: entry.error?.code ?? null,
      error_message: entry.error?.message ?? null,
      dir: null,
      built_in: false,
    };
  }

  /** Staging folders no download row refers to (a crash mid-cancel or mid-import) are deleted. */
  private removeOrphanStaging(): void {
    if (!existsSync(this.stagingDir)) return;
    const known = new Set(this.store.downloads().map((d) => d.modelId));
    for (const name of readdirSync(this.stagingDir)) {
      if (!known.has(name) && !this.active.has(name)) rmSync(join(this.stagingDir, name), { recursive: true, force: true });
    }
  }

  /** The package is the copy shipped with the app (no downloaded copy of it is installed). */
  private isBuiltIn(id: string): boolean {
    return (this.options.builtIn ?? []).some((b) => b.id === id) && !this.options.repos.models.installedById(id);
  }

  private offered(id: string): OfferedPackage | null {
    const curated = this.curated.find((p) => p.id === id);
    if (curated) return asOffered(curated);
    const row = this.store.urlPackage(id);
    return row ? offeredFromUrl(row) : null;
  }

  private isInsideModelsDir(path: string): boolean {
    const p = resolve(path);
    return p === this.modelsDir || p.startsWith(this.modelsDir + '/') || p.startsWith(this.modelsDir + '\\');
  }

  private log(message: string): void {
    this.options.log?.(`[models] ${message}`);
  }

  private statusOf(pkg: OfferedPackage | null, installed: InstalledModel | null): PackageStatus {
    const base = installed ?? pkg!;
    const a = this.active.get(base.id);
    const row = this.store.download(base.id);
    let state: PackageStatus['state'] = installed ? 'installed' : 'not_installed';
    if (a) state = a.phase;
    else if (row?.status === 'downloading' && this.isDownloading(base.id)) state = 'downloading';
    else if (row?.status === 'failed' && !installed) state = 'failed';
    const bytesDone = a ? a.bytesDone : (row?.bytesDone ?? 0);
    const bytesTotal = a ? a.bytesTotal : (row?.bytesTotal ?? 0);
    const failed = !!row && row.status === 'failed' && !a && !!row.errorCode;
    const showProgress = state === 'downloading' || state === 'installing' || state === 'failed' || (!!row && !installed);
    return {
      id: base.id,
      name: base.name,
      description: base.description,
      capability: installed?.capability ?? pkg!.capability,
      family: base.family,
      languages: base.languages,
      licence: base.licence,
      version: base.version,
      source: installed?.source ?? pkg!.source,
      size_bytes: installed ? installed.sizeBytes : a && a.bytesTotal > 0 ? a.bytesTotal : packageSize(pkg!),
      installed: !!installed,
      state,
      verified: installed ? installed.verified : null,
      progress: showProgress && row ? (bytesTotal > 0 ? Math.min(1, bytesDone / bytesTotal) : 0) : null,
      downloaded_bytes: showProgress && row ? bytesDone : null,
      error_code: failed ? row.errorCode : null,
      error_message: failed ? (row.errorMessage ?? row.errorCode) : null,
      dir: installed?.dir ?? null,
      built_in: this.isBuiltIn(base.id),
    };
  }

  /** The mirror and CA file the next download uses, and where each comes from. */
  downloadSource(): DownloadSource {
    const overrides = {
      ...(this.options.mirror !== undefined ? { mirror: this.options.mirror } : {}),
      ...(this.options.caFile !== undefined ? { caFile: this.options.caFile } : {}),
    };
    return currentDownloadSource(this.options.repos.settings, overrides);
  }

  private launch(pkg: OfferedPackage): void {
    const controller = new AbortController();
    const total = packageSize(pkg);
    const existing = this.store.download(pkg.id);
    const entry: ActiveDownload = {
      controller,
      reason: null,
      phase: 'downloading',
      bytesDone: existing?.bytesDone ?? 0,
      bytesTotal: total,
      done: Promise.resolve(null),
      mirror: null,
    };
    this.active.set(pkg.id, entry);
    this.store.startDownload(pkg.id, total);
    entry.done = this.run(pkg, entry).then(
      (model) => {
        if (this.active.get(pkg.id) === entry) this.active.delete(pkg.id);
        this.emit('installed', model);
        return model;
      },
      (err: unknown) => {
        const current = this.active.get(pkg.id) === entry;
        if (current) this.active.delete(pkg.id);
        if (entry.reason === 'stop') return null;
        if (entry.reason === 'cancel') {
          // A new pull may have started since the cancel: its files are not ours to delete.
          if (!this.active.has(pkg.id)) this.discardDownload(pkg.id);
          return null;
        }
        const code =
          err instanceof DownloadError
            ? err.code
            : err instanceof ArchiveError
              ? err.code
              : err instanceof LayoutError
                ? 'install_failed'
                : 'download_failed';
        const hint = err instanceof DownloadError ? downloadHint(err, entry.mirror) : '';
        const message = (err instanceof Error ? err.message : String(err)) + hint;
        this.log(`${pkg.id}: ${code}: ${message}`);
        this.store.failDownload(pkg.id, code, message);
        this.emit('failed', { id: pkg.id, code, message });
        return null;
      },
    );
    const settled = entry.done.catch((err: unknown) => this.log(`${pkg.id}: ${String(err)}`));
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }

  private discardDownload(id: string): void {
    this.store.deleteDownload(id);
    rmSync(join(this.stagingDir, id), { recursive: true, force: true });
  }

  private async run(pkg: OfferedPackage, entry: ActiveDownload): Promise<InstalledModel> {
    const source = this.downloadSource();
    let network: DownloadNetwork;
    try {
      network = new DownloadNetwork(source.caFile.value);
    } catch (err) {
      if (err instanceof NetworkSetupError) throw new DownloadError('download_failed', err.message, false, { cause: err });
      throw err;
    }
    try {
      return await this.fetchAndInstall(pkg, entry, network, this.isMirrored(pkg) ? source.mirror.value : null);
    } finally {
      network.destroy();
    }
  }

  /** Curated packages follow the mirror; a package someone added by URL is fetched from that URL. */
  private isMirrored(pkg: OfferedPackage): boolean {
    return pkg.source === 'curated';
  }

  private async fetchAndInstall(pkg: OfferedPackage, entry: ActiveDownload, network: DownloadNetwork, mirror: string | null): Promise<InstalledModel> {
    const staging = join(this.stagingDir, pkg.id);
    mkdirSync(staging, { recursive: true });
    const signal = entry.controller.signal;
    const sizes = pkg.files.map((f) => f.sizeBytes);
    const hashes: Record<string, string> = {};
    let verified = true;
    let lastSave = 0;
    let lastEmit = 0;
    const row = this.store.download(pkg.id);

    for (const [i, file] of pkg.files.entries()) {
      const donePath = join(staging, `file-${i}.done`);
      const hashPath = `${donePath}.sha256`;
      const name = basename(new URL(file.url).pathname);
      if (existsSync(donePath) && existsSync(hashPath)) {
        hashes[name] = readFileSync(hashPath, 'utf8').trim();
        if (!file.sha256) verified = false;
        continue;
      }
      const before = sizes.slice(0, i).reduce((s, n) => s + n, 0);
      const partPath = join(staging, `file-${i}.part`);
      const url = mirror ? mirroredUrl(mirror, pkg.id, file.url) : file.url;
      entry.mirror = mirror;
      const result = await fetchToPart({
        url,
        network,
        partPath,
        etag: row && row.fileIndex === i ? row.etag : null,
        expectedSize: file.sizeBytes > 0 ? file.sizeBytes : null,
        signal,
        retries: this.options.retries,
        backoffMs: this.options.backoffMs,
        idleTimeoutMs: this.options.idleTimeoutMs,
        onProgress: (fileDone, fileTotal, etag) => {
          entry.bytesDone = before + fileDone;
          // A package added by URL without size_bytes learns its size from the server.
          if (file.sizeBytes === 0 && fileTotal) entry.bytesTotal = Math.max(entry.bytesTotal, before + fileTotal);
          const now = Date.now();
          if (now - lastSave >= SAVE_EVERY_MS) {
            lastSave = now;
            this.store.saveProgress(pkg.id, { fileIndex: i, fileBytesDone: fileDone, bytesDone: entry.bytesDone, etag });
          }
          if (now - lastEmit >= 200) {
            lastEmit = now;
            this.emit('progress', this.status(pkg.id));
          }
        },
      });
      this.store.saveProgress(pkg.id, { fileIndex: i, fileBytesDone: result.bytes, bytesDone: before + result.bytes, etag: result.etag });
      const sha = await sha256File(partPath);
      if (file.sha256 && sha !== file.sha256.toLowerCase()) {
        rmSync(partPath, { force: true });
        throw new DownloadError('checksum_mismatch', `${name} from ${url} has sha256 ${sha}, expected ${file.sha256}; the file was deleted`, false);
      }
      if (!file.sha256) {
        verified = false;
        this.log(`${pkg.id}: ${name} has no published sha256; recorded ${sha} (unverified)`);
      }
      hashes[name] = sha;
      writeFileSync(hashPath, sha);
      renameSync(partPath, donePath);
    }

    entry.phase = 'installing';
    this.emit('progress', this.status(pkg.id));
    // A marker while installing: finding it at the next attempt means the process died in the middle (a crash
    // or a kill), so the install is failed instead of resumed into what may be the same death at every start.
    const marker = join(staging, INSTALL_MARKER);
    if (existsSync(marker)) {
      await rm(marker, { force: true });
      throw new ArchiveError(
        'install_failed',
        `the service stopped while installing ${pkg.id} last time (a crash or a kill), so it is not installed again on its own; pull it again to retry`,
      );
    }
    await writeFile(marker, '');
    try {
      return await this.install(pkg, staging, hashes, verified, signal);
    } catch (err) {
      await rm(marker, { force: true });
      throw err;
    }
  }

  /** Extracts or copies the verified files into the package folder, detects its layout and records it installed. */
  private async install(pkg: OfferedPackage, staging: string, hashes: Record<string, string>, verified: boolean, signal: AbortSignal): Promise<InstalledModel> {
    const pkgDir = join(staging, 'package');
    await rm(pkgDir, { recursive: true, force: true });
    await mkdir(pkgDir, { recursive: true });
    for (const [i, file] of pkg.files.entries()) {
      const donePath = join(staging, `file-${i}.done`);
      const target = resolve(pkgDir, file.path);
      if (target !== pkgDir && !target.startsWith(pkgDir + sep)) {
        throw new DownloadError('download_failed', `${pkg.id}: the file name ${JSON.stringify(file.path)} reaches outside the package folder; nothing was installed`, false);
      }
      if (file.extract) {
        const out = join(staging, `extract-${i}`);
        await rm(out, { recursive: true, force: true });
        try {
          await extractArchive(donePath, out, file.extract, { signal });
        } catch (err) {
          // The archive is the problem, not the connection: a new attempt downloads it again.
          if (err instanceof ArchiveError) await rm(donePath, { force: true });
          throw err;
        }
        await mkdir(target, { recursive: true });
        for (const name of await readdir(out)) await rename(join(out, name), join(target, name));
        await rm(out, { recursive: true, force: true });
      } else {
        await mkdir(join(target, '..'), { recursive: true });
        await copyFile(donePath, target); // async: a 600 MB model must not stall the service
      }
    }
    let layout;
    try {
      layout = detectLayout(pkgDir, pkg.family ?? undefined);
    } catch (err) {
      if (!(err instanceof LayoutError)) throw err;
      // A downloaded package's own files may be named (found: …); the staging path is not, and the family is given
      // with the package (POST /v1/local/models family, voxdesk models add --family).
      const message = err.message.replaceAll(pkgDir, 'the download').replace('the folder holds', 'the download holds').replace('pass --family', 'give its family').replace(' to be told what that family needs', '');
      throw new LayoutError(message, err.kind, err.family, err.found);
    }
    if (signal.aborted) throw new DownloadError('cancelled', 'the download was cancelled', false);
    const dir = join(this.modelsDir, pkg.id);
    await rm(dir, { recursive: true, force: true });
    await rename(pkgDir, dir);
    const model: InstalledModel = {
      id: pkg.id,
      source: pkg.source,
      name: pkg.name,
      description: pkg.description,
      family: layout.family,
      capability: pkg.capability ?? familyCapability(layout.family),
      languages: boundLanguages(pkg.languages, layout.languages),
      licence: pkg.licence,
      version: pkg.version,
      dir,
      files: layout.files,
      sizeBytes: await diskUsage(dir),
      sha256: hashes,
      verified,
      curatedListVersion: pkg.source === 'curated' ? CURATED_LIST_VERSION : null,
      installedAt: new Date().toISOString(),
    };
    this.store.putInstalled(model);
    await rm(staging, { recursive: true, force: true });
    return model;
  }
}

function asOffered(pkg: ModelPackage): OfferedPackage {
  return { ...pkg, source: 'curated' };
}

/**
 * A package's languages within those its model declares (Whisper): a language the model lacks would make
 * sherpa-onnx exit the process when asked for. Without a declaration the package's list stands.
 */
export function boundLanguages(listed: string[], declared: string[] | undefined): string[] {
  if (!declared) return listed;
  if (listed.length === 0) return declared;
  const inside = listed.filter((l) => declared.includes(l));
  return inside.length > 0 ? inside : declared;
}

/** Languages given to an import, checked against those the model declares (when it declares any). */
function importLanguages(given: string[] | undefined, declared: string[] | undefined): string[] {
  if (!given) return declared ?? [];
  const unknown = declared ? given.filter((l) => !declared.includes(l)) : [];
  if (unknown.length > 0) {
    throw new ApiError('invalid_request', `the model does not know ${unknown.join(', ')}; it declares ${declared!.join(', ')}`);
  }
  return given;
}

function defaultImportId(source: string): string {
  return basename(source)
    .replace(/\.onnx$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
}

async function diskUsage(path: string): Promise<number> {
  const st = await stat(path);
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const name of await readdir(path)) total += await diskUsage(join(path, name));
  return total;
}
