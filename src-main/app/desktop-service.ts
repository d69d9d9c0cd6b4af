/**
 * Starts the desktop app's in-process service with its per-install key (install-key.ts) and, when Electron's
 * safeStorage can protect secrets, that cipher for them. A per-install key revoked by the person (`voxdesk keys
 * revoke`, GET/DELETE /v1/keys) is never brought back: the app makes a new one and starts with it.
 */
import type { ProcessLauncher } from '../engines/worker/process-launcher.js';
import { ApiError } from '../common/errors.js';
import type { SecretCipher } from '../store/secrets/secret-cipher.js';
import type { ServiceConfig } from '../service/config.js';
import { createService, type Service } from '../service/create-service.js';
import { createInstallKey, loadOrCreateInstallKey } from './install-key.js';

export interface DesktopServiceOptions {
  dataDir: string;
  /** The app's origin (app://voxdesk), the only browser origin the service accepts. */
  allowedOrigins: string[];
  /** safe-storage-cipher.ts's answer; null seals with the OS keyring or the key file. */
  secretCipher: SecretCipher | null;
  /** How engine processes start (Electron's utilityProcess in the app). Default: the service's own (fork). */
  processLauncher?: ProcessLauncher;
}

export async function startDesktopService(options: DesktopServiceOptions): Promise<{ service: Service; apiKey: string }> {
  const config = (apiKey: string): Partial<ServiceConfig> => ({
    host: '127.0.0.1',
    port: 0,
    dataDir: options.dataDir,
    apiKey,
    apiKeyName: 'desktop app',
    allowedOrigins: options.allowedOrigins,
    serveUi: null,
    secretCipher: options.secretCipher,
    ...(options.processLauncher ? { processLauncher: options.processLauncher } : {}),
  });
  const apiKey = loadOrCreateInstallKey(options.dataDir);
  try {
    return { service: await createService(config(apiKey)), apiKey };
  } catch (error) {
    // The install key was revoked (voxdesk keys revoke): the app makes itself a new one.
    if (!(error instanceof ApiError && error.code === 'unauthorized')) throw error;
    const fresh = createInstallKey(options.dataDir);
    return { service: await createService(config(fresh)), apiKey: fresh };
  }
}
