/** A SecretStore sealing with the data dir's key file (what a headless machine without a keyring uses). */
import type { Repositories } from '../../src-main/store/repositories.js';
import { keyFileCipher } from '../../src-main/store/secrets/key-file-cipher.js';
import { SecretStore } from '../../src-main/store/secrets/secret-store.js';

export function keyFileSecrets(dataDir: string, repos: Pick<Repositories, 'secrets'>): SecretStore {
  return new SecretStore(repos.secrets, { primary: keyFileCipher(dataDir, { create: true })! });
}

/** The repositories and secrets a RemoteProvider needs, over one data dir. */
export function withSecrets<R extends Pick<Repositories, 'secrets'>>(dataDir: string, repos: R): { repos: R; secrets: SecretStore } {
  return { repos, secrets: keyFileSecrets(dataDir, repos) };
}
