/**
 * Sealed secrets on PostgreSQL, with the semantics of store/secrets-repo.ts (ciphertext in `bytea`, an upsert on the
 * name). `checkpoint()` does nothing here: on SQLite it moves the node's own WAL file into the database so page images
 * of a value sealed since leave the disk; a PostgreSQL server's WAL and its retention belong to the server's operator
 * (and `CHECKPOINT` needs a privileged role), and no copy of a secret is written on the node.
 */
import { isoAt } from '../clock.js';
import type { SecretsRepo } from '../secrets-repo.js';
import type { Async } from '../store.js';
import type { PgShared } from './shared.js';
import type { Sql } from './sql.js';

const GET = 'SELECT sealed, sealed_by FROM secrets WHERE name = $1';
const UPSERT = `INSERT INTO secrets (name, sealed, sealed_by, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed, sealed_by = excluded.sealed_by, updated_at = excluded.updated_at`;
const DELETE = 'DELETE FROM secrets WHERE name = $1';
const KINDS = 'SELECT DISTINCT sealed_by FROM secrets';

export function createPgSecretsRepo(sql: Sql, shared: PgShared): Async<SecretsRepo> {
  return {
    async get(name) {
      const row = await sql.one<{ sealed: Buffer; sealed_by: string }>(GET, [name]);
      return row ? { sealed: row.sealed, sealedBy: row.sealed_by } : undefined;
    },
    put: async (name, secret) => void (await sql.run(UPSERT, [name, secret.sealed, secret.sealedBy, isoAt(shared.clock)])),
    delete: async (name) => (await sql.run(DELETE, [name])) > 0,
    sealedBy: async () => (await sql.all<{ sealed_by: string }>(KINDS)).map((r) => r.sealed_by),
    checkpoint: async () => {},
  };
}
