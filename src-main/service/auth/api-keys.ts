/**
 * The service's view of accounts and API keys, over the store's accounts repository (the SQL lives there): create
 * and register keys for named accounts, find the owner of a presented key, list and revoke keys.
 *
 * `last_used_at` is written at most once per TOUCH_INTERVAL_MS per key: a script polling a job every 500 ms must
 * not turn every read into a database write. A revocation here (the /v1/keys route) is announced at once to the
 * listeners (open live sessions end); one made by another process (`voxdesk keys revoke`) is found by the live
 * server's periodic re-check (live-options.ts keyRecheckMs). HTTP requests look the key up every time, so a revoked
 * key is refused on its next request either way.
 */
import type { AccountsRepo, ApiKeyInfo } from '../../store/accounts-repo.js';

export interface KeyOwner {
  accountId: string;
  accountName: string;
  /** The api_keys row; null for the keys that live only in this process (browser-UI and CLI sessions). */
  keyId: string | null;
}

/** Least time between two writes of one key's last_used_at. Default 60 s. */
export const TOUCH_INTERVAL_MS = 60_000;

export class ApiKeys {
  private readonly touched = new Map<string, number>();
  private readonly revokedListeners = new Set<(keyId: string) => void>();

  constructor(
    private readonly repo: AccountsRepo,
    private readonly now: () => number = Date.now,
  ) {}

  /** The id of the named account, created on first use. */
  ensureAccount(name: string): string {
    return this.repo.ensureAccount(name).id;
  }

  /** A fresh key for the named account (created if missing); shown once, stored hashed. */
  createKey(accountName: string, name: string | null = null): string {
    return this.repo.createApiKey(this.ensureAccount(accountName), name).key;
  }

  /** Registers a key chosen elsewhere (VOXDESK_API_KEY) for the named account; idempotent; a revoked key throws. */
  registerKey(accountName: string, key: string, name: string | null = null): void {
    this.repo.registerApiKey(this.ensureAccount(accountName), key, name);
  }

  /** The owner of an active key, recording the use (throttled); undefined for an unknown or revoked key. */
  find(key: string): KeyOwner | undefined {
    const match = this.repo.findKey(key);
    if (!match) return undefined;
    const now = this.now();
    const last = this.touched.get(match.keyId);
    if (last === undefined || now - last >= TOUCH_INTERVAL_MS) {
      this.touched.set(match.keyId, now);
      this.repo.touchKey(match.keyId, new Date(now).toISOString());
    }
    return { accountId: match.account.id, accountName: match.account.name, keyId: match.keyId };
  }

  isActive(keyId: string): boolean {
    return this.repo.isKeyActive(keyId);
  }

  list(): ApiKeyInfo[] {
    return this.repo.listAllApiKeys();
  }

  get(keyId: string): ApiKeyInfo | undefined {
    return this.repo.getApiKey(keyId);
  }

  /** Revokes a key; true when it was active. Listeners hear of it at once. */
  revoke(keyId: string): boolean {
    const revoked = this.repo.revokeApiKey(keyId);
    this.touched.delete(keyId);
    if (revoked) for (const listener of this.revokedListeners) listener(keyId);
    return revoked;
  }

  /** Called with the key id whenever revoke() revokes one; returns the unsubscribe function. */
  onRevoked(listener: (keyId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }
}
