/**
 * Every migration after the PostgreSQL baseline carries SQL for both backends (migration.ts): a migration written for
 * SQLite only would leave every PostgreSQL database behind, and a node would refuse to start on it.
 */
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src-main/store/migrations/index.js';
import { POSTGRES_BASELINE, POSTGRES_BASELINE_VERSION } from '../../../src-main/store/migrations/postgres-baseline.js';

describe('migrations for both dialects', () => {
  it('the baseline stands for migrations that exist, and every later migration has PostgreSQL SQL', () => {
    expect(MIGRATIONS.some((m) => m.version === POSTGRES_BASELINE_VERSION)).toBe(true);
    const later = MIGRATIONS.filter((m) => m.version > POSTGRES_BASELINE_VERSION);
    for (const migration of later) {
      expect(migration.postgres?.trim(), `migration ${migration.version} (${migration.name}) needs its postgres SQL`).toBeTruthy();
    }
  });

  it('migrations up to the baseline need none of their own (the baseline makes their schema)', () => {
    const covered = MIGRATIONS.filter((m) => m.version <= POSTGRES_BASELINE_VERSION);
    expect(covered.length).toBeGreaterThan(0);
    for (const migration of covered) expect(migration.postgres).toBeUndefined();
    expect(POSTGRES_BASELINE).toMatch(/CREATE TABLE jobs/);
  });
});
