/**
 * The Models tab's work, apart from its view: the model manager's packages (GET /v1/local/models) read again every
 * second while anything downloads, installs or imports, and the actions on them (download, cancel, remove, import a
 * folder), each told in plain words. An import runs in the background like a download: its end is told when it comes.
 */
import type { LocalModel } from '$common/api-client.js';
import { describeError, errorText } from '../shared/error-messages.js';
import { Problem } from '../shared/problem.svelte.js';
import { t } from '../shared/i18n/i18n.svelte.js';
import type { AppState } from '../shared/service/app-state.svelte.js';

/** How often the packages are read while something is under way. Default 1 s. */
const REFRESH_MS = 1000;

const BUSY = new Set(['downloading', 'installing', 'importing']);

export function isBusy(p: LocalModel | undefined): boolean {
  return !!p && BUSY.has(p.state);
}

export function progressOf(p: LocalModel | undefined): number | null {
  if (!p) return null;
  if (typeof p.progress === 'number') return p.progress;
  if (p.downloaded_bytes && p.size_bytes) return p.downloaded_bytes / p.size_bytes;
  return null;
}

/** Why a package failed, in the interface's language. */
export function packageError(p: LocalModel): string {
  return describeError(typeof p.error_code === 'string' ? p.error_code : null, p.error_message ?? null);
}

export class LocalPackages {
  list = $state.raw<LocalModel[]>([]);
  /** Why the packages cannot be read. */
  readonly #problem = new Problem();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly app: AppState) {}

  get error(): string | null {
    return this.#problem.text;
  }

  get busy(): boolean {
    return this.list.some(isBusy);
  }

  find(id: string): LocalModel | undefined {
    return this.list.find((p) => p.id === id);
  }

  async refresh(): Promise<void> {
    try {
      // A scratch map, never rendered.
      // eslint-disable-next-line svelte/prefer-svelte-reactivity
      const before = new Map(this.list.map((p) => [p.id, p.state]));
      this.list = await this.app.api.localModels();
      this.#problem.clear();
      for (const p of this.list) {
        if (before.get(p.id) !== 'importing' || p.state === 'importing') continue;
        if (p.state === 'installed') this.app.toast(t('models.imported'));
        else if (p.state === 'failed') this.app.toast(packageError(p), 'error');
      }
    } catch (err) {
      this.#problem.set(err);
    }
    clearTimeout(this.#timer);
    if (this.busy) {
      this.#timer = setTimeout(() => {
        void this.refresh().then(() => {
          if (!this.busy) void this.app.loadModels();
        });
      }, REFRESH_MS);
    }
  }

  /** Runs an action, says `done` (or why it failed), then reads the packages and the catalogue again. */
  async run(action: () => Promise<unknown>, done?: string): Promise<void> {
    try {
      await action();
      if (done) this.app.toast(done);
    } catch (err) {
      this.app.toast(errorText(err), 'error');
    }
    await this.refresh();
    await this.app.loadModels();
  }

  /** `acceptUnconfirmed`: the person chose to install a package whose checksum nobody publishes (asked first). */
  download(id: string, options: { acceptUnconfirmed?: boolean } = {}): Promise<void> {
    return this.run(() => this.app.api.downloadModel(id, options), t('models.downloadStarted'));
  }

  cancel(id: string): Promise<void> {
    return this.run(() => this.app.api.cancelDownload(id));
  }

  remove(id: string): Promise<void> {
    return this.run(() => this.app.api.removeModel(id), t('models.removed'));
  }

  async importFolder(path: string): Promise<void> {
    await this.run(async () => {
      const started = await this.app.api.importModel(path);
      this.list = [...this.list.filter((p) => p.id !== started.id), started]; // so refresh() sees it go from importing to done
    }, t('models.importing'));
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}
