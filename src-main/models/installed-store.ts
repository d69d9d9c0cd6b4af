/**
 * The model manager's one door to the store: what is installed, the downloads in progress and the packages added by
 * URL (store/models-repo.ts), as the manager reads them — the shipped models (packages/built-in-models.ts) listed
 * as installed where no downloaded copy is, and every write that can change what the manager reports counted for
 * the change tracker. Every call of the models repository is here, so the store's asynchronous interface
 * (store/store.ts) replaces it in this one module.
 */
import type { InstalledModel as StoredModel, ModelsRepo } from '../store/models-repo.js';
import type { ModelFamily } from '../common/model-families.js';
import type { PackageCapability } from './family-engines.js';

/** An installed package, with the model floor's family and capability types. */
export type InstalledModel = StoredModel<ModelFamily, PackageCapability>;

/**
 * The repository with the manager's types (it is the only writer: family and capability read back are what it
 * wrote), and which packages are the shipped copies.
 */
export interface InstalledStore extends ModelsRepo<ModelFamily, PackageCapability> {
  /** Whether `id` is served by the shipped copy (no downloaded copy of it is installed). */
  isBuiltIn(id: string): boolean;
}

/**
 * The store as the model manager uses it. `builtIn`: the shipped models, shown as installed unless a row of the same
 * id is (a copy the person downloaded earlier wins until it is removed). `onWrite`: called after each write that can
 * change what the manager reports (progress saves are not shown, so they are not counted).
 */
export function installedStore(repo: ModelsRepo, builtIn: readonly InstalledModel[], onWrite: () => void): InstalledStore {
  const typed = repo as ModelsRepo<ModelFamily, PackageCapability>;
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
    ...typed,
    installed: () => {
      const stored = typed.installed();
      const ids = new Set(stored.map((m) => m.id));
      return [...stored, ...builtIn.filter((b) => !ids.has(b.id))];
    },
    installedById: (id: string) => typed.installedById(id) ?? builtIn.find((b) => b.id === id) ?? null,
    putInstalled: counted(typed.putInstalled),
    deleteInstalled: counted(typed.deleteInstalled),
    startDownload: counted(typed.startDownload),
    failDownload: counted(typed.failDownload),
    deleteDownload: counted(typed.deleteDownload),
    addUrlPackage: counted(typed.addUrlPackage),
    deleteUrlPackage: counted(typed.deleteUrlPackage),
    isBuiltIn: (id: string) => builtIn.some((b) => b.id === id) && !typed.installedById(id),
  };
}
