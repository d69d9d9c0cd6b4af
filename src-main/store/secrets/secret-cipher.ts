/**
 * How a secret is sealed at rest. Every secret Voxdesk must be able to send (the hosted service's key, and any later
 * one) is stored sealed in the `secrets` table; the cipher that sealed it is recorded beside it (`kind`), because the
 * desktop app and a headless `voxdesk serve` may share one data dir with different ciphers at hand:
 * - `electron-safe-storage`: Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet), supplied by the desktop app
 *   (src-main/app/safe-storage-cipher.ts) — the service never imports Electron;
 * - `os-keyring`: a random AES-256-GCM key kept in the OS keyring (keyring-cipher.ts);
 * - `key-file`: a random AES-256-GCM key in `<data dir>/secrets.key`, mode 0600 (key-file-cipher.ts), where no keyring
 *   or secret service can be used (headless Linux). The database alone then reveals nothing; the data dir's owner
 *   can still read both, as with any file of theirs.
 */
export interface SecretCipher {
  /** Recorded with every value it seals: which cipher can open it. */
  readonly kind: string;
  /** Seals `plain`; `name` (e.g. remote.key) is bound to the result where the cipher can (AES-GCM's associated data). */
  seal(name: string, plain: string): Buffer;
  /** Opens what seal() made for the same name; throws if it was altered or sealed for another name. */
  open(name: string, sealed: Buffer): string;
}

/** A secret sealed by a cipher this process cannot use (e.g. the desktop app's safeStorage, read by `voxdesk serve`). */
export class SecretUnavailableError extends Error {
  constructor(
    readonly secretName: string,
    readonly sealedBy: string,
    reason: string,
  ) {
    super(`the stored ${secretName} cannot be read here (sealed with ${sealedBy}: ${reason}); set it again`);
    this.name = 'SecretUnavailableError';
  }
}
