/**
 * The service's view of accounts and API keys, over the store's accounts repository (the SQL lives there; either
 * backend): create and register keys for named accounts, find the owner of a presented key, list and revoke keys.
 *
 * `find` runs on every authenticated request, in the synchronous gate in front of the route (http/route-gates.ts):
 * a key matched a moment ago answers at once from this class's own memory, kept while the store's `othersNow`
 * stands still (no other process or node committed: `voxdesk keys revoke`, another node's revocation) and dropped on
 * a revocation here. Otherwise it answers a promise of the repository's lookup. On SQLite the common request costs
 * a map lookup and one data_version read; on PostgreSQL a busy cluster moves the count often and more lookups go to
 * the repository (which remembers matches under the same rule and asks the database only when that moved too).
 *
 * `last_used_at` is written at most once per TOUCH_INTERVAL_MS per key: a script polling a job every 500 ms must
 * not turn every read into a database write. A revocation here (the /v1/keys route) is announced at once to the
 * listeners (open live sessions end); one made by another process is found by the live server's periodic re-check
 * (live-options.ts keyRecheckMs).
 */
import type { AccountsRepo, ApiKeyInfo, KeyMatch } from '../../store/accounts-repo.js';
import type { OthersCommits } from '../../store/others-commits.js';
import type { Async } from '../../store/store.js';
import { silentLog, type Log } from '../../common/log.js';

export interface KeyOwner {
  accountId: string;
  accountName: string;
  /** The api_keys row; null for the keys that live only in this process (browser-UI and CLI sessions). */
  keyId: string | null;
}

/** Least time between two writes of one key's last_used_at. Default 60 s. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Matches remembered at most (a flood of distinct valid keys starts the memory again). */
const REMEMBERED_KEYS = 256;

export class ApiKeys {
  private readonly touched = new Map<string, number>();
  private readonly revokedListeners = new Set<(keyId: string) => void>();
  private readonly remembered = new Map<string, KeyOwner>();
  private rememberedAt = -1;
  /** Moves on every revocation here: a lookup that overlapped one keeps nothing. */
  private revocations = 0;

  /**
   * `othersNow`: the store's synchronous count of other connections' commits (Store.othersNow); without it nothing
   * is remembered here (every find asks the repository).
   */
  constructor(
    private readonly repo: Async<AccountsRepo>,
    private readonly now: () => number = Date.now,
    private readonly othersNow: Pick<OthersCommits, 'read'> | null = null,
    private readonly log: Log = silentLog,
  ) {}

  /** The id of the named account, created on first use. */
  async ensureAccount(name: string): Promise<string> {
    return (await this.repo.ensureAccount(name)).id;
  }

  /** A fresh key for the named account (created if missing); shown once, stored hashed. */
  async createKey(accountName: string, name: string | null = null): Promise<string> {
    return (await this.repo.createApiKey(await this.ensureAccount(accountName), name)).key;
  }

  /** Registers a key chosen elsewhere (VOXDESK_API_KEY) for the named account; idempotent; a revoked key throws. */
  async registerKey(accountName: string, key: string, name: string | null = null): Promise<void> {
    await this.repo.registerApiKey(await this.ensureAccount(accountName), key, name);
  }

  /**
   * The owner of an active key, recording the use (throttled); undefined for an unknown or revoked key. Answers at
   * once for a key remembered since nothing moved, else a promise.
   */
  find(key: string): KeyOwner | undefined | Promise<KeyOwner | undefined> {
    const version = this.othersNow?.read();
    if (version !== undefined && version === this.rememberedAt) {
      const known = this.remembered.get(key);
      if (known) {
        this.touch(known.keyId!);
        return { ...known };
      }
    }
    return this.lookUp(key, version, this.revocations);
  }

  private async lookUp(key: string, version: number | undefined, revocations: number): Promise<KeyOwner | undefined> {
    const match: KeyMatch | undefined = await this.repo.findKey(key);
    if (!match) return undefined;
    const owner: KeyOwner = { accountId: match.account.id, accountName: match.account.name, keyId: match.keyId };
    // Kept only when nothing moved while it was read (a revocation meanwhile must not be remembered as active).
    if (version !== undefined && this.othersNow!.read() === version && this.revocations === revocations) {
      if (this.rememberedAt !== version) {
        this.remembered.clear();
        this.rememberedAt = version;
      }
      if (this.remembered.size >= REMEMBERED_KEYS) this.remembered.clear();
      this.remembered.set(key, owner);
    }
    this.touch(match.keyId);
    return { ...owner };
  }

  /** Writes last_used_at at most once per TOUCH_INTERVAL_MS; a failed write is logged, never the request's. */
  private touch(keyId: string): void {
    const now = this.now();
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(keyId, now);
    this.repo.touchKey(keyId, new Date(now).toISOString()).catch((error: Error) => this.log.info(`a key's last use could not be recorded: ${error.message}`));
  }

  isActive(keyId: string): Promise<boolean> {
    return this.repo.isKeyActive(keyId);
  }

  list(): Promise<ApiKeyInfo[]> {
    return this.repo.listAllApiKeys();
  }

  get(keyId: string): Promise<ApiKeyInfo | undefined> {
    return this.repo.getApiKey(keyId);
  }

  /** Revokes a key; true when it was active. Listeners hear of it at once. */
  async revoke(keyId: string): Promise<boolean> {
    this.forget();
    const revoked = await this.repo.revokeApiKey(keyId);
    this.forget(); // and a find that read the row while the revocation ran keeps nothing either
    this.touched.delete(keyId);
    if (revoked) for (const listener of this.revokedListeners) listener(keyId);
    return revoked;
  }

  private forget(): void {
    this.revocations++;
    this.remembered.clear();
    this.rememberedAt = -1;
  }

  /** Called with the key id whenever revoke() revokes one; returns the unsubscribe function. */
  onRevoked(listener: (keyId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }
}
