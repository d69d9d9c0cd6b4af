/**
 * The desktop app's secrets cipher: Electron's safeStorage (macOS Keychain, Windows DPAPI, libsecret or KWallet on
 * Linux), handed to the service as a SecretCipher (store/secrets/secret-cipher.ts) — the service itself never imports
 * Electron. Not used where safeStorage cannot protect anything: when encryption is unavailable, or on Linux with the
 * `basic_text` backend (a password written into Chromium's source); the service then seals with the OS keyring or
 * its 0600 key file as `voxdesk serve` does. Call after the app is ready (Linux picks its backend then).
 */
import type { SecretCipher } from '../store/secrets/secret-cipher.js';

/** The part of Electron's safeStorage this uses (a parameter, so it can be tested without Electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  getSelectedStorageBackend?(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export const SAFE_STORAGE_KIND = 'electron-safe-storage';

export function safeStorageCipher(storage: SafeStorageLike, platform: NodeJS.Platform = process.platform): SecretCipher | null {
  if (!storage.isEncryptionAvailable()) return null;
  if (platform === 'linux' && storage.getSelectedStorageBackend?.() === 'basic_text') return null;
  return {
    kind: SAFE_STORAGE_KIND,
    seal: (_name, plain) => storage.encryptString(plain),
    open: (_name, sealed) => storage.decryptString(sealed),
  };
}
