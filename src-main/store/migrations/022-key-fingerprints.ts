/**
 * `api_keys.prefix` no longer holds any character of a key chosen by its owner. A generated key (`vdk_` and 32
 * random characters) keeps its first eight characters, four of them random, so a person can tell keys apart in
 * `voxdesk keys list`; a key someone chose (`VOXDESK_API_KEY`) is listed by a fingerprint instead, `fp:` and the first
 * eight hex digits of its SHA-256 (the hash the table keeps anyway), since its first characters may be most of a
 * short secret (trust review 2, item 12). secure_delete overwrites the old values in the database's free pages.
 */
import type { Migration } from './migration.js';

export const keyFingerprints: Migration = {
  version: 22,
  name: 'key-fingerprints',
  up: `
    UPDATE api_keys SET prefix = 'fp:' || substr(key_hash, 1, 8) WHERE substr(prefix, 1, 4) <> 'vdk_';
  `,
};
