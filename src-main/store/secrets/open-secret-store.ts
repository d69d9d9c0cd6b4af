/**
 * Picks the ciphers for a data dir and opens its SecretStore:
 * - `provided` (the desktop app's Electron safeStorage) seals when given;
 * - else, in `auto` mode, the OS keyring when one answers, else the 0600 key file; `keyring` requires the keyring
 *   (start-up fails with the reason otherwise); `key-file` uses the key file without asking the keyring;
 * - whatever sealed the values already stored is opened too when at hand (a key file that exists; the keyring,
 *   asked only when some value was sealed with it).
 * Falling back to the key file is normal on a machine without a keyring (a server, a container, a desktop without
 * a Secret Service): it is said once, in the log, when the first secret is sealed with the key file — not on every
 * start of every command.
 */
import type { SecretsRepo } from '../secrets-repo.js';
import { KEY_FILE_KIND, keyFileCipher } from './key-file-cipher.js';
import { KEYRING_KIND, keyringCipher } from './keyring-cipher.js';
import type { SecretCipher } from './secret-cipher.js';
import { SecretStore } from './secret-store.js';
import type { Log } from '../../common/log.js';

/** Where secrets are sealed headless. Default `auto` ($VOXDESK_SECRET_STORE overrides). */
export type SecretStoreMode = 'auto' | 'keyring' | 'key-file';
export const SECRET_STORE_MODES: readonly SecretStoreMode[] = ['auto', 'keyring', 'key-file'];

export interface OpenSecretStoreOptions {
  dataDir: string;
  repo: SecretsRepo;
  mode: SecretStoreMode;
  /** The desktop app's cipher (Electron safeStorage); null or absent headless. */
  provided?: SecretCipher | null;
  /** How long the keyring may take to answer. Default keyring-cipher.ts KEYRING_TIMEOUT_MS. */
  keyringTimeoutMs?: number;
  log?: Log;
}

export async function openSecretStore(options: OpenSecretStoreOptions): Promise<SecretStore> {
  const { dataDir, repo, mode, log } = options;
  const inUse = new Set(repo.sealedBy());
  const missing = new Map<string, string>();
  let keyring: SecretCipher | null = null;
  const wantKeyring = mode === 'keyring' || (mode === 'auto' && !options.provided) || inUse.has(KEYRING_KIND);
  if (wantKeyring) {
    const result = await keyringCipher(dataDir, options.keyringTimeoutMs);
    keyring = result.cipher;
    if (result.problem) {
      missing.set(KEYRING_KIND, `the OS keyring cannot be used: ${result.problem}`);
      if (mode === 'keyring') throw new Error(`VOXDESK_SECRET_STORE=keyring, but the OS keyring cannot be used: ${result.problem}`);
    }
  }
  let primary: SecretCipher;
  let fallbackNotice: string | null = null;
  if (options.provided) primary = options.provided;
  else if (mode !== 'key-file' && keyring) primary = keyring;
  else {
    primary = keyFileCipher(dataDir, { create: true })!;
    // Said before, with the first secret the key file sealed.
    if (mode === 'auto' && !inUse.has(KEY_FILE_KIND)) {
      fallbackNotice = `secrets: no OS keyring (${missing.get(KEYRING_KIND) ?? 'not asked'}); sealing with the key file in the data dir`;
    }
  }
  const openers: SecretCipher[] = [];
  if (keyring) openers.push(keyring);
  const keyFile = primary.kind === KEY_FILE_KIND ? primary : keyFileCipher(dataDir, { create: false });
  if (keyFile) openers.push(keyFile);
  else missing.set(KEY_FILE_KIND, 'the data dir has no secrets.key');
  if (!options.provided) missing.set('electron-safe-storage', "it was stored by the desktop app, whose safe storage only the app can open");
  const firstSeal = fallbackNotice && log ? { onFirstSeal: () => log.info(fallbackNotice) } : {};
  return new SecretStore(repo, { primary, openers, missing, ...(log ? { log } : {}), ...firstSeal });
}
