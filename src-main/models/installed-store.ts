/**
 * The model manager's one door to the store: what is installed, the downloads in progress and the packages added by
 * URL (store/models-repo.ts), as the manager reads them — the shipped models (packages/built-in-models.ts) listed
 * as installed where no downloaded copy is.
 *
 * The store answers promises (store/store.ts: SQLite in the app, PostgreSQL in a cluster), but the manager's status
 * reads must stay cheap and synchronous: the catalogue asks for them on every read. So this module keeps an
 * in-memory view of the three tables. It is loaded once (open()); each write goes to the store first and then
 * re-reads the rows of that package into the view; and refresh() reloads everything when another connection has
 * committed (store.othersVersion()) a change to these tables (the repository's fingerprint) — `voxdesk models pull`
 * beside a running service, or another node of a cluster. Writes and reloads run one at a time, in order, so a
 * reload never lands between a write and its re-read. Every write that can change what the manager reports calls
 * `onChange` (progress saves are not shown, so they do not).
 *
 * Package folders are named in rows as their storage says (store/objects/stored-packages.ts): paths in a folder, keys
 * with a bucket, where an installed package's files are put before its row is written and removed after it is
 * deleted. The view holds each node's local folder.
 */
import type { ModelFamily } from '../common/model-families.js';
import type { DownloadRow, InstalledModel as StoredModel, ModelsRepo, UrlPackageRow } from '../store/models-repo.js';
import type { Async, AsyncSettingsRepo } from '../store/store.js';
import { FOLDER_PACKAGES, type StoredPackages } from '../store/objects/stored-packages.js';
import type { PackageCapability } from './family-engines.js';

/** An installed package, with the model floor's family and capability types. */
export type InstalledModel = StoredModel<ModelFamily, PackageCapability>;

type TypedRepo = Async<ModelsRepo<ModelFamily, PackageCapability>>;

/** What the model manager needs of the store (store/store.ts's Store has it): two repositories and others' commits. */
export interface ModelStore {
  readonly repos: { readonly models: Async<ModelsRepo>; readonly settings: AsyncSettingsRepo };
  /** Moves whenever another connection may have committed (Store.othersVersion). */
  othersVersion(): Promise<number>;
}

export class InstalledStore {
  private readonly repo: TypedRepo;
  private readonly stored = new Map<string, InstalledModel>();
  private readonly rows = new Map<string, DownloadRow>();
  private readonly added = new Map<string, UrlPackageRow<ModelFamily>>();
  /** Writes and reloads, one at a time in call order. */
  private queue: Promise<unknown> = Promise.resolve();
  private seenVersion: number | undefined;
  private seenFingerprint: string | undefined;
  private checking: Promise<boolean> | null = null;

  private constructor(
    private readonly store: ModelStore,
    private readonly builtIn: readonly InstalledModel[],
    private readonly onChange: () => void,
    private readonly packages: StoredPackages,
  ) {
    this.repo = store.repos.models as TypedRepo;
  }

  /**
   * The view, loaded. `builtIn`: the shipped models, shown as installed unless a row of the same id is (a copy the
   * person downloaded earlier wins until it is removed).
   */
  static async open(store: ModelStore, builtIn: readonly InstalledModel[], onChange: () => void, packages: StoredPackages = FOLDER_PACKAGES): Promise<InstalledStore> {
    const view = new InstalledStore(store, builtIn, onChange, packages);
    await view.reload();
    return view;
  }

  installed(): InstalledModel[] {
    const stored = [...this.stored.values()];
    return [...stored, ...this.builtIn.filter((b) => !this.stored.has(b.id))];
  }

  installedById(id: string): InstalledModel | null {
    return this.stored.get(id) ?? this.builtIn.find((b) => b.id === id) ?? null;
  }

  /** Whether `id` is served by the shipped copy (no downloaded copy of it is installed). */
  isBuiltIn(id: string): boolean {
    return !this.stored.has(id) && this.builtIn.some((b) => b.id === id);
  }

  /** Downloads in progress or failed, oldest first. */
  downloads(): DownloadRow[] {
    return [...this.rows.values()];
  }

  download(id: string): DownloadRow | null {
    return this.rows.get(id) ?? null;
  }

  /** Packages added by URL, oldest first. */
  urlPackages(): UrlPackageRow<ModelFamily>[] {
    return [...this.added.values()];
  }

  urlPackage(id: string): UrlPackageRow<ModelFamily> | null {
    return this.added.get(id) ?? null;
  }

  /** Records an installed package (its files put in storage first) and forgets its download. */
  async putInstalled(m: InstalledModel): Promise<void> {
    await this.packages.publish(m.dir);
    return this.write(m.id, () => this.repo.putInstalled({ ...m, dir: this.packages.toRow(m.dir) }));
  }

  /** Forgets an installed package; its files in storage go after its row (a bucket's objects; the folder is the manager's). */
  async deleteInstalled(id: string): Promise<void> {
    const m = this.stored.get(id);
    await this.write(id, () => this.repo.deleteInstalled(id));
    if (m) await this.packages.remove(m.dir);
  }

  /** The package's folder complete on this node's disk (with a bucket: fetched on its first use here). */
  async fetchInstalled(id: string): Promise<void> {
    const m = this.stored.get(id);
    if (m) await this.packages.fetch(m.dir, m.installedAt);
  }

  /** Starts (or restarts after a failure) a download: clears the error, keeps the progress. */
  startDownload(id: string, bytesTotal: number): Promise<void> {
    return this.write(id, () => this.repo.startDownload(id, bytesTotal));
  }

  saveProgress(id: string, p: { fileIndex: number; fileBytesDone: number; bytesDone: number; etag: string | null }): Promise<void> {
    return this.write(id, () => this.repo.saveProgress(id, p), false);
  }

  failDownload(id: string, code: string, message: string): Promise<void> {
    return this.write(id, () => this.repo.failDownload(id, code, message));
  }

  deleteDownload(id: string): Promise<void> {
    return this.write(id, () => this.repo.deleteDownload(id));
  }

  /** Adds a package by URL; false when the id is taken (in the store, perhaps by another process). */
  async addUrlPackage(p: Omit<UrlPackageRow<ModelFamily>, 'addedAt'>): Promise<boolean> {
    let added = false;
    await this.write(p.id, async () => {
      added = await this.repo.addUrlPackage(p);
    });
    return added;
  }

  /** Forgets a package added by URL with its download and installed rows (and the installed files in storage). */
  async deleteUrlPackage(id: string): Promise<void> {
    const m = this.stored.get(id);
    await this.write(id, () => this.repo.deleteUrlPackage(id));
    if (m) await this.packages.remove(m.dir);
  }

  /**
   * Reloads the view when another connection changed the model tables since the last look; true when it did. One
   * look at a time: a call while one runs shares it. On SQLite about a microsecond while nothing changed.
   */
  refresh(): Promise<boolean> {
    this.checking ??= this.serially(async () => {
      const version = await this.store.othersVersion();
      if (version === this.seenVersion) return false;
      this.seenVersion = version;
      if ((await this.repo.fingerprint()) === this.seenFingerprint) return false;
      await this.load();
      return true;
    }).finally(() => (this.checking = null));
    return this.checking;
  }

  /** Waits for the writes queued so far. */
  async settled(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  private reload(): Promise<void> {
    return this.serially(async () => {
      this.seenVersion = await this.store.othersVersion();
      await this.load();
    });
  }

  /** Reads the three tables into the view (the fingerprint first: a change after it is seen by the next refresh). */
  private async load(): Promise<void> {
    this.seenFingerprint = await this.repo.fingerprint();
    const [installed, downloads, added] = await Promise.all([this.repo.installed(), this.repo.downloads(), this.repo.urlPackages()]);
    replace(this.stored, installed.map((m) => [m.id, this.local(m)]));
    replace(this.rows, downloads.map((d) => [d.modelId, d]));
    replace(this.added, added.map((a) => [a.id, a]));
    this.onChange();
  }

  /** Runs a write of package `id` in the queue, then re-reads that package's rows into the view. */
  private write(id: string, change: () => Promise<unknown>, shown = true): Promise<void> {
    return this.serially(async () => {
      try {
        await change();
      } finally {
        const [installed, row, added] = await Promise.all([this.repo.installedById(id), this.repo.download(id), this.repo.urlPackage(id)]);
        put(this.stored, id, installed && this.local(installed));
        put(this.rows, id, row);
        put(this.added, id, added);
        if (shown) this.onChange();
      }
    });
  }

  /** A row's package with this node's folder for it. */
  private local(m: InstalledModel): InstalledModel {
    const dir = this.packages.fromRow(m.dir);
    return dir === m.dir ? m : { ...m, dir };
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function replace<V>(map: Map<string, V>, entries: [string, V][]): void {
  map.clear();
  for (const [key, value] of entries) map.set(key, value);
}

/** Sets or deletes a row, keeping the map's order (oldest first) for a row that stays. */
function put<V>(map: Map<string, V>, id: string, value: V | null): void {
  if (value === null) map.delete(id);
  else map.set(id, value);
}
