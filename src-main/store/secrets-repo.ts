/** Sealed secrets (migration 008): name → ciphertext and the cipher that sealed it. Never a plain value. */
import type { Db } from './db.js';
import { isoAt, systemClock, type Clock } from './clock.js';

export interface SealedSecret {
  sealed: Buffer;
  sealedBy: string;
}

export interface SecretsRepo {
  get(name: string): SealedSecret | undefined;
  put(name: string, secret: SealedSecret): void;
  delete(name: string): boolean;
  /** The ciphers that sealed the stored values (to know which must be at hand). */
  sealedBy(): string[];
  /**
   * Moves the WAL into the database and truncates it, so page images written before a plain value was sealed (and,
   * with secure_delete, zeroed in the database) leave the disk too.
   */
  checkpoint(): void;
}

export function createSecretsRepo(db: Db, clock: Clock = systemClock): SecretsRepo {
  const getOne = db.prepare<[string], { sealed: Buffer; sealed_by: string }>('SELECT sealed, sealed_by FROM secrets WHERE name = ?');
  const upsert = db.prepare(
    `INSERT INTO secrets (name, sealed, sealed_by, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(name) DO UPDATE SET sealed = excluded.sealed, sealed_by = excluded.sealed_by, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM secrets WHERE name = ?');
  const kinds = db.prepare<[], { sealed_by: string }>('SELECT DISTINCT sealed_by FROM secrets');
  return {
    get(name) {
      const row = getOne.get(name);
      return row ? { sealed: row.sealed, sealedBy: row.sealed_by } : undefined;
    },
    put: (name, secret) => void upsert.run(name, secret.sealed, secret.sealedBy, isoAt(clock)),
    delete: (name) => remove.run(name).changes > 0,
    sealedBy: () => kinds.all().map((r) => r.sealed_by),
    checkpoint: () => void db.pragma('wal_checkpoint(TRUNCATE)'),
  };
}
