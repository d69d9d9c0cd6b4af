/**
 * `voxdesk db migrate|status --database URL` for a cluster's operator. Nodes migrate by themselves when they start
 * (under an advisory lock, so many at once are safe); running `db migrate` first, during an upgrade, makes the schema
 * change happen once and visibly before new nodes start (docs/cluster.md, Upgrades).
 *
 * Exit codes: 0 done (or nothing to do); 1 the database cannot be used (the message says why and where to fix the
 * URL); 2 the database's schema is newer than this Voxdesk (upgrade this installation instead); `status` exits 3
 * when migrations are pending.
 */
import type { Command } from 'commander';
import { chooseDatabaseUrl } from '../service/open-store.js';
import { migratePostgresDatabase, NewerSchemaError, postgresSchemaState } from '../store/postgres/migrate.js';
import { tell } from './output.js';

export const EXIT_NEWER_SCHEMA = 2;
export const EXIT_PENDING = 3;

function requireUrl(option: string | undefined): string {
  const url = chooseDatabaseUrl(option);
  if (!url) throw new Error('no database given: pass --database postgres://USER:PASSWORD@HOST:PORT/DB or set VOXDESK_DATABASE_URL');
  return url;
}

async function exitingOnNewer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NewerSchemaError) {
      tell(`voxdesk: ${error.message}; upgrade this installation to at least the one that wrote it`);
      process.exit(EXIT_NEWER_SCHEMA);
    }
    throw error;
  }
}

export function registerDbCommand(program: Command): void {
  const db = program.command('db').description("a cluster's PostgreSQL database");
  db.command('migrate')
    .description('apply the schema changes this Voxdesk needs (safe while nodes run; nodes also do it when they start)')
    .option('--database <url>', 'postgres://USER:PASSWORD@HOST:PORT/DB (default $VOXDESK_DATABASE_URL)')
    .action(async (opts: { database?: string }) => {
      const url = requireUrl(opts.database);
      const applied = await exitingOnNewer(() => migratePostgresDatabase(url));
      const state = await postgresSchemaState(url);
      const version = Math.max(0, ...state.applied);
      process.stdout.write(
        applied.length === 0 ? `schema is current (version ${version}); nothing to apply\n` : `applied ${applied.length} migration(s) (${applied.join(', ')}); schema version ${version}\n`,
      );
    });
  db.command('status')
    .description('show the schema version the database holds and the one this Voxdesk knows (changes nothing)')
    .option('--database <url>', 'postgres://USER:PASSWORD@HOST:PORT/DB (default $VOXDESK_DATABASE_URL)')
    .action(async (opts: { database?: string }) => {
      const url = requireUrl(opts.database);
      const state = await postgresSchemaState(url);
      const newest = Math.max(0, ...state.applied);
      if (newest > state.known) {
        tell(`voxdesk: ${new NewerSchemaError(newest, state.known).message}`);
        process.exit(EXIT_NEWER_SCHEMA);
      }
      const pending = state.known - newest;
      process.stdout.write(`database schema ${newest}, this Voxdesk knows ${state.known}${pending > 0 ? ' (voxdesk db migrate applies the rest)' : ''}\n`);
      if (state.applied.length === 0 || newest < state.known) process.exit(EXIT_PENDING);
    });
}
