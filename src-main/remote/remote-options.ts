/**
 * Every option of hosted-service forwarding, each with its default, in one place (docs/design.md §6.7). Tests shorten
 * the intervals; the product uses the defaults.
 */

export interface RemoteOptions {
  /** How often the hosted catalogue is fetched again. Default 600 000 ms (10 minutes); also on every settings change. */
  catalogueRefreshMs: number;
  /** Timeout of a short JSON call (catalogue, GET job, cancel). Default 30 000 ms. */
  requestTimeoutMs: number;
  /**
   * Timeout of a submission POST, which the hosted side holds up to its hold window (spec: 4 minutes).
   * Default 300 000 ms: longer than the 240 s hold, so a held call is never cut short by us.
   */
  submitTimeoutMs: number;
  /** First delay between two GETs of a hosted job still queued or running. Default 500 ms. */
  pollInitialMs: number;
  /**
   * First delay between two GETs of a hosted batch, and again after each answer that changed. Default 100 ms: a batch
   * POST is answered at once (the spec holds only single jobs), so this is how late a finished item can be noticed;
   * it was pollInitialMs (500 ms), which made a forwarded 50-item batch take seconds longer than the hosted one. An
   * unchanged answer stretches it by pollFactor up to pollMaxMs, so a long batch is still asked rarely.
   */
  batchPollInitialMs: number;
  /** Longest delay between two GETs of a hosted job or batch (the delay grows by pollFactor). Default 10 000 ms. */
  pollMaxMs: number;
  /** Growth of the polling delay after each unchanged answer. Default 1.5. */
  pollFactor: number;
  /** First delay before retrying while the hosted service cannot be reached. Default 1 000 ms. */
  offlineInitialMs: number;
  /** Longest delay between two connectivity probes while offline (doubles up to this). Default 10 000 ms: one small GET, cheap enough to notice the network is back within seconds. */
  offlineMaxMs: number;
  /** A hosted 500 (not a network failure) is retried this many times before the job fails remote_failed. Default 3. */
  serverErrorRetries: number;
  /**
   * First delay before a batch refused with 429 `too_many_open_batches` (the hosted account's two open batches) is
   * submitted again; its items wait queued with `waiting_for_capacity` meanwhile. Default 2 000 ms.
   */
  capacityInitialMs: number;
  /** Longest delay between two such submissions (doubles up to this). Default 30 000 ms. */
  capacityMaxMs: number;
  /**
   * How often hosted batches still open while all their local items ended (cancelled or expired while queued
   * here) are looked for and cancelled on the hosted side. Default 15 000 ms.
   */
  orphanSweepMs: number;
  /** Local jobs forwarded at the same time (each holds one hosted POST or poll loop). Default 4. */
  concurrency: number;
  /**
   * Largest hosted artifact downloaded; a larger one fails the job remote_failed (the partial file deleted).
   * Default 4 GiB (two hours of 48 kHz stereo WAV is 1.4 GB).
   */
  maxArtifactBytes: number;
}

export const DEFAULT_REMOTE_OPTIONS: RemoteOptions = {
  catalogueRefreshMs: 600_000,
  requestTimeoutMs: 30_000,
  submitTimeoutMs: 300_000,
  pollInitialMs: 500,
  batchPollInitialMs: 100,
  pollMaxMs: 10_000,
  pollFactor: 1.5,
  offlineInitialMs: 1_000,
  offlineMaxMs: 10_000,
  serverErrorRetries: 3,
  capacityInitialMs: 2_000,
  capacityMaxMs: 30_000,
  orphanSweepMs: 15_000,
  concurrency: 4,
  maxArtifactBytes: 4 * 1024 ** 3,
};

export function resolveRemoteOptions(partial: Partial<RemoteOptions> = {}): RemoteOptions {
  const options = { ...DEFAULT_REMOTE_OPTIONS, ...partial };
  for (const [name, value] of Object.entries(options)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(`invalid remote option ${name}: ${String(value)} (a number ≥ 0)`);
    }
  }
  return options;
}

/** Hosted rows' model ids are `remote:<hosted id>`, never colliding with on-device ids (docs/hosted-service.md). */
export const REMOTE_ID_PREFIX = 'remote:';

/** Idempotency-Key sent with the hosted submission of a local job (or, given a batch id, of a local batch). */
export function idempotencyKeyFor(localJobId: string): string {
  return `voxdesk-${localJobId}`;
}
