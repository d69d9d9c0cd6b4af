/** Key/value settings with JSON values. */
import type { Db } from './db.js';
import { isoAt, systemClock, type Clock } from './clock.js';

export interface SettingsRepo {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): boolean;
  all(): Record<string, unknown>;
}

export function createSettingsRepo(db: Db, clock: Clock = systemClock): SettingsRepo {
  const getOne = db.prepare<[string], { value_json: string }>('SELECT value_json FROM settings WHERE key = ?');
  const upsert = db.prepare(
    `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM settings WHERE key = ?');
  const list = db.prepare<[], { key: string; value_json: string }>('SELECT key, value_json FROM settings ORDER BY key');
  return {
    get<T>(key: string): T | undefined {
      const row = getOne.get(key);
      return row ? (JSON.parse(row.value_json) as T) : undefined;
    },
    set(key, value) {
      if (value === undefined) throw new Error(`setting ${key}: undefined is not a JSON value`);
      upsert.run(key, JSON.stringify(value), isoAt(clock));
    },
    delete: (key) => remove.run(key).changes > 0,
    all: () => Object.fromEntries(list.all().map((r) => [r.key, JSON.parse(r.value_json) as unknown])),
  };
}
