/**
 * The sealing key of a cluster: on PostgreSQL the secrets every node must send (the hosted service's key) are in the
 * shared database, so every node must open them — and none of a node's own ciphers (its keyring, its data dir's key
 * file) is on the other nodes. The operator gives every node the same 32-byte AES key as VOXDESK_SECRETS_KEY, like
 * VOXDESK_API_KEY (`openssl rand -base64 32`); values stay sealed at rest (AES-256-GCM, aes-gcm-cipher.ts) and the
 * database alone reveals nothing. Without it a node seals nothing (a refused write says what to set) and opens
 * nothing; a single machine never reads it.
 */
import { AES_KEY_BYTES, aesGcmCipher } from './aes-gcm-cipher.js';
import type { SecretCipher } from './secret-cipher.js';
import { SecretSealer } from './secret-sealer.js';

export const SECRETS_KEY_ENV = 'VOXDESK_SECRETS_KEY';
export const CLUSTER_KEY_KIND = 'cluster-key';

/** What a refused write and an unreadable value say on a node without the key. */
export const NO_CLUSTER_KEY =
  `this cluster node has no ${SECRETS_KEY_ENV}, so it cannot seal or open the hosted key kept in the cluster's database: ` +
  `give every node the same key (${SECRETS_KEY_ENV}=$(openssl rand -base64 32) once, then that value everywhere) and restart them`;

/**
 * The cipher of a key given as base64 (standard or URL alphabet) or hex, of exactly 32 bytes. A start-up option:
 * anything else throws an Error saying what is expected.
 */
export function clusterKeyCipher(given: string): SecretCipher {
  const text = given.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]+=*$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (bytes.length !== AES_KEY_BYTES) {
    throw new Error(`${SECRETS_KEY_ENV} must be ${AES_KEY_BYTES} random bytes in base64 or hex (e.g. openssl rand -base64 32), the same on every node`);
  }
  return aesGcmCipher(CLUSTER_KEY_KIND, bytes);
}

/** The sealer of a cluster node: the cluster key's cipher, or none (seals nothing, says why). */
export function clusterSealer(given: string | null): SecretSealer {
  if (given?.trim()) return new SecretSealer({ primary: clusterKeyCipher(given) });
  return new SecretSealer({ primary: null, refusal: NO_CLUSTER_KEY, missing: new Map([[CLUSTER_KEY_KIND, `${SECRETS_KEY_ENV} is not set on this node`]]) });
}
