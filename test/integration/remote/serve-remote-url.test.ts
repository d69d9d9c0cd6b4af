/**
 * `voxdesk serve --remote-url URL` (key from VOXDESK_REMOTE_KEY): a real child process lists the hosted rows;
 * a bad URL stops start-up with a clear message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../src-main/common/api-types.js';
import { startServeProcess, stopServe, type ServeProcess, type TestService } from '../../helpers/service.js';
import { api, startHosted, waitFor } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

const LOCAL_KEY = 'vdk_remote_url_flag_test_key_0123456789ab';
const dirs: string[] = [];
let hosted: TestService | undefined;
let running: ServeProcess | undefined;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-remote-url-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await stopServe(running);
  await hosted?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('voxdesk serve --remote-url', () => {
  it('forwards to the given hosted service: its catalogue rows appear as remote:<id>, available with the key', async () => {
    hosted = await startHosted();
    running = await startServeProcess(tempDir(), ['--remote-url', `${hosted.url}/v1/`], {
      VOXDESK_API_KEY: LOCAL_KEY,
      VOXDESK_REMOTE_KEY: hosted.key,
      VOXDESK_REMOTE_URL: 'http://127.0.0.1:9/not-this-one',
    });
    const sphinx = await waitFor('the hosted rows', async () => {
      const { body } = await api<{ data: CatalogueRecord[] }>(running!.url, LOCAL_KEY, 'GET', '/v1/models?include_unavailable=true');
      return body.data.find((m) => m.id === 'remote:pocketsphinx-en-us');
    });
    expect(sphinx).toMatchObject({ provider: 'remote', status: 'available' });
    const settings = await api<{ url: string; key_set: boolean }>(running.url, LOCAL_KEY, 'GET', '/v1/settings/remote');
    expect(settings.body).toMatchObject({ url: hosted.url, key_set: true });
  }, scaled(120_000));

  it('refuses a URL that is not http(s) with a clear message', async () => {
    const failed = await startServeProcess(tempDir(), ['--remote-url', 'ftp://example.com']).then(
      () => new Error('expected start-up to fail'),
      (error: unknown) => error as Error,
    );
    expect(failed.message).toMatch(/--remote-url "ftp:\/\/example.com" must be an http:\/\/ or https:\/\/ URL/);
  }, scaled(60_000));
});
