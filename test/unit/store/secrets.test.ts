/**
 * Secrets at rest: the AES-256-GCM format (bound to the secret's name, tamper-evident), the 0600 key file, the
 * SecretStore over a real SQLite file (the file never holds the value; a value sealed by another cipher at hand moves
 * to the primary one; one sealed by a cipher not at hand is a clear error), the cipher choice, and the rule that a
 * new hosted URL does not inherit the old URL's key.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeStorageCipher, type SafeStorageLike } from '../../../src-main/app/safe-storage-cipher.js';
import { keyAfterChange } from '../../../src-main/remote/remote-provider.js';
import { openDatabase, type Db } from '../../../src-main/store/database.js';
import { createRepositories, type Repositories } from '../../../src-main/store/repositories.js';
import { aesGcmCipher } from '../../../src-main/store/secrets/aes-gcm-cipher.js';
import { KEY_FILE_NAME, keyFileCipher } from '../../../src-main/store/secrets/key-file-cipher.js';
import { openSecretStore } from '../../../src-main/store/secrets/open-secret-store.js';
import { SecretUnavailableError } from '../../../src-main/store/secrets/secret-cipher.js';
import { SecretStore } from '../../../src-main/store/secrets/secret-store.js';
import { logInto } from '../../helpers/log.js';

const VALUE = 'vdk_hosted_secret_value_0123456789';

let dir: string;
let db: Db;
let repos: Repositories;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-secrets-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
  repos = createRepositories(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function databaseBytes(): Buffer {
  return Buffer.concat(['', '-wal', '-shm'].map((s) => join(dir, `voxdesk.db${s}`)).filter(existsSync).map((f) => readFileSync(f)));
}

/** A reversible stand-in for Electron's safeStorage (the real one needs the Electron binary). */
function fakeSafeStorage(backend = 'gnome_libsecret', available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (plain) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
    decryptString: (sealed) => Buffer.from(sealed.map((b) => b ^ 0x5a)).toString('utf8'),
  };
}

describe('AES-256-GCM', () => {
  it('opens what it sealed, only under the same name, and refuses altered bytes', () => {
    const cipher = aesGcmCipher('test', Buffer.alloc(32, 7));
    const sealed = cipher.seal('remote.key', VALUE);
    expect(sealed.includes(Buffer.from(VALUE))).toBe(false);
    expect(cipher.open('remote.key', sealed)).toBe(VALUE);
    expect(() => cipher.open('other.key', sealed)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => cipher.open('remote.key', altered)).toThrow();
    expect(cipher.seal('remote.key', VALUE).equals(sealed)).toBe(false); // a fresh nonce each time
  });
});

describe('the key file', () => {
  it('is created once, 0600, with 32 random bytes; a looser one is tightened; a damaged one is a clear error', () => {
    expect(keyFileCipher(dir, { create: false })).toBeNull();
    const first = keyFileCipher(dir, { create: true })!;
    const path = join(dir, KEY_FILE_NAME);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(path).size).toBe(32);
    const sealed = first.seal('remote.key', VALUE);
    chmodSync(path, 0o644);
    expect(keyFileCipher(dir, { create: true })!.open('remote.key', sealed)).toBe(VALUE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, 'short');
    expect(() => keyFileCipher(dir, { create: false })).toThrow(/damaged/);
  });
});

describe('SecretStore', () => {
  it('keeps only ciphertext in the database files', () => {
    const store = new SecretStore(repos.secrets, { primary: keyFileCipher(dir, { create: true })! });
    store.set('remote.key', VALUE);
    expect(store.get('remote.key')).toBe(VALUE);
    expect(new SecretStore(repos.secrets, { primary: keyFileCipher(dir, { create: false })! }).get('remote.key')).toBe(VALUE);
    expect(databaseBytes().includes(Buffer.from(VALUE))).toBe(false);
    store.set('remote.key', null);
    expect(store.get('remote.key')).toBeNull();
  });

  it('moves a value sealed by another cipher at hand to the primary one', () => {
    const keyFile = keyFileCipher(dir, { create: true })!;
    new SecretStore(repos.secrets, { primary: keyFile }).set('remote.key', VALUE);
    const app = safeStorageCipher(fakeSafeStorage(), 'linux')!;
    const store = new SecretStore(repos.secrets, { primary: app, openers: [keyFile] });
    expect(store.get('remote.key')).toBe(VALUE);
    expect(repos.secrets.get('remote.key')!.sealedBy).toBe('electron-safe-storage');
  });

  it('says why a value sealed by a cipher not at hand cannot be read', async () => {
    new SecretStore(repos.secrets, { primary: safeStorageCipher(fakeSafeStorage(), 'darwin')! }).set('remote.key', VALUE);
    const headless = await openSecretStore({ dataDir: dir, repo: repos.secrets, mode: 'key-file' });
    expect(() => headless.get('remote.key')).toThrow(SecretUnavailableError);
    expect(() => headless.get('remote.key')).toThrow(/stored by the desktop app.*set it again/);
  });
});

describe('choosing the cipher', () => {
  it('auto falls back to the key file where no keyring answers; keyring mode then refuses to start', async () => {
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(dir, 'no-bus')}`;
    try {
      const store = await openSecretStore({ dataDir: dir, repo: repos.secrets, mode: 'auto', keyringTimeoutMs: 2000 });
      expect(store.kind).toBe('key-file');
      await expect(openSecretStore({ dataDir: dir, repo: repos.secrets, mode: 'keyring', keyringTimeoutMs: 2000 })).rejects.toThrow(/VOXDESK_SECRET_STORE=keyring, but the OS keyring cannot be used/);
    } finally {
      if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    }
  });

  it('says that it falls back to the key file once, when the first secret is sealed, not at every start', async () => {
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(dir, 'no-bus')}`;
    try {
      const lines: string[] = [];
      const open = () => openSecretStore({ dataDir: dir, repo: repos.secrets, mode: 'auto', keyringTimeoutMs: 2000, log: logInto(lines) });
      // A command that stores nothing (voxdesk speak, keys list, …) says nothing.
      await open();
      expect(lines).toEqual([]);
      const store = await open();
      store.set('remote.key', VALUE);
      store.set('remote.other', VALUE);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^secrets: no OS keyring \(the OS keyring cannot be used: .+\); sealing with the key file in the data dir$/);
      // Later runs, with the key file already in use: quiet, also when they store more.
      const later = await open();
      expect(later.get('remote.key')).toBe(VALUE);
      later.set('remote.key', 'another value');
      expect(lines).toHaveLength(1);
      // key-file chosen on purpose: nothing to say.
      const otherDb = openDatabase(join(dir, 'kf.db'));
      try {
        const chosen = await openSecretStore({ dataDir: mkdtempSync(join(dir, 'kf-')), repo: createRepositories(otherDb).secrets, mode: 'key-file', log: logInto(lines) });
        chosen.set('remote.key', VALUE);
      } finally {
        otherDb.close();
      }
      expect(lines).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    }
  });

  it('the desktop app seals with safeStorage, except where it protects nothing', async () => {
    expect(safeStorageCipher(fakeSafeStorage('basic_text'), 'linux')).toBeNull();
    expect(safeStorageCipher(fakeSafeStorage('gnome_libsecret', false), 'linux')).toBeNull();
    const store = await openSecretStore({ dataDir: dir, repo: repos.secrets, mode: 'auto', provided: safeStorageCipher(fakeSafeStorage(), 'linux') });
    expect(store.kind).toBe('electron-safe-storage');
    store.set('remote.key', VALUE);
    expect(databaseBytes().includes(Buffer.from(VALUE))).toBe(false);
    expect(existsSync(join(dir, KEY_FILE_NAME))).toBe(false);
  });
});

describe('the hosted key across a change of URL', () => {
  it('is kept for the same URL, cleared for another one (or none) unless a key comes with it', () => {
    const stored = { url: 'https://a.example', key: 'k1' };
    expect(keyAfterChange(stored, 'https://a.example', undefined)).toBe('k1');
    expect(keyAfterChange(stored, 'https://evil.example', undefined)).toBeNull();
    expect(keyAfterChange(stored, null, undefined)).toBeNull();
    expect(keyAfterChange(stored, 'https://b.example', 'k2')).toBe('k2');
    expect(keyAfterChange(stored, 'https://a.example', '')).toBeNull();
  });
});
