/**
 * The desktop app's service start without the Electron binary: the per-install key is registered under the name
 * "desktop app", and once the person revokes it the app does not bring it back — it makes a new key and starts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDesktopService } from '../../../src-main/app/desktop-service.js';
import { INSTALL_KEY_FILE } from '../../../src-main/app/install-key.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('startDesktopService', () => {
  it('replaces a revoked per-install key instead of starting with it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-desktop-'));
    dirs.push(dataDir);
    const options = { dataDir, allowedOrigins: ['app://voxdesk'], secretCipher: null };
    const first = await startDesktopService(options);
    const key = (await first.service.keys.list()).find((k) => k.name === 'desktop app')!;
    expect(key.revoked_at).toBeNull();
    (await first.service.keys.revoke(key.id));
    await first.service.close();

    const second = await startDesktopService(options);
    try {
      expect(second.apiKey).not.toBe(first.apiKey);
      expect(readFileSync(join(dataDir, INSTALL_KEY_FILE), 'utf8').trim()).toBe(second.apiKey);
      const res = await fetch(`${second.service.url}/v1/jobs`, { headers: { authorization: `Bearer ${second.apiKey}` } });
      expect(res.status).toBe(200);
      const old = await fetch(`${second.service.url}/v1/jobs`, { headers: { authorization: `Bearer ${first.apiKey}` } });
      expect(old.status).toBe(401);
    } finally {
      await second.service.close();
    }
  });
});
