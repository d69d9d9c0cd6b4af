/**
 * One read of other connections' commits per request (store/others-commits.ts): inside `within` every read shares the
 * first, outside it every read asks SQLite, and the key cache and the job view cache built by createRepositories
 * share it.
 */
import { describe, expect, it } from 'vitest';
import { createOthersCommits } from '../../../src-main/store/others-commits.js';
import { createRepositories } from '../../../src-main/store/repositories.js';
import { useTwoConnections } from '../../helpers/two-connections.js';

const connections = useTwoConnections('CREATE TABLE IF NOT EXISTS t (a INTEGER)');

describe('others commits', () => {
  it('outside `within`, sees another connection commit at once', () => {
    const others = createOthersCommits(connections.db);
    const before = others.read();
    connections.other.prepare('INSERT INTO t VALUES (1)').run();
    expect(others.read()).not.toBe(before);
  });

  it('inside `within`, every read shares the first (nested runs too); the next run sees the commit', () => {
    const others = createOthersCommits(connections.db);
    const [first, during, nested] = others.within(() => {
      const a = others.read();
      connections.other.prepare('INSERT INTO t VALUES (1)').run();
      return [a, others.read(), others.within(() => others.read())];
    });
    expect(during).toBe(first);
    expect(nested).toBe(first);
    expect(others.within(() => others.read())).not.toBe(first);
    expect(others.read()).not.toBe(first);
  });

  it('forgets the shared read when the run throws', () => {
    const others = createOthersCommits(connections.db);
    let seen = -1;
    expect(() =>
      others.within(() => {
        seen = others.read();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    connections.other.prepare('INSERT INTO t VALUES (1)').run();
    expect(others.read()).not.toBe(seen);
  });

  it('is shared by the key cache and the job view stamp: a revoke by another connection is seen by the next request', () => {
    const repos = createRepositories(connections.db);
    const account = repos.accounts.createAccount('someone');
    const { key, id } = repos.accounts.createApiKey(account.id);
    const stamp = repos.othersCommits.within(() => {
      expect(repos.accounts.findKey(key)?.keyId).toBe(id);
      return repos.changes.take();
    });
    connections.other.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    repos.othersCommits.within(() => {
      expect(repos.accounts.findKey(key)).toBeUndefined();
      expect(repos.changes.unchanged(stamp)).toBe(false);
    });
  });
});
