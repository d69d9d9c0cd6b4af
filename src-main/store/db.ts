/**
 * The connection type every repository takes. Its own file so that database.ts (which opens and migrates) and
 * migrate.ts (which database.ts calls) do not import each other.
 */
import type Database from 'better-sqlite3';

export type Db = Database.Database;
