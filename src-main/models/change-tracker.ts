/**
 * When what the model manager answers may have changed, as one number (the catalogue keeps its rows until it moves):
 * the manager's own writes, the view's reloads and the downloads it starts and ends move it at once; a change another
 * process made in the database (`voxdesk models pull` beside the service, another node) is looked for in the
 * background at each call (installed-store.ts refresh(): the store's others' version, then the model tables'
 * fingerprint), so the call after it has landed sees it; and a download another process left running stops counting
 * as running after STALE_DOWNLOAD_MS, which moves it too. About a microsecond while nothing changed.
 */
import type { InstalledStore } from './installed-store.js';

/** A download row not updated for this long is not running in any process (a crash); start() resumes it. */
export const STALE_DOWNLOAD_MS = 60_000;

export class ChangeTracker {
  private changes = 0;
  /** When a download another process runs stops counting as running; undefined: not known. */
  private staleAt: number | undefined;

  /**
   * `view`: the installed store, once open. `runsHere(id)`: whether this process runs the download of `id` (its row
   * is then never stale). `lookFailed`: a background look at the store failed (it is closing, or unreachable).
   */
  constructor(
    private readonly view: () => InstalledStore | undefined,
    private readonly runsHere: (id: string) => boolean,
    private readonly lookFailed: (error: unknown) => void,
  ) {}

  revision(): number {
    const view = this.view();
    if (view) {
      view.refresh().catch(this.lookFailed);
      this.staleAt ??= this.nextStaleAt(view);
      if (Date.now() >= this.staleAt) {
        this.changes += 1;
        this.staleAt = this.nextStaleAt(view);
      }
    }
    return this.changes;
  }

  /** Something changed what the manager answers. */
  changed(): void {
    this.changes += 1;
    this.staleAt = undefined;
  }

  /** The next time a download row of another process turns stale (Infinity: none will). */
  private nextStaleAt(view: InstalledStore): number {
    const now = Date.now();
    let at = Infinity;
    for (const row of view.downloads()) {
      if (row.status !== 'downloading' || this.runsHere(row.modelId)) continue;
      const stale = Date.parse(row.updatedAt) + STALE_DOWNLOAD_MS;
      if (stale > now && stale < at) at = stale;
    }
    return at;
  }
}

/** Whether a download row counts as running: this process runs it, or another did so within STALE_DOWNLOAD_MS. */
export function downloadRunning(row: { status: string; updatedAt: string } | null, runsHere: boolean): boolean {
  if (runsHere) return true;
  return !!row && row.status === 'downloading' && Date.now() - Date.parse(row.updatedAt) < STALE_DOWNLOAD_MS;
}
