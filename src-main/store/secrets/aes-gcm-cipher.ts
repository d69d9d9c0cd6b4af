/**
 * AES-256-GCM with a 32-byte key held elsewhere (the OS keyring or a 0600 key file). Sealed layout: version byte 1,
 * a 12-byte random nonce, the 16-byte tag, then the ciphertext; the secret's name is the associated data, so a
 * sealed value copied to another row does not open there.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretCipher } from './secret-cipher.js';

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const AES_KEY_BYTES = 32;

export function aesGcmCipher(kind: string, key: Buffer): SecretCipher {
  if (key.length !== AES_KEY_BYTES) throw new Error(`${kind}: the secrets key must be ${AES_KEY_BYTES} bytes, got ${key.length}`);
  return {
    kind,
    seal(name, plain) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(name, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
    },
    open(name, sealed) {
      if (sealed.length < 1 + NONCE_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new Error(`${kind}: not a sealed value of this format`);
      const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
      const tag = sealed.subarray(1 + NONCE_BYTES, 1 + NONCE_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(Buffer.from(name, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed.subarray(1 + NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
