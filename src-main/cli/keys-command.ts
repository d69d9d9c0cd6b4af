/** `voxdesk keys create [--account NAME] [--data-dir DIR]`: prints one new API key, and nothing else, on stdout. */
import type { Command } from 'commander';
import { join } from 'node:path';
import { ApiKeys } from '../service/auth/api-keys.js';
import { defaultDataDir, LOCAL_ACCOUNT } from '../service/config.js';
import { createAccountsRepo } from '../store/accounts-repo.js';
import { openDatabase } from '../store/database.js';

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create an API key (printed once; only its hash is stored)')
    .option('--account <name>', 'account the key belongs to', LOCAL_ACCOUNT)
    .option('--data-dir <dir>', 'data dir of the service (default $VOXDESK_DATA_DIR or the OS app-data dir)')
    .action((opts: { account: string; dataDir?: string }) => {
      if (!opts.account.trim()) throw new Error('--account must not be empty');
      const db = openDatabase(join(opts.dataDir ?? defaultDataDir(), 'voxdesk.db'));
      try {
        process.stdout.write(`${new ApiKeys(createAccountsRepo(db)).createKey(opts.account.trim())}\n`);
      } finally {
        db.close();
      }
    });
}
