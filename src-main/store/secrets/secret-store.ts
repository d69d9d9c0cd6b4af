/**
 * Secrets at rest: get/set by name, sealed with the primary cipher (secret-cipher.ts), opened with whichever cipher
 * sealed them. A value sealed by another cipher that is at hand is re-sealed with the primary one when read (a key
 * stored by a headless run before a keyring was available moves into the keyring). Opened values are kept in memory,
 * so a secret read on every request (the hosted key) is decrypted once.
 */
import type { SecretsRepo } from '../secrets-repo.js';
import { SecretUnavailableError, type SecretCipher } from './secret-cipher.js';
import type { Log } from '../../common/log.js';

export interface SecretStoreOptions {
  /** Seals every new value. */
  primary: SecretCipher;
  /** Other ciphers that may have sealed stored values (the primary need not be repeated). */
  openers?: readonly SecretCipher[];
  /** Diagnostics (never a value). */
  log?: Log;
  /** Why ciphers that sealed stored values are missing here, by kind (shown in SecretUnavailableError). */
  missing?: ReadonlyMap<string, string>;
  /** Called once, after the first value this store seals (open-secret-store.ts: the key-file notice). */
  onFirstSeal?: () => void;
}

export class SecretStore {
  private readonly cache = new Map<string, string | null>();
  private readonly ciphers: Map<string, SecretCipher>;
  private onFirstSeal: (() => void) | undefined;

  constructor(
    private readonly repo: SecretsRepo,
    private readonly options: SecretStoreOptions,
  ) {
    this.ciphers = new Map([...(options.openers ?? []), options.primary].map((c) => [c.kind, c]));
    this.onFirstSeal = options.onFirstSeal;
  }

  /** Which cipher seals new values (`electron-safe-storage`, `os-keyring` or `key-file`). */
  get kind(): string {
    return this.options.primary.kind;
  }

  /** The value, or null when none is stored; throws SecretUnavailableError when it cannot be opened here. */
  get(name: string): string | null {
    if (this.cache.has(name)) return this.cache.get(name)!;
    const row = this.repo.get(name);
    if (!row) {
      this.cache.set(name, null);
      return null;
    }
    const cipher = this.ciphers.get(row.sealedBy);
    if (!cipher) throw new SecretUnavailableError(name, row.sealedBy, this.options.missing?.get(row.sealedBy) ?? 'that cipher is not available in this process');
    let value: string;
    try {
      value = cipher.open(name, row.sealed);
    } catch (error) {
      throw new SecretUnavailableError(name, row.sealedBy, `it does not open (${(error as Error).message})`);
    }
    if (cipher !== this.options.primary) {
      this.set(name, value);
      this.options.log?.info(`secrets: ${name} moved from ${row.sealedBy} to ${this.options.primary.kind}`);
    }
    this.cache.set(name, value);
    return value;
  }

  /** Stores a value sealed (null deletes it). */
  set(name: string, value: string | null): void {
    if (value === null) this.repo.delete(name);
    else this.repo.put(name, { sealed: this.options.primary.seal(name, value), sealedBy: this.options.primary.kind });
    this.cache.set(name, value);
    if (value !== null && this.onFirstSeal) {
      const notice = this.onFirstSeal;
      this.onFirstSeal = undefined;
      notice();
    }
  }

  /** After a plain value was moved in: pushes the old page images out of the WAL (see SecretsRepo.checkpoint). */
  scrub(): void {
    this.repo.checkpoint();
  }
}
