import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createRepositories, type Repositories } from '../../../src-main/store/repositories.js';
import { hashKey, KEY_PATTERN } from '../../../src-main/store/accounts-repo.js';
import { newId, newToken } from '../../../src-main/store/ids.js';
import { findArtifact } from '../../../src-main/store/artifacts-repo.js';
import { ledgerFor } from '../../../src-main/store/ledger-repo.js';

let dir: string;
let db: Db;
let repos: Repositories;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-repos-'));
  db = openDatabase(join(dir, 'v.db'));
  repos = createRepositories(db, () => new Date('2026-05-01T12:00:00.000Z'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ids', () => {
  it('are prefixed, time-sortable and unique', () => {
    const ids = Array.from({ length: 1000 }, () => newId('job'));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
    expect(newId('bat', 1)).toMatch(/^bat_0000000001[0-9A-Za-z]{14}$/);
    expect(newId('job', Date.parse('2030-01-01')) > newId('job', Date.parse('2029-12-31'))).toBe(true);
    expect(newToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('accounts and keys', () => {
  it('creates a key shown once, stores only its sha256, and finds the account by key', () => {
    const account = repos.accounts.createAccount('alice');
    expect(account.id).toMatch(/^acc_/);
    expect(account.created_at).toBe('2026-05-01T12:00:00.000Z');
    const created = repos.accounts.createApiKey(account.id);
    expect(created.key).toMatch(KEY_PATTERN);
    const stored = db.prepare('SELECT key_hash, prefix FROM api_keys').get() as { key_hash: string; prefix: string };
    expect(stored.key_hash).toBe(hashKey(created.key));
    expect(JSON.stringify(db.prepare('SELECT * FROM api_keys').all())).not.toContain(created.key);
    expect(repos.accounts.findAccountByKey(created.key)).toEqual(account);
    expect(repos.accounts.findAccountByKey('vdk_wrong')).toBeUndefined();
    expect(repos.accounts.findAccountByKey('')).toBeUndefined();
    expect(repos.accounts.revokeApiKey(created.id)).toBe(true);
    expect(repos.accounts.findAccountByKey(created.key)).toBeUndefined();
  });

  it('ensureAccount is idempotent; registerApiKey accepts a chosen key once per account', () => {
    const a = repos.accounts.ensureAccount('local');
    expect(repos.accounts.ensureAccount('local')).toEqual(a);
    repos.accounts.registerApiKey(a.id, 'test-key-0123456789abcdefgh');
    repos.accounts.registerApiKey(a.id, 'test-key-0123456789abcdefgh');
    expect(repos.accounts.listApiKeys(a.id)).toHaveLength(1);
    const b = repos.accounts.createAccount('bob');
    expect(() => repos.accounts.registerApiKey(b.id, 'test-key-0123456789abcdefgh')).toThrow(/another account/);
    expect(() => repos.accounts.registerApiKey(b.id, 'short')).toThrow(/at least 24/);
    expect(() => repos.accounts.createAccount('  ')).toThrow(/non-empty/);
    expect(() => repos.accounts.createApiKey('acc_missing')).toThrow(/unknown account/);
  });

  it('a chosen key is listed by a fingerprint, never by its own characters (trust review 2, item 12)', () => {
    const a = repos.accounts.ensureAccount('local');
    const chosen = 'hunter2-my-secret-operator-key';
    repos.accounts.registerApiKey(a.id, chosen);
    const [listed] = repos.accounts.listApiKeys(a.id);
    expect(listed!.prefix).toBe(`fp:${hashKey(chosen).slice(0, 8)}`);
    const raw = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    for (let n = 4; n <= chosen.length; n += 1) expect(raw).not.toContain(chosen.slice(0, n));
    const generated = repos.accounts.createApiKey(a.id);
    expect(repos.accounts.getApiKey(generated.id)!.prefix).toBe(generated.key.slice(0, 8));
  });
});

describe('settings', () => {
  it('stores JSON values', () => {
    repos.settings.set('workers', 3);
    repos.settings.set('remote', { url: 'https://example.test', enabled: false });
    expect(repos.settings.get<number>('workers')).toBe(3);
    expect(repos.settings.get('remote')).toEqual({ url: 'https://example.test', enabled: false });
    expect(repos.settings.get('missing')).toBeUndefined();
    expect(repos.settings.all()).toEqual({ remote: { url: 'https://example.test', enabled: false }, workers: 3 });
    expect(repos.settings.delete('workers')).toBe(true);
    expect(() => repos.settings.set('x', undefined)).toThrow(/not a JSON value/);
  });
});

describe('artifacts, idempotency and ledger', () => {
  it('finds artifacts by token and tells when they expired', () => {
    const account = repos.accounts.createAccount('c');
    const jobId = newId('job');
    db.prepare(`INSERT INTO jobs (id, account_id, product, model_id, status, params_json, input_json, created_at, updated_at)
      VALUES (?, ?, 'text-to-speech', 'm', 'succeeded', '{}', '{}', '2026-05-01T12:00:00.000Z', '2026-05-01T12:00:00.000Z')`).run(jobId, account.id);
    const token = newToken();
    repos.artifacts.insert({
      id: newId('art'), job_id: jobId, token, file_name: 'speech.wav', path: '/tmp/x.wav', content_type: 'audio/wav', bytes: 44,
      duration_seconds: '1.000', sample_rate: 22050, channels: 1, created_at: '2026-05-01T12:00:00.000Z',
      expires_at: '2026-05-02T12:00:00.000Z', deleted_at: null,
    });
    expect(findArtifact(db, token, new Date('2026-05-02T11:59:59.999Z'))).toEqual({ path: '/tmp/x.wav', contentType: 'audio/wav', fileName: 'speech.wav', bytes: 44, expired: false });
    expect(findArtifact(db, token, new Date('2026-05-02T12:00:00.000Z'))?.expired).toBe(true);
    expect(findArtifact(db, 'unknown')).toBeUndefined();
    expect(repos.artifacts.expired('2026-05-03T00:00:00.000Z')).toHaveLength(1);

    const charge = { account_id: account.id, job_id: jobId, batch_id: null, model_id: 'm', product: 'speech-to-text', provider: 'local' as const, kind: 'usage' as const, option_name: '', seconds: 60, amount_usd_micro: 6000, created_at: 'now' };
    expect(repos.ledger.charge(charge)).toBe(true);
    expect(repos.ledger.charge(charge)).toBe(false);
    expect(ledgerFor(db, account.id)).toHaveLength(1);

    repos.idempotency.insert({ account_id: account.id, key: 'k', request_hash: 'h', resource_type: 'job', resource_id: jobId, created_at: 'a', expires_at: '2026-05-02T12:00:00.000Z' });
    expect(repos.idempotency.find(account.id, 'k', '2026-05-02T00:00:00.000Z')?.resource_id).toBe(jobId);
    expect(repos.idempotency.find(account.id, 'k', '2026-05-02T12:00:00.000Z')).toBeUndefined();
  });
});
