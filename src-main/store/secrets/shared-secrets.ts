/**
 * Secrets in the shared store (store.ts): the hosted service's key, which every node of a cluster sends. Read through
 * the asynchronous repositories like everything shared, sealed and opened by a SecretSealer: on one machine the node's
 * own ciphers (the keyring, the key file, the desktop app's safe storage — exactly what SecretStore uses), in a cluster
 * the cluster's key (cluster-key-cipher.ts). Nothing is kept in memory here: another node may change a value at any
 * time, so its reader (remote/remote-settings-store.ts) decides when to read again.
 */
import type { SecretsRepo } from '../secrets-repo.js';
import type { Async } from '../store.js';
import type { SecretSealer } from './secret-sealer.js';

export class SharedSecrets {
  constructor(
    private readonly repo: Async<SecretsRepo>,
    readonly sealer: SecretSealer,
  ) {}

  /** Why values cannot be sealed here (a cluster node without VOXDESK_SECRETS_KEY); null when they can. */
  get refusal(): string | null {
    return this.sealer.refusal;
  }

  /** Whether a value is stored under `name` (opened or not). */
  async has(name: string): Promise<boolean> {
    return (await this.repo.get(name)) !== undefined;
  }

  /** The value, or null when none is stored; throws SecretUnavailableError when it cannot be opened here. */
  async get(name: string): Promise<string | null> {
    const row = await this.repo.get(name);
    if (!row) return null;
    const { value, reseal } = this.sealer.open(name, row);
    if (reseal) {
      await this.repo.put(name, this.sealer.seal(name, value));
      this.sealer.moved(name, row.sealedBy);
    }
    return value;
  }

  /** Stores a value sealed (null deletes it); throws an Error with `refusal` when this node cannot seal. */
  async set(name: string, value: string | null): Promise<void> {
    if (value === null) await this.repo.delete(name);
    else await this.repo.put(name, this.sealer.seal(name, value));
  }

  /** After a plain value was moved in: the SQLite file's WAL leaves the disk (PostgreSQL: nothing to do). */
  scrub(): Promise<void> {
    return this.repo.checkpoint();
  }
}
