/**
 * The downloads this process runs: one per package at a time, started (or resumed after a quit or a crash) from its
 * row in the store, each file fetched with progress, resume and retries (http-download.ts), checked against its
 * published sha256, then installed (package-install.ts). A download's state is in the store, so a quit keeps the
 * partial files and the next start resumes; a cancel deletes them. All file-system work is asynchronous.
 */
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { InstalledModel, InstalledStore } from '../installed-store.js';
import { packageSize, type OfferedPackage } from '../packages/curated-models.js';
import { DownloadNetwork } from './download-network.js';
import { downloadHint, mirroredUrl, type DownloadSource } from './download-source.js';
import { fetchToPart, sha256File } from './http-download.js';
import { installStaged, type StagedPackage } from './package-install.js';
import type { Log } from '../../common/log.js';
import { PackageError } from '../../common/errors.js';

/** How downloads retry and when a silent connection is dropped (ModelManagerOptions documents the defaults). */
export interface DownloadTimings {
  retries?: number;
  backoffMs?: number;
  idleTimeoutMs?: number;
}

export interface PackageDownloadsOptions extends DownloadTimings {
  /** dataDir/models: packages are installed into <modelsDir>/<id>/, staged in <modelsDir>/.staging/<id>/. */
  modelsDir: string;
  store: InstalledStore;
  /** The mirror and CA file the next download uses. */
  source: () => Promise<DownloadSource>;
  /** A download started or ended here (what the manager answers changed). */
  onChange: () => void;
  /** Progress of a package, at most every PROGRESS_EVERY_MS. */
  onProgress: (id: string) => void;
  onInstalled: (model: InstalledModel) => void;
  onFailed: (failure: { id: string; code: string; message: string }) => void;
  log: Log;
}

/** A download running in this process. */
export interface ActiveDownload {
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

/** In a package's staging folder while it installs (see fetchAndInstall). */
const INSTALL_MARKER = 'installing';
const SAVE_EVERY_MS = 1000;
const PROGRESS_EVERY_MS = 200;

const exists = (path: string) => access(path).then(() => true, () => false);

export class PackageDownloads {
  readonly stagingDir: string;
  private readonly active = new Map<string, ActiveDownload>();
  /** Every download still settling, cancelled ones included: stop() waits for all of them. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: PackageDownloadsOptions) {
    this.stagingDir = join(options.modelsDir, '.staging');
  }

  running(id: string): ActiveDownload | undefined {
    return this.active.get(id);
  }

  /** Starts the download of `pkg` unless one runs. */
  start(pkg: OfferedPackage): void {
    if (this.active.has(pkg.id)) return;
    const total = packageSize(pkg);
    const entry: ActiveDownload = {
      controller: new AbortController(),
      reason: null,
      phase: 'downloading',
      bytesDone: this.options.store.download(pkg.id)?.bytesDone ?? 0,
      bytesTotal: total,
      done: Promise.resolve(null),
      mirror: null,
    };
    this.setActive(pkg.id, entry);
    entry.done = this.run(pkg, entry, total).then(
      (model) => {
        this.endActive(pkg.id, entry);
        this.options.onInstalled(model);
        return model;
      },
      (err: unknown) => this.ended(pkg, entry, err),
    );
    this.track(entry.done.catch((err: unknown) => this.options.log.info(`${pkg.id}: ${String(err)}`)));
  }

  /** Cancels the download of `id` (when running here) and deletes its row and partial files. */
  async cancel(id: string): Promise<void> {
    const a = this.active.get(id);
    if (a) {
      a.reason = 'cancel';
      a.controller.abort();
      this.endActive(id, a);
    }
    await this.discard(id);
  }

  /** Stops running downloads, keeping their partial files and rows so the next start resumes them. */
  async stop(): Promise<void> {
    const running = [...this.active.values()];
    for (const a of running) {
      a.reason = 'stop';
      a.controller.abort();
    }
    await Promise.allSettled([...running.map((a) => a.done), ...this.pending]);
  }

  /** Waits for every download still settling (cancelled ones included). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  /** Deletes staging folders no download row refers to (a crash mid-cancel or mid-import left them). */
  async removeOrphanStaging(): Promise<void> {
    const names = await readdir(this.stagingDir).catch(() => [] as string[]);
    const known = new Set(this.options.store.downloads().map((d) => d.modelId));
    for (const name of names) {
      if (!known.has(name) && !this.active.has(name)) await rm(join(this.stagingDir, name), { recursive: true, force: true });
    }
  }

  /** Deletes a package's partial download: its row and its staging folder. */
  async discard(id: string): Promise<void> {
    await this.options.store.deleteDownload(id);
    await rm(join(this.stagingDir, id), { recursive: true, force: true });
  }

  private setActive(id: string, entry: ActiveDownload): void {
    this.active.set(id, entry);
    this.options.onChange();
  }

  private endActive(id: string, entry: ActiveDownload): void {
    if (this.active.get(id) !== entry) return;
    this.active.delete(id);
    this.options.onChange();
  }

  private track(settled: Promise<unknown>): void {
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }

  /** A download that threw: stopped (kept), cancelled (deleted) or failed (recorded with its code and a hint). */
  private async ended(pkg: OfferedPackage, entry: ActiveDownload, err: unknown): Promise<null> {
    this.endActive(pkg.id, entry);
    if (entry.reason === 'stop') return null;
    if (entry.reason === 'cancel') {
      // A new pull may have started since the cancel: its files are not ours to delete.
      if (!this.active.has(pkg.id)) await this.discard(pkg.id);
      return null;
    }
    const code = err instanceof PackageError ? err.code : 'download_failed';
    const hint = err instanceof PackageError ? downloadHint(err, entry.mirror) : '';
    const message = (err instanceof Error ? err.message : String(err)) + hint;
    this.options.log.info(`${pkg.id}: ${code}: ${message}`);
    await this.options.store.failDownload(pkg.id, code, message);
    this.options.onFailed({ id: pkg.id, code, message });
    return null;
  }

  private async run(pkg: OfferedPackage, entry: ActiveDownload, total: number): Promise<InstalledModel> {
    await this.options.store.startDownload(pkg.id, total);
    const source = await this.options.source();
    const network = await DownloadNetwork.open(source.caFile.value);
    try {
      // Curated packages follow the mirror; a package someone added by URL is fetched from that URL.
      const mirror = pkg.source === 'curated' ? source.mirror.value : null;
      const staged = await this.fetchFiles(pkg, entry, network, mirror);
      return await this.install(pkg, entry, staged);
    } finally {
      network.destroy();
    }
  }

  /** Fetches and verifies each file not fetched yet into the staging folder (`file-<i>.done` and its `.sha256`). */
  private async fetchFiles(pkg: OfferedPackage, entry: ActiveDownload, network: DownloadNetwork, mirror: string | null): Promise<StagedPackage> {
    const staging = join(this.stagingDir, pkg.id);
    await mkdir(staging, { recursive: true });
    const { store } = this.options;
    const sizes = pkg.files.map((f) => f.sizeBytes);
    const hashes: Record<string, string> = {};
    let verified = true;
    let lastSave = 0;
    let lastEmit = 0;
    const row = store.download(pkg.id);

    for (const [i, file] of pkg.files.entries()) {
      const donePath = join(staging, `file-${i}.done`);
      const hashPath = `${donePath}.sha256`;
      const name = basename(new URL(file.url).pathname);
      if ((await exists(donePath)) && (await exists(hashPath))) {
        hashes[name] = (await readFile(hashPath, 'utf8')).trim();
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
        signal: entry.controller.signal,
        ...this.timings(),
        onProgress: (fileDone, fileTotal, etag) => {
          entry.bytesDone = before + fileDone;
          // A package added by URL without size_bytes learns its size from the server.
          if (file.sizeBytes === 0 && fileTotal) entry.bytesTotal = Math.max(entry.bytesTotal, before + fileTotal);
          const now = Date.now();
          if (now - lastSave >= SAVE_EVERY_MS) {
            lastSave = now;
            store.saveProgress(pkg.id, { fileIndex: i, fileBytesDone: fileDone, bytesDone: entry.bytesDone, etag }).catch((err: unknown) =>
              this.options.log.info(`${pkg.id}: saving the progress failed: ${(err as Error).message}`),
            );
          }
          if (now - lastEmit >= PROGRESS_EVERY_MS) {
            lastEmit = now;
            this.options.onProgress(pkg.id);
          }
        },
      });
      await store.saveProgress(pkg.id, { fileIndex: i, fileBytesDone: result.bytes, bytesDone: before + result.bytes, etag: result.etag });
      const sha = await sha256File(partPath);
      if (file.sha256 && sha !== file.sha256.toLowerCase()) {
        await rm(partPath, { force: true });
        throw new PackageError('checksum_mismatch', `${name} from ${url} has sha256 ${sha}, expected ${file.sha256}; the file was deleted`);
      }
      if (!file.sha256) {
        verified = false;
        this.options.log.info(`${pkg.id}: ${name} has no published sha256; recorded ${sha} (unverified)`);
      }
      hashes[name] = sha;
      await writeFile(hashPath, sha);
      await rename(partPath, donePath);
    }
    return { pkg, staging, hashes, verified };
  }

  /**
   * Installs the fetched files. A marker lies in the staging folder meanwhile: finding it at the next attempt means
   * the process died in the middle (a crash or a kill), so the install is failed instead of resumed into what may be
   * the same death at every start.
   */
  private async install(pkg: OfferedPackage, entry: ActiveDownload, staged: StagedPackage): Promise<InstalledModel> {
    entry.phase = 'installing';
    this.options.onProgress(pkg.id);
    const marker = join(staged.staging, INSTALL_MARKER);
    if (await exists(marker)) {
      await rm(marker, { force: true });
      throw new PackageError(
        'install_failed',
        `the service stopped while installing ${pkg.id} last time (a crash or a kill), so it is not installed again on its own; pull it again to retry`,
      );
    }
    await writeFile(marker, '');
    try {
      const model = await installStaged(staged, this.options.modelsDir, entry.controller.signal);
      await this.options.store.putInstalled(model);
      await rm(staged.staging, { recursive: true, force: true });
      return model;
    } catch (err) {
      await rm(marker, { force: true });
      throw err;
    }
  }

  private timings(): DownloadTimings {
    const { retries, backoffMs, idleTimeoutMs } = this.options;
    return {
      ...(retries !== undefined ? { retries } : {}),
      ...(backoffMs !== undefined ? { backoffMs } : {}),
      ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    };
  }
}
