/** A numbered, append-only schema change. Applied once, in its own transaction, and recorded. */
export interface Migration {
  version: number;
  name: string;
  /** SQL run inside the migration's transaction (SQLite). */
  up: string;
  /**
   * The same change for PostgreSQL (store/postgres/migrate.ts), run inside its own transaction there. Migrations up to
   * the PostgreSQL baseline (postgres-baseline.ts) have none: the baseline creates their schema at once. Every
   * migration after the baseline carries both (a unit test holds every migration to it).
   */
  postgres?: string;
}
