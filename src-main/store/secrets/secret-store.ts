/**
 * Secrets at rest in the node's own SQLite file: get/set by name, sealed with the primary cipher (secret-cipher.ts),
 * opened with whichever cipher sealed them (secret-sealer.ts). A value sealed by another cipher that is at hand is
 * re-sealed with the primary one when read (a key stored by a headless run before a keyring was available moves into
 * the keyring). Opened values are kept in memory, so a secret read on every request is decrypted once. The hosted
 * key lives in the shared store instead (shared-secrets.ts), sealed by the same ciphers on one machine.
 */
import type { SecretsRepo } from '../secrets-repo.js';
import type { SecretCipher } from './secret-cipher.js';
import { SecretSealer } from './secret-sealer.js';
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
  /** The ciphers, shared with the hosted key's SharedSecrets on one machine (service/engine-parts.ts). */
  readonly sealer: SecretSealer;

  constructor(
    private readonly repo: SecretsRepo,
    options: SecretStoreOptions,
  ) {
    this.sealer = new SecretSealer(options);
  }

  /** Which cipher seals new values (`electron-safe-storage`, `os-keyring` or `key-file`). */
  get kind(): string {
    return this.sealer.kind!;
  }

  /** The value, or null when none is stored; throws SecretUnavailableError when it cannot be opened here. */
  get(name: string): string | null {
    if (this.cache.has(name)) return this.cache.get(name)!;
    const row = this.repo.get(name);
    if (!row) {
      this.cache.set(name, null);
      return null;
    }
    const { value, reseal } = this.sealer.open(name, row);
    if (reseal) {
      this.set(name, value);
      this.sealer.moved(name, row.sealedBy);
    }
    this.cache.set(name, value);
    return value;
  }

  /** Stores a value sealed (null deletes it). */
  set(name: string, value: string | null): void {
    if (value === null) this.repo.delete(name);
    else this.repo.put(name, this.sealer.seal(name, value));
    this.cache.set(name, value);
  }

  /** After a plain value was moved in: pushes the old page images out of the WAL (see SecretsRepo.checkpoint). */
  scrub(): void {
    this.repo.checkpoint();
  }
}
