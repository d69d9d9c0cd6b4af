/**
 * The hosted endpoint (URL + the user's key on it) in the settings table, row `remote`. The key must be sent to
 * the hosted service, so unlike local API keys it is stored as given; it is never echoed back by the API.
 */
import type { SettingsRepo } from '../store/settings-repo.js';
import type { RemoteEndpoint } from './remote-client.js';

const SETTINGS_KEY = 'remote';

export interface StoredRemoteSettings {
  url: string | null;
  key: string | null;
}

export class RemoteSettingsStore {
  constructor(private readonly repo: SettingsRepo) {}

  read(): StoredRemoteSettings {
    const value = this.repo.get<Partial<StoredRemoteSettings>>(SETTINGS_KEY) ?? {};
    return { url: typeof value.url === 'string' ? value.url : null, key: typeof value.key === 'string' ? value.key : null };
  }

  write(settings: StoredRemoteSettings): void {
    this.repo.set(SETTINGS_KEY, settings);
  }

  /** The endpoint to forward to, or undefined when no hosted service is configured. */
  endpoint(): RemoteEndpoint | undefined {
    const { url, key } = this.read();
    return url ? { url, key } : undefined;
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
