/**
 * The desktop app's per-install API key: created once, kept in the data dir (`desktop-api-key`, mode 0600), and
 * registered with the in-process service at every start. Scripts on the same machine can use it too. A revoked one is
 * replaced (createInstallKey, called by desktop-service.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const INSTALL_KEY_FILE = 'desktop-api-key';
const KEY_PATTERN = /^vdk_[A-Za-z0-9_-]{32,}$/;

export function loadOrCreateInstallKey(dataDir: string): string {
  const path = join(dataDir, INSTALL_KEY_FILE);
  if (existsSync(path)) {
    const key = readFileSync(path, 'utf8').trim();
    if (KEY_PATTERN.test(key)) return key;
    // A damaged file (hand-edited, truncated) is replaced: the key is only ever read by this app.
  }
  return createInstallKey(dataDir);
}

/** Writes a new per-install key (replacing any) and returns it. */
export function createInstallKey(dataDir: string): string {
  const path = join(dataDir, INSTALL_KEY_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = `vdk_${randomBytes(32).toString('base64url')}`;
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return key;
}
