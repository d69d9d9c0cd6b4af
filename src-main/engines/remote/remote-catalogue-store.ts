/** SQL of the cached hosted catalogue (migration 003): replaced as a whole on each successful fetch. */
import type { CatalogueRecord } from '../../common/api-types.js';
import type { Db } from '../../store/database.js';

export interface CachedCatalogue {
  endpointUrl: string;
  fetchedAt: string | null;
  records: CatalogueRecord[];
}

export class RemoteCatalogueStore {
  private readonly selectRows;
  private readonly deleteAll;
  private readonly insertRow;

  constructor(private readonly db: Db) {
    this.selectRows = db.prepare<[string], { record_json: string; fetched_at: string }>(
      'SELECT record_json, fetched_at FROM remote_catalogue WHERE endpoint_url = ? ORDER BY model_id',
    );
    this.deleteAll = db.prepare('DELETE FROM remote_catalogue');
    this.insertRow = db.prepare<[string, string, string, string]>(
      'INSERT INTO remote_catalogue (endpoint_url, model_id, record_json, fetched_at) VALUES (?, ?, ?, ?)',
    );
  }

  read(endpointUrl: string): CachedCatalogue {
    const rows = this.selectRows.all(endpointUrl);
    return {
      endpointUrl,
      fetchedAt: rows[0]?.fetched_at ?? null,
      records: rows.map((r) => JSON.parse(r.record_json) as CatalogueRecord),
    };
  }

  /** Replaces the cache (rows of any other endpoint are dropped: only the configured one matters). */
  replace(endpointUrl: string, records: readonly CatalogueRecord[], fetchedAt: string): void {
    this.db.transaction(() => {
      this.deleteAll.run();
      for (const record of records) this.insertRow.run(endpointUrl, record.id, JSON.stringify(record), fetchedAt);
    }).immediate();
  }
}
