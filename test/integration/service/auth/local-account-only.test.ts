/**
 * Every account in its own lane: a second account's key (`keys create --account other`) can transcribe and speak,
 * but every route that changes or reveals the machine — the model manager, every setting, the keys — answers it 404
 * like a route that does not exist. The sweep walks every route the app registers under the administration prefixes,
 * so a route added there later is covered without a new test. The public catalogue shows no path of this machine.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PATH_PREFIXES, isAdminPath } from '../../../../src-main/service/auth/local-account-only.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';

let t: TestService;
let local: Client;
let other: Client;
let folder: string;

beforeAll(async () => {
  t = await startTestService();
  local = new Client(t.url, t.key);
  other = new Client(t.url, (await t.service.keys.createKey('other')));
  folder = mkdtempSync(join(tmpdir(), 'voxdesk-secret-model-'));
  mkdirSync(join(folder, 'denoiser'));
  copyFileSync(join(SHARED, 'models', 'gtcrn_simple.onnx'), join(folder, 'denoiser', 'gtcrn_simple.onnx'));
});
afterAll(async () => {
  await t?.stop();
  rmSync(folder, { recursive: true, force: true });
});

function send(client: Client, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(client.url + path, {
    method,
    headers: client.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('a second account', () => {
  it('cannot import a folder of this machine (the hole: any key could copy any server path)', async () => {
    await expectError(send(other, 'POST', '/v1/local/models/import', { path: join(folder, 'denoiser') }), 404, 'not_found');
    const list = await json<{ data: Array<{ id: string }> }>(local.get('/v1/local/models'));
    expect(list.data.map((p) => p.id)).not.toContain('denoiser');
  });

  it('gets 404 on every administration route the app registers, whatever the method', async () => {
    const routes = t.service.app.routes.filter((r) => r.method !== 'ALL' && isAdminPath(r.path));
    // The sweep must see the routes it guards: the model manager, both settings and the keys.
    for (const prefix of ADMIN_PATH_PREFIXES) expect(routes.some((r) => r.path.startsWith(prefix)), prefix).toBe(true);
    for (const route of routes) {
      const path = route.path.replace(/:[a-z]+/gi, 'gtcrn-simple');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { path: folder, url: 'http://127.0.0.1:9', key: 'x' };
      await expectError(send(other, route.method, path, body), 404, 'not_found');
    }
  });

  it('gets 404 on an administration path spelt with percent-escapes (the router decodes them; the guard must too)', async () => {
    for (const path of ['/v1/%6Beys', '/v1/%6beys', '/v1/%6Bey%73', '/v1/%73ettings/retention', '/v1/local/%6Dodels']) {
      await expectError(send(other, 'GET', path), 404, 'not_found');
    }
    expect((await local.get('/v1/%6Beys')).status).toBe(200);
  });

  it('still transcribes and speaks with its own key, while the local account administers as before', async () => {
    const spoken = await other.postJson('/v1/text-to-speech', { model: 'test-tts', text: 'hello' });
    expect(spoken.status).toBe(200);
    expect((await local.get('/v1/local/models')).status).toBe(200);
    expect((await local.get('/v1/settings/retention')).status).toBe(200);
    expect((await local.get('/v1/settings/remote')).status).toBe(200);
  });
});

describe('the public catalogue', () => {
  it('lists an imported model without the folder it came from or the data dir', async () => {
    const started = await local.postJson('/v1/local/models/import', { path: join(folder, 'denoiser'), id: 'my-denoiser' });
    expect(started.status).toBe(202);
    await t.service.models.whenImported('my-denoiser');
    const catalogue = await (await fetch(`${t.url}/v1/models?include_unavailable=true`)).text();
    expect(catalogue).toContain('my-denoiser');
    expect(catalogue).not.toContain(folder);
    expect(catalogue).not.toContain(t.dataDir);
  });
});
