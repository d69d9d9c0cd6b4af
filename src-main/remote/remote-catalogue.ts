/**
 * The hosted catalogue as a ModelSource: fetched from GET {remote}/v1/models?include_unavailable=true on start,
 * every catalogueRefreshMs and on every settings change, cached in the store (the SQLite file, or a cluster's
 * database, where every node reads what any node fetched) so the rows (with their hosted prices) are there offline.
 * list() answers from memory, and version() moves when its answer may change: new rows fetched or read from the
 * cache, and a change of the settings in force (endpoint, key; remote-settings-store.ts).
 */
import type { CatalogueRecord } from '../common/api-types.js';
import type { ModelDefinition, ModelSource } from '../engines/model-definition.js';
import { RemoteClient } from './remote-client.js';
import type { RemoteCatalogueRepo } from '../store/remote-catalogue-repo.js';
import type { Async } from '../store/store.js';
import type { RemoteOptions } from './remote-options.js';
import type { RemoteSettingsStore } from './remote-settings-store.js';
import { toRemoteDefinition } from './remote-models.js';
import type { Log } from '../common/log.js';

export interface CatalogueState {
  /** When the cached rows were fetched; null when never. */
  fetchedAt: string | null;
  /** Why the last fetch failed; null after a success. */
  lastError: string | null;
  models: number;
}

export class RemoteCatalogue implements ModelSource {
  readonly name = 'remote';
  private records: CatalogueRecord[] = [];
  /** Counts new rows and finished fetches; see version(). */
  private changes = 0;
  private fetchedAt: string | null = null;
  private lastError: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly settings: RemoteSettingsStore,
    private readonly cache: Async<RemoteCatalogueRepo>,
    private readonly options: RemoteOptions,
    private readonly log: Log,
    /** Told the outcome of every fetch (null on success): real requests are how connectivity is learned. */
    private readonly onFetch: (error: unknown) => void = () => {},
  ) {}

  list(): ModelDefinition[] {
    const endpoint = this.settings.endpoint();
    if (!endpoint) return [];
    const blockedReason = endpoint.key ? null : 'no API key is set for the hosted service (Settings)';
    return this.records.map((r) => toRemoteDefinition(r, { blockedReason })).filter((d): d is ModelDefinition => d !== undefined);
  }

  /** Both counters only grow, so their sum moves whenever either does. */
  version(): number {
    return this.changes + this.settings.revision;
  }

  state(): CatalogueState {
    return { fetchedAt: this.fetchedAt, lastError: this.lastError, models: this.list().length };
  }

  /** Fetches now (one fetch at a time); a failure keeps the cached rows and is reported by state(). */
  refresh(): Promise<void> {
    return this.probe().catch(() => {});
  }

  /** Like refresh, but a failure is thrown (the connectivity probe). */
  probe(): Promise<void> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Re-reads the cache for the configured endpoint (after a settings change) and fetches. */
  async reload(): Promise<void> {
    await this.loadCache();
    return this.refresh();
  }

  start(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.catalogueRefreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The cached rows of the configured endpoint (another node may have fetched them), read into memory. */
  async loadCache(): Promise<void> {
    const endpoint = this.settings.endpoint();
    const cached = endpoint ? await this.cache.read(endpoint.url) : undefined;
    // The settings may have changed while the read was out: keep the rows only for the endpoint still in force.
    if (this.settings.endpoint()?.url !== endpoint?.url) return;
    this.records = cached?.records ?? [];
    this.fetchedAt = cached?.fetchedAt ?? null;
    this.changes += 1;
  }

  private async fetch(): Promise<void> {
    // Each fetch reads the settings again (another process or node may have changed them; a moved endpoint's rows
    // are read from the cache first), so list() may answer differently.
    if (await this.settings.load()) await this.loadCache();
    const endpoint = this.settings.endpoint();
    if (!endpoint) return;
    try {
      const records = await new RemoteClient(endpoint, this.options).listModels();
      // The settings may have changed while the call was out: never cache one endpoint's rows under another.
      if (this.settings.endpoint()?.url !== endpoint.url) return;
      const fetchedAt = new Date().toISOString();
      await this.cache.replace(endpoint.url, records, fetchedAt);
      if (this.settings.endpoint()?.url !== endpoint.url) return;
      this.records = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      this.changes += 1;
      this.fetchedAt = fetchedAt;
      this.lastError = null;
      this.onFetch(null);
    } catch (error) {
      this.lastError = (error as Error).message;
      this.log.info(`hosted catalogue refresh from ${endpoint.url} failed: ${this.lastError}`);
      this.onFetch(error);
      throw error;
    }
  }
}
