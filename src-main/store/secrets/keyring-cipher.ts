/**
 * A random 32-byte AES key kept in the OS keyring — macOS Keychain, Windows Credential Manager, the Secret Service
 * (GNOME Keyring, KWallet) on Linux — through @napi-rs/keyring (prebuilt binaries, no build step). Values in the
 * database are sealed with it (AES-256-GCM). On Linux the entry is pinned to the Secret Service: the kernel keyring,
 * the library's other Linux store, forgets everything at reboot, which would lose every sealed value.
 *
 * Answers null, never throws, when no keyring can be used (no library binary for the platform, no secret service
 * running, a locked keyring that does not answer within timeoutMs): the caller falls back to the key file.
 */
import type * as KeyringModule from '@napi-rs/keyring';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AES_KEY_BYTES, aesGcmCipher } from './aes-gcm-cipher.js';
import type { SecretCipher } from './secret-cipher.js';

export const KEYRING_KIND = 'os-keyring';
/** The keyring entry's service name; the account names the data dir, so two data dirs have two keys. */
export const KEYRING_SERVICE = 'voxdesk';
/** How long the keyring may take to answer (a locked keyring may wait for a password prompt). Default 5 s. */
export const KEYRING_TIMEOUT_MS = 5_000;

export interface KeyringResult {
  cipher: SecretCipher | null;
  /** Why the keyring cannot be used (null when it can). */
  problem: string | null;
}

export async function keyringCipher(dataDir: string, timeoutMs = KEYRING_TIMEOUT_MS): Promise<KeyringResult> {
  let keyring: typeof KeyringModule;
  try {
    keyring = await import('@napi-rs/keyring');
  } catch (error) {
    return { cipher: null, problem: `the keyring library has no binary for this platform (${(error as Error).message})` };
  }
  const options = process.platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  try {
    const entry = new keyring.AsyncEntry(KEYRING_SERVICE, `secrets key of ${dataDir}`, options);
    const signal = AbortSignal.timeout(timeoutMs);
    let stored = await entry.getSecret(signal);
    if (!stored) {
      const fresh = randomBytes(AES_KEY_BYTES);
      await entry.setSecret(fresh, signal);
      stored = await entry.getSecret(signal);
      if (!stored || !timingSafeEqual(Buffer.from(stored), fresh)) return { cipher: null, problem: 'the keyring did not keep the key it was given' };
    }
    const key = Buffer.from(stored);
    if (key.length !== AES_KEY_BYTES) return { cipher: null, problem: `the keyring entry holds ${key.length} bytes, not a ${AES_KEY_BYTES}-byte key` };
    return { cipher: aesGcmCipher(KEYRING_KIND, key), problem: null };
  } catch (error) {
    return { cipher: null, problem: (error as Error).message };
  }
}
