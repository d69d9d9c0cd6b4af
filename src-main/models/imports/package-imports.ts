/**
 * Imports of model folders (or single .onnx files) from disk: checked at once — the path, the id, the family, what
 * the folder holds (import-plan.ts walks it without leaving it; the layout is detected from the walk), so a wrong
 * folder is a 400 naming what is missing — then copied in the background into dataDir/models/<id>/ (a copy, so the
 * model keeps working when the original moves or is on removable media). Their state lives in memory: an import cut
 * by a quit is simply gone (its staging folder is deleted at the next start) and is started again by the person.
 */
import { rename, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ApiError, PackageError } from '../../common/errors.js';
import { isModelFamily, MODEL_FAMILIES, type ModelFamily } from '../../common/model-families.js';
import { familyCapability } from '../family-engines.js';
import type { InstalledModel, InstalledStore } from '../installed-store.js';
import { detectLayoutIn, type DetectedLayout } from '../layouts/detect-layout.js';
import { diskListing } from '../layouts/folder-listing.js';
import type { PackageStatus } from '../packages/package-status.js';
import { MODEL_ID_PATTERN } from '../packages/url-packages.js';
import { copyPlan } from './import-copy.js';
import { planImport, skippedNote, type ImportPlan } from './import-plan.js';
import type { Log } from '../../common/log.js';

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

/** An import running, or failed (kept until the next attempt or a remove, to show why). */
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

export interface PackageImportsOptions {
  modelsDir: string;
  stagingDir: string;
  store: InstalledStore;
  /** Why `id` cannot be imported under (a downloadable package has it), or null. */
  idTakenBy: (id: string) => string | null;
  onProgress: (status: PackageStatus) => void;
  onInstalled: (model: InstalledModel) => void;
  onFailed: (failure: { id: string; code: string; message: string }) => void;
  log: Log;
}

const PROGRESS_EVERY_MS = 200;
export const IMPORTED_LICENCE = 'unknown (imported)';

export class PackageImports {
  private readonly imports = new Map<string, ActiveImport>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: PackageImportsOptions) {}

  /** Ids of imports running or failed. */
  ids(): string[] {
    return [...this.imports.keys()];
  }

  isImporting(id: string): boolean {
    return this.imports.get(id)?.phase === 'importing';
  }

  /** The status of a running or failed import, or null. */
  status(id: string): PackageStatus | null {
    const entry = this.imports.get(id);
    return entry ? importStatus(id, entry) : null;
  }

  /** Starts an import; answers the `importing` state (see the file's docblock). */
  async start(path: string, options: ImportOptions): Promise<PackageStatus> {
    if (typeof path !== 'string' || path.trim() === '') throw new ApiError('invalid_request', 'path is required: a model folder or .onnx file');
    const source = resolve(path);
    let family: ModelFamily | undefined;
    if (options.family !== undefined) {
      if (!isModelFamily(options.family)) throw new ApiError('invalid_request', `unknown family ${options.family}; one of ${MODEL_FAMILIES.join(', ')}`);
      family = options.family;
    }
    const id = options.id ?? defaultImportId(source);
    if (!MODEL_ID_PATTERN.test(id)) {
      throw new ApiError('invalid_request', `model id ${JSON.stringify(id)} must be 1-64 characters of a-z, 0-9, '.', '_', '-' (pass --id)`);
    }
    this.checkFree(id);
    const plan = await planImport(source);
    const root = resolve(plan.root);
    if (root === this.options.modelsDir || root.startsWith(this.options.modelsDir + '/') || root.startsWith(this.options.modelsDir + '\\')) {
      throw new ApiError('invalid_request', `${source} is already inside the models folder`);
    }
    let layout: DetectedLayout;
    try {
      layout = await detectLayoutIn(plan.listing, family);
    } catch (err) {
      if (err instanceof PackageError && err.layout) throw new ApiError('invalid_request', `${source}: ${err.message}${skippedNote(plan)}`, { cause: err });
      throw err;
    }
    if (this.isImporting(id) || this.options.store.installedById(id)) throw new ApiError('conflict', `${id} is already being imported`);
    const entry: ActiveImport = {
      controller: new AbortController(),
      phase: 'importing',
      name: options.name ?? id,
      family: layout.family,
      languages: importLanguages(options.languages, layout.languages),
      bytesDone: 0,
      bytesTotal: plan.bytes,
      error: null,
      done: Promise.resolve(null),
    };
    this.imports.set(id, entry);
    entry.done = this.run(id, plan, layout, entry);
    // Failures are kept in the entry (status shows them); whenImported() callers get the rejection.
    const settled = entry.done.catch(() => undefined);
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
    return importStatus(id, entry);
  }

  /** Resolves when the import of `id` ends: the installed model, or null if it was cancelled; rejects if it failed. */
  async whenImported(id: string): Promise<InstalledModel | null> {
    const entry = this.imports.get(id);
    if (entry) return entry.done;
    return this.options.store.installedById(id);
  }

  /** Cancels a running import; answers its last status, or null when none runs. */
  cancel(id: string): PackageStatus | null {
    const entry = this.imports.get(id);
    if (entry?.phase !== 'importing') return null;
    entry.controller.abort(new Error('the import was cancelled'));
    this.imports.delete(id);
    return { ...importStatus(id, entry), state: 'not_installed', progress: null, downloaded_bytes: null };
  }

  /** Forgets a failed import; false when there is none. */
  forgetFailed(id: string): boolean {
    if (this.imports.get(id)?.phase !== 'failed') return false;
    this.imports.delete(id);
    return true;
  }

  async stop(): Promise<void> {
    const running = [...this.imports.values()].filter((i) => i.phase === 'importing');
    for (const i of running) i.controller.abort(new Error('the model manager is stopping'));
    await Promise.allSettled([...running.map((i) => i.done), ...this.pending]);
  }

  private checkFree(id: string): void {
    const taken = this.options.idTakenBy(id);
    if (taken) throw new ApiError('conflict', `${id} is ${taken}; pass another --id`);
    if (this.options.store.installedById(id)) throw new ApiError('conflict', `a model ${id} is already installed; remove it first or pass another --id`);
    if (this.isImporting(id)) throw new ApiError('conflict', `${id} is already being imported`);
  }

  private async run(id: string, plan: ImportPlan, layout: DetectedLayout, entry: ActiveImport): Promise<InstalledModel | null> {
    const staging = join(this.options.stagingDir, `import-${id}`);
    const signal = entry.controller.signal;
    let lastEmit = 0;
    try {
      await rm(staging, { recursive: true, force: true });
      await copyPlan(plan, staging, {
        signal,
        onProgress: (bytes) => {
          entry.bytesDone = bytes;
          const now = Date.now();
          if (now - lastEmit >= PROGRESS_EVERY_MS) {
            lastEmit = now;
            this.options.onProgress(importStatus(id, entry));
          }
        },
      });
      signal.throwIfAborted();
      // The copy is checked again: what was detected from the walk must be what arrived.
      const copied = await detectLayoutIn(diskListing(staging), layout.family);
      const dir = join(this.options.modelsDir, id);
      await rm(dir, { recursive: true, force: true });
      await rename(staging, dir);
      const model: InstalledModel = {
        id,
        source: 'imported',
        name: entry.name,
        description: `Imported ${copied.family} model`,
        family: copied.family,
        capability: familyCapability(copied.family),
        languages: entry.languages,
        licence: IMPORTED_LICENCE,
        version: 'imported',
        dir,
        files: copied.files,
        sizeBytes: plan.bytes,
        sha256: {},
        verified: false,
        curatedListVersion: null,
        installedAt: new Date().toISOString(),
      };
      await this.options.store.putInstalled(model);
      if (this.imports.get(id) === entry) this.imports.delete(id);
      this.options.onInstalled(model);
      return model;
    } catch (err) {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
      if (signal.aborted) {
        if (this.imports.get(id) === entry) this.imports.delete(id);
        return null;
      }
      const message = err instanceof PackageError ? err.message : `the import failed: ${(err as Error).message}`;
      entry.phase = 'failed';
      entry.error = { code: 'import_failed', message };
      this.options.log.info(`import of ${id} failed: ${message}`);
      this.options.onFailed({ id, code: 'import_failed', message });
      throw new ApiError('invalid_request', message, { cause: err });
    }
  }
}

function importStatus(id: string, entry: ActiveImport): PackageStatus {
  return {
    id,
    name: entry.name,
    description: `Imported ${entry.family} model`,
    capability: familyCapability(entry.family),
    family: entry.family,
    languages: entry.languages,
    licence: IMPORTED_LICENCE,
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
    spec_family: null,
    speed_class: null,
    unconfirmed: null,
  };
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
