/** The cached hosted catalogue (migration 003): replaced as a whole on each successful fetch. */
import type { CatalogueRecord } from '../common/api-types.js';
import type { Db } from './db.js';

export interface CachedCatalogue {
  endpointUrl: string;
  fetchedAt: string | null;
  records: CatalogueRecord[];
}

export interface RemoteCatalogueRepo {
  read(endpointUrl: string): CachedCatalogue;
  /** Replaces the cache (rows of any other endpoint are dropped: only the configured one matters). */
  replace(endpointUrl: string, records: readonly CatalogueRecord[], fetchedAt: string): void;
}

export function createRemoteCatalogueRepo(db: Db): RemoteCatalogueRepo {
  const selectRows = db.prepare<[string], { record_json: string; fetched_at: string }>(
    'SELECT record_json, fetched_at FROM remote_catalogue WHERE endpoint_url = ? ORDER BY model_id',
  );
  const deleteAll = db.prepare('DELETE FROM remote_catalogue');
  const insertRow = db.prepare<[string, string, string, string]>(
    'INSERT INTO remote_catalogue (endpoint_url, model_id, record_json, fetched_at) VALUES (?, ?, ?, ?)',
  );
  const replace = db.transaction((endpointUrl: string, records: readonly CatalogueRecord[], fetchedAt: string) => {
    deleteAll.run();
    for (const record of records) insertRow.run(endpointUrl, record.id, JSON.stringify(record), fetchedAt);
  });
  return {
    read: (endpointUrl) => {
      const rows = selectRows.all(endpointUrl);
      return {
        endpointUrl,
        fetchedAt: rows[0]?.fetched_at ?? null,
        records: rows.map((r) => JSON.parse(r.record_json) as CatalogueRecord),
      };
    },
    replace: (endpointUrl, records, fetchedAt) => replace.immediate(endpointUrl, records, fetchedAt),
  };
}
