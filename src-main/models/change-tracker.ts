/**
 * When what the model manager answers may have changed, as one number (the catalogue keeps its rows until it moves):
 * the manager's own writes and the downloads it starts and ends move it at once; a change another process made in
 * the database (`voxdesk models pull` beside the service) is seen by comparing the model tables' fingerprint whenever
 * another connection has committed; and a download another process left running stops counting as running after
 * STALE_DOWNLOAD_MS, which moves it too. About a microsecond while nothing changed.
 */
import type { InstalledStore } from './installed-store.js';

/** A download row not updated for this long is not running in any process (a crash); start() resumes it. */
export const STALE_DOWNLOAD_MS = 60_000;

export class ChangeTracker {
  private changes = 0;
  private seenCommits: number | undefined;
  private seenFingerprint: string | undefined;
  /** When a download another process runs stops counting as running; undefined: not known. */
  private staleAt: number | undefined;

  /** `runsHere(id)`: whether this process runs the download of `id` (its row is then never stale). */
  constructor(
    private readonly store: () => InstalledStore,
    private readonly runsHere: (id: string) => boolean,
  ) {}

  revision(): number {
    const store = this.store();
    const commits = store.othersCommits();
    if (commits !== this.seenCommits) {
      this.seenCommits = commits;
      const fingerprint = store.fingerprint();
      if (fingerprint !== this.seenFingerprint) {
        this.seenFingerprint = fingerprint;
        this.changed();
      }
    }
    this.staleAt ??= this.nextStaleAt(store);
    if (Date.now() >= this.staleAt) {
      this.changes += 1;
      this.staleAt = this.nextStaleAt(store);
    }
    return this.changes;
  }

  /** Something this process did changed what the manager answers. */
  changed(): void {
    this.changes += 1;
    this.staleAt = undefined;
  }

  /** The next time a download row of another process turns stale (Infinity: none will). */
  private nextStaleAt(store: InstalledStore): number {
    const now = Date.now();
    let at = Infinity;
    for (const row of store.downloads()) {
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
