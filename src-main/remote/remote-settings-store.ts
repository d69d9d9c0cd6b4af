/**
 * The hosted endpoint: its URL in the settings table (row `remote`), the user's key on it sealed in the secrets table
 * (`remote.key`, store/secrets/). The key must be sent to the hosted service, so it cannot be hashed like local keys;
 * it is never stored in plain text and never echoed back by the API. Versions before the secrets table kept it in
 * the settings row: the first start moves it (and scrubs the old bytes from the database files).
 */
import type { SecretStore } from '../store/secrets/secret-store.js';
import { SecretUnavailableError } from '../store/secrets/secret-cipher.js';
import type { SettingsRepo } from '../store/settings-repo.js';
import type { RemoteEndpoint } from './remote-client.js';
import { silentLog, type Log } from '../common/log.js';

const SETTINGS_KEY = 'remote';
/** The name of the hosted key in the secrets table. */
export const REMOTE_KEY_SECRET = 'remote.key';

export interface StoredRemoteSettings {
  url: string | null;
  key: string | null;
}

export class RemoteSettingsStore {
  /** Why a stored key cannot be read here (SecretUnavailableError), shown in the settings view; null when fine. */
  keyProblem: string | null = null;
  /** Moves on every write made through this store (the hosted catalogue's rows depend on the endpoint and the key). */
  revision = 0;

  constructor(
    private readonly repo: SettingsRepo,
    private readonly secrets: SecretStore,
    private readonly log: Log = silentLog,
  ) {
    this.movePlainKey();
  }

  read(): StoredRemoteSettings {
    const value = this.repo.get<{ url?: unknown }>(SETTINGS_KEY) ?? {};
    return { url: typeof value.url === 'string' ? value.url : null, key: this.key() };
  }

  write(settings: StoredRemoteSettings): void {
    this.repo.set(SETTINGS_KEY, { url: settings.url });
    this.secrets.set(REMOTE_KEY_SECRET, settings.key);
    this.keyProblem = null;
    this.revision += 1;
  }

  /** The endpoint to forward to, or undefined when no hosted service is configured. */
  endpoint(): RemoteEndpoint | undefined {
    const { url, key } = this.read();
    return url ? { url, key } : undefined;
  }

  private key(): string | null {
    try {
      return this.secrets.get(REMOTE_KEY_SECRET);
    } catch (error) {
      if (!(error instanceof SecretUnavailableError)) throw error;
      if (this.keyProblem === null) this.log.info(error.message);
      this.keyProblem = error.message;
      return null;
    }
  }

  /** A key left in plain text by an older version is sealed, and the plain bytes leave the database files. */
  private movePlainKey(): void {
    const value = this.repo.get<{ url?: unknown; key?: unknown }>(SETTINGS_KEY);
    if (!value || !('key' in value)) return;
    const plain = typeof value.key === 'string' && value.key ? value.key : null;
    if (plain) this.secrets.set(REMOTE_KEY_SECRET, plain);
    this.repo.set(SETTINGS_KEY, { url: typeof value.url === 'string' ? value.url : null });
    this.secrets.scrub();
    if (plain) this.log.info(`the hosted key is now sealed (${this.secrets.kind}); it was stored in plain text by an older version`);
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
