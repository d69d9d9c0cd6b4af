/**
 * The hosted endpoint: its URL in the settings table (row `remote`), the user's key on it sealed in the secrets table
 * (`remote.key`, store/secrets/shared-secrets.ts), both in the shared store — the SQLite file on one machine, the
 * cluster's PostgreSQL database on many, so forwarding configured through any API node is in force on every node.
 * The key must be sent to the hosted service, so it cannot be hashed like local keys; it is never stored in plain
 * text and never echoed back by the API. Versions before the secrets table kept it in the settings row: the first
 * start moves it (and scrubs the old bytes from the database files).
 *
 * What is in force is kept in memory (`read()`, `endpoint()`: the catalogue's list and every job ask synchronously)
 * and read again by `load()`: at start, and when another node may have changed it (the provider's othersCommitted).
 * Every write stamps the row anew, so a reader sees that the key changed without opening it each time.
 */
import { randomUUID } from 'node:crypto';
import type { SharedSecrets } from '../store/secrets/shared-secrets.js';
import { SecretUnavailableError } from '../store/secrets/secret-cipher.js';
import type { AsyncSettingsRepo } from '../store/store.js';
import type { RemoteEndpoint } from './remote-client.js';
import { silentLog, type Log } from '../common/log.js';

const SETTINGS_KEY = 'remote';
/** The name of the hosted key in the secrets table. */
export const REMOTE_KEY_SECRET = 'remote.key';

export interface StoredRemoteSettings {
  url: string | null;
  key: string | null;
}

/** The settings row: the URL and a stamp that changes with every write (of the URL or the key). */
interface SettingsRow {
  url?: unknown;
  key?: unknown;
  written?: unknown;
}

export class RemoteSettingsStore {
  /** Why a stored key cannot be read here (SecretUnavailableError), shown in the settings view; null when fine. */
  keyProblem: string | null = null;
  /** Moves whenever what is in force changes (the hosted catalogue's rows depend on the endpoint and the key). */
  revision = 0;
  private current: StoredRemoteSettings = { url: null, key: null };
  /** The row as last read (its JSON): an unchanged row needs no look at the key. */
  private seen: string | null | undefined;

  constructor(
    private readonly repo: AsyncSettingsRepo,
    private readonly secrets: SharedSecrets,
    private readonly log: Log = silentLog,
  ) {}

  /** What is in force on this node (as last loaded or written here). */
  read(): StoredRemoteSettings {
    return { ...this.current };
  }

  /**
   * Reads the settings again (the key only when the row changed); answers whether what is in force changed. The
   * first call also seals a key an older version left in plain text.
   */
  async load(): Promise<boolean> {
    if (this.seen === undefined) await this.movePlainKey();
    const row = (await this.repo.get<SettingsRow>(SETTINGS_KEY)) ?? null;
    const seen = row ? JSON.stringify(row) : null;
    if (seen === this.seen) return false;
    this.seen = seen;
    const url = typeof row?.url === 'string' ? row.url : null;
    const key = await this.key();
    if (url === this.current.url && key === this.current.key) return false;
    this.current = { url, key };
    this.revision += 1;
    return true;
  }

  /**
   * Stores new settings, the key first (a node that sees the new row reads the new key); `key` undefined leaves the
   * stored key as it is (one this node cannot open stays for the nodes that can). Throws when it cannot seal.
   */
  async write(settings: { url: string | null; key: string | null | undefined }): Promise<void> {
    if (settings.key !== undefined) await this.secrets.set(REMOTE_KEY_SECRET, settings.key);
    const row = { url: settings.url, written: randomUUID() };
    await this.repo.set(SETTINGS_KEY, row);
    this.seen = JSON.stringify(row);
    this.current = { url: settings.url, key: settings.key === undefined ? this.current.key : settings.key };
    if (settings.key !== undefined) this.keyProblem = null;
    this.revision += 1;
  }

  /** Why a hosted key cannot be sealed on this node (a cluster node without its sealing key); null when it can. */
  get sealRefusal(): string | null {
    return this.secrets.refusal;
  }

  /** The endpoint to forward to, or undefined when no hosted service is configured. */
  endpoint(): RemoteEndpoint | undefined {
    const { url, key } = this.current;
    return url ? { url, key } : undefined;
  }

  private async key(): Promise<string | null> {
    try {
      const key = await this.secrets.get(REMOTE_KEY_SECRET);
      this.keyProblem = null;
      return key;
    } catch (error) {
      if (!(error instanceof SecretUnavailableError)) throw error;
      if (this.keyProblem !== error.message) this.log.warn(error.message);
      this.keyProblem = error.message;
      return null;
    }
  }

  /** A key left in plain text by an older version is sealed, and the plain bytes leave the database files. */
  private async movePlainKey(): Promise<void> {
    const value = await this.repo.get<SettingsRow>(SETTINGS_KEY);
    if (!value || !('key' in value)) return;
    const plain = typeof value.key === 'string' && value.key ? value.key : null;
    if (plain) await this.secrets.set(REMOTE_KEY_SECRET, plain);
    await this.repo.set(SETTINGS_KEY, { url: typeof value.url === 'string' ? value.url : null });
    await this.secrets.scrub();
    if (plain) this.log.info(`the hosted key is now sealed (${this.secrets.sealer.kind}); it was stored in plain text by an older version`);
  }
}

/** Accepts http(s) origins with an optional path prefix; returns it without a trailing slash or `/v1`. */
export function normaliseRemoteUrl(input: string): string {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    throw new Error(`"${input}" is not a URL (expected e.g. https://api.example.com)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`"${input}" must be an http:// or https:// URL`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new Error(`"${input}" must not carry credentials, a query or a fragment`);
  }
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${parsed.origin}${path}`;
}
