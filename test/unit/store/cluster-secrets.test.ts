/**
 * A cluster's sealing key (VOXDESK_SECRETS_KEY) and the shared store's secrets: the key's accepted shapes, values
 * sealed on one node opening on another given the same key (and not with another key, or none), and a node without
 * it refusing to seal with the message that says what to set — over a real SQLite file's asynchronous store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { clusterKeyCipher, clusterSealer, NO_CLUSTER_KEY } from '../../../src-main/store/secrets/cluster-key-cipher.js';
import { SecretUnavailableError } from '../../../src-main/store/secrets/secret-cipher.js';
import { SharedSecrets } from '../../../src-main/store/secrets/shared-secrets.js';
import { createSqliteStore } from '../../../src-main/store/sqlite-store.js';
import type { StoreRepos } from '../../../src-main/store/store.js';

const KEY = Buffer.alloc(32, 9);
const VALUE = 'vdk_hosted_key_of_the_cluster_0123';

let dir: string;
let db: Db;
let repos: StoreRepos;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-cluster-secrets-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
  repos = createSqliteStore(db, join(dir, 'voxdesk.db')).repos;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the cluster sealing key', () => {
  it('is 32 bytes in base64, base64url or hex; anything else is refused with what is expected', () => {
    for (const given of [KEY.toString('base64'), KEY.toString('base64url'), KEY.toString('hex'), ` ${KEY.toString('base64')}\n`]) {
      expect(clusterKeyCipher(given).kind).toBe('cluster-key');
    }
    for (const given of ['short', Buffer.alloc(16).toString('base64'), Buffer.alloc(33).toString('hex'), 'not base64 at all!']) {
      expect(() => clusterKeyCipher(given)).toThrow(/VOXDESK_SECRETS_KEY must be 32 random bytes in base64 or hex \(e\.g\. openssl rand -base64 32\)/);
    }
  });

  it('seals on one node what another node opens with the same key, never with another key or none', async () => {
    await new SharedSecrets(repos.secrets, clusterSealer(KEY.toString('base64'))).set('remote.key', VALUE);
    expect((await repos.secrets.get('remote.key'))!.sealed.includes(Buffer.from(VALUE))).toBe(false);
    expect(await new SharedSecrets(repos.secrets, clusterSealer(KEY.toString('hex'))).get('remote.key')).toBe(VALUE);
    await expect(new SharedSecrets(repos.secrets, clusterSealer(Buffer.alloc(32, 1).toString('base64'))).get('remote.key')).rejects.toThrow(SecretUnavailableError);
    const keyless = new SharedSecrets(repos.secrets, clusterSealer(null));
    await expect(keyless.get('remote.key')).rejects.toThrow(/VOXDESK_SECRETS_KEY is not set on this node/);
    expect(await keyless.has('remote.key')).toBe(true);
  });

  it('without it a node seals nothing and says what to set; clearing a value still works', async () => {
    const keyless = new SharedSecrets(repos.secrets, clusterSealer(''));
    expect(keyless.refusal).toBe(NO_CLUSTER_KEY);
    await expect(keyless.set('remote.key', VALUE)).rejects.toThrow(/openssl rand -base64 32/);
    expect(await repos.secrets.get('remote.key')).toBeUndefined();
    await new SharedSecrets(repos.secrets, clusterSealer(KEY.toString('base64'))).set('remote.key', VALUE);
    await keyless.set('remote.key', null);
    expect(await repos.secrets.get('remote.key')).toBeUndefined();
  });
});
