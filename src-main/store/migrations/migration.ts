/** A numbered, append-only schema change. Applied once, in its own transaction, and recorded. */
export interface Migration {
  version: number;
  name: string;
  /** SQL run inside the migration's transaction. */
  up: string;
}
