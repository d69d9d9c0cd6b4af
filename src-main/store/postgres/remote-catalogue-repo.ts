/**
 * The cached hosted catalogue on PostgreSQL, with the semantics of store/remote-catalogue-repo.ts: `replace` deletes
 * every row and inserts the new ones in one transaction (the caller's, or its own), so a reader on any node sees the
 * old catalogue or the new one, never a mix. Two nodes replacing at once take turns: each first takes a
 * transaction-scoped advisory lock, so the second's DELETE starts after the first committed and removes its rows
 * (without it, the second DELETE would not see the first's new rows and its inserts would collide with them).
 */
import type { CatalogueRecord } from '../../common/api-types.js';
import type { RemoteCatalogueRepo } from '../remote-catalogue-repo.js';
import type { Async } from '../store.js';
import { LOCK_SPACE } from './shared.js';
import type { Sql } from './sql.js';

const SELECT_ROWS = 'SELECT record_json, fetched_at FROM remote_catalogue WHERE endpoint_url = $1 ORDER BY model_id';
const LOCK = `SELECT pg_advisory_xact_lock(${LOCK_SPACE.remoteCatalogue}, 0)`;
const DELETE_ALL = 'DELETE FROM remote_catalogue';
const INSERT_ROWS = `INSERT INTO remote_catalogue (endpoint_url, model_id, record_json, fetched_at)
  SELECT $1, m, r, $4 FROM unnest($2::text[], $3::text[]) AS u(m, r)`;

export function createPgRemoteCatalogueRepo(sql: Sql): Async<RemoteCatalogueRepo> {
  return {
    async read(endpointUrl) {
      const rows = await sql.all<{ record_json: string; fetched_at: string }>(SELECT_ROWS, [endpointUrl]);
      return {
        endpointUrl,
        fetchedAt: rows[0]?.fetched_at ?? null,
        records: rows.map((r) => JSON.parse(r.record_json) as CatalogueRecord),
      };
    },
    replace: (endpointUrl, records, fetchedAt) =>
      sql.atomic(async (t) => {
        await t.one(LOCK);
        await t.run(DELETE_ALL);
        if (records.length > 0) {
          await t.run(INSERT_ROWS, [endpointUrl, records.map((r) => r.id), records.map((r) => JSON.stringify(r)), fetchedAt]);
        }
      }),
  };
}
