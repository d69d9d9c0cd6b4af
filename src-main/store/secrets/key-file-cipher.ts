/**
 * The fallback where no keyring can be used (headless Linux without a secret service): a random 32-byte AES key in
 * `<data dir>/secrets.key`, created 0600 (exclusively, so two processes starting together agree on one key) and
 * tightened to 0600 if found looser. Values in the database are sealed with it (AES-256-GCM).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, tighten } from '../private-files.js';
import { AES_KEY_BYTES, aesGcmCipher } from './aes-gcm-cipher.js';
import type { SecretCipher } from './secret-cipher.js';

export const KEY_FILE_NAME = 'secrets.key';
export const KEY_FILE_KIND = 'key-file';

/** The key file's cipher; `create` false answers null when there is no key file yet. */
export function keyFileCipher(dataDir: string, options: { create: boolean }): SecretCipher | null {
  const path = join(dataDir, KEY_FILE_NAME);
  if (!existsSync(path)) {
    if (!options.create) return null;
    try {
      const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
      try {
        writeSync(fd, randomBytes(AES_KEY_BYTES));
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first: use theirs
    }
  }
  tighten(path, PRIVATE_FILE_MODE);
  const key = readFileSync(path);
  if (key.length !== AES_KEY_BYTES) {
    throw new Error(`${path} is damaged (${key.length} bytes, expected ${AES_KEY_BYTES}); the secrets sealed with it are lost: move it away and set them again`);
  }
  return aesGcmCipher(KEY_FILE_KIND, key);
}
