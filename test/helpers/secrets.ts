/**
 * The store and sealed secrets a RemoteProvider needs over one SQLite file, sealing with the data dir's key file (what
 * a headless machine without a keyring uses).
 */
import type { Db } from '../../src-main/store/db.js';
import { keyFileCipher } from '../../src-main/store/secrets/key-file-cipher.js';
import { SecretSealer } from '../../src-main/store/secrets/secret-sealer.js';
import { SharedSecrets } from '../../src-main/store/secrets/shared-secrets.js';
import { createSqliteStore } from '../../src-main/store/sqlite-store.js';
import type { StoreRepos } from '../../src-main/store/store.js';

/** The asynchronous repositories of the file `db` (the shared store of one machine) and its key-file secrets. */
export function withSecrets(dataDir: string, db: Db): { repos: StoreRepos; secrets: SharedSecrets } {
  const { repos } = createSqliteStore(db, db.name);
  return { repos, secrets: new SharedSecrets(repos.secrets, new SecretSealer({ primary: keyFileCipher(dataDir, { create: true }) })) };
}
