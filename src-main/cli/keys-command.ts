/**
 * `voxdesk keys create|list|revoke` on the data dir's database (the service may be running: SQLite in WAL mode lets
 * both write), or on a cluster's PostgreSQL database with `--database URL` / $VOXDESK_DATABASE_URL. `create` prints one new API key, and nothing else, on stdout. `list` never prints a key (only ids,
 * accounts, names and times). `revoke` takes effect at the running service's next request with that key; its open
 * live sessions end within a few seconds (the live server re-checks keys, live-options.ts keyRecheckMs).
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { ApiKeys } from '../service/auth/api-keys.js';
import { defaultDataDir, LOCAL_ACCOUNT } from '../service/config.js';
import { apiKeyView } from '../service/routes/keys-routes.js';
import { chooseDatabaseUrl, openStore } from '../service/open-store.js';
import { ensurePrivateDir } from '../store/private-files.js';

const DATA_DIR_HELP = 'data dir of the service (default $VOXDESK_DATA_DIR or the OS app-data dir)';
const DATABASE_HELP = 'a cluster\'s PostgreSQL database, postgres://… (default $VOXDESK_DATABASE_URL, else the data dir\'s file)';

interface StoreOptions {
  dataDir?: string;
  database?: string;
}

async function withKeys<T>(opts: StoreOptions, action: (keys: ApiKeys) => Promise<T>): Promise<T> {
  const databaseUrl = chooseDatabaseUrl(opts.database);
  const dataDir = resolve(opts.dataDir ?? defaultDataDir());
  ensurePrivateDir(dataDir);
  const opened = await openStore({ dataDir, databaseUrl, poolSize: 2 });
  try {
    return await action(new ApiKeys(opened.store.repos.accounts));
  } finally {
    await opened.close();
  }
}

/** A plain table: columns padded to their widest cell. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create an API key (printed once; only its hash is stored)')
    .option('--account <name>', 'account the key belongs to', LOCAL_ACCOUNT)
    .option('--name <name>', 'what the key is for, shown by keys list')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: { account: string; name?: string } & StoreOptions) => {
      if (!opts.account.trim()) throw new Error('--account must not be empty');
      const key = await withKeys(opts, (k) => k.createKey(opts.account.trim(), opts.name?.trim() || null));
      process.stdout.write(`${key}\n`);
    });

  keys
    .command('list')
    .description('list the keys: id, account, name, created, last used, revoked (never the keys themselves)')
    .option('--json', 'print JSON (the shape of GET /v1/keys)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: { json?: boolean } & StoreOptions) => {
      const views = await withKeys(opts, async (k) => (await k.list()).map(apiKeyView));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ object: 'list', data: views }, null, 2)}\n`);
        return;
      }
      if (views.length === 0) {
        process.stdout.write('no keys (voxdesk keys create makes one)\n');
        return;
      }
      const rows = [['ID', 'ACCOUNT', 'NAME', 'CREATED', 'LAST USED', 'REVOKED']];
      for (const v of views) rows.push([v.id, v.account, v.name ?? '-', v.created_at, v.last_used_at ?? 'never', v.revoked_at ?? '-']);
      process.stdout.write(`${table(rows)}\n`);
    });

  keys
    .command('revoke')
    .description('revoke a key: refused from its next request on; its open live sessions end')
    .argument('<id>', 'the key id (keys list shows it)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (id: string, opts: StoreOptions) => {
      const message = await withKeys(opts, async (k) => {
        const info = await k.get(id);
        if (!info) throw new Error(`no API key ${id} (voxdesk keys list shows the ids)`);
        if (!(await k.revoke(id))) return `${id} was already revoked at ${info.revoked_at}`;
        return `${id} revoked (account ${info.account}${info.name ? `, ${info.name}` : ''})`;
      });
      process.stdout.write(`${message}\n`);
    });
}
