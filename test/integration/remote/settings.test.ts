/**
 * GET/PUT /v1/settings/remote over real HTTP: key required, the key is never echoed, bad input has clear codes,
 * only the local account may change it, and the hosted rows follow the setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../../src-main/common/api-types.js';
import type { TestService } from '../../helpers/service.js';
import { startLocalInstance, type LocalInstance } from '../../helpers/local-instance.js';
import { api, startHosted } from '../../helpers/two-instances.js';

let hosted: TestService;
let local: LocalInstance;

beforeAll(async () => {
  hosted = await startHosted();
  local = await startLocalInstance();
});

afterAll(async () => {
  await local?.stop();
  await hosted?.stop();
});

async function remoteIds(): Promise<string[]> {
  const { body } = await api<{ data: CatalogueRecord[] }>(local.url, local.key, 'GET', '/v1/models?include_unavailable=true');
  return body.data.filter((m) => m.provider === 'remote').map((m) => m.id);
}

describe('/v1/settings/remote', () => {
  it('needs a key', async () => {
    const response = await fetch(`${local.url}/v1/settings/remote`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('starts empty, stores URL and key, never echoes the key, and brings the hosted rows in', async () => {
    expect((await api(local.url, local.key, 'GET', '/v1/settings/remote')).body).toMatchObject({ url: null, key_set: false });
    expect(await remoteIds()).toEqual([]);
    const put = await api<Record<string, unknown>>(local.url, local.key, 'PUT', '/v1/settings/remote', { url: `${hosted.url}/v1`, key: hosted.key });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ url: hosted.url, key_set: true, catalogue: { last_error: null } });
    expect(JSON.stringify(put.body)).not.toContain(hosted.key);
    const get = await api<Record<string, unknown>>(local.url, local.key, 'GET', '/v1/settings/remote');
    expect(get.body).toMatchObject({ url: hosted.url, key_set: true });
    expect(JSON.stringify(get.body)).not.toContain(hosted.key);
    expect(await remoteIds()).toContain('remote:espeak-ng');
  });

  it('keeps the key when it is omitted, clears it with an empty string, and drops rows with url null', async () => {
    let put = await api<Record<string, unknown>>(local.url, local.key, 'PUT', '/v1/settings/remote', { url: hosted.url });
    expect(put.body).toMatchObject({ key_set: true });
    put = await api(local.url, local.key, 'PUT', '/v1/settings/remote', { url: hosted.url, key: '' });
    expect(put.body).toMatchObject({ key_set: false });
    const { body } = await api<{ data: CatalogueRecord[] }>(local.url, local.key, 'GET', '/v1/models?include_unavailable=true');
    const espeak = body.data.find((m) => m.id === 'remote:espeak-ng')!;
    expect(espeak).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('API key') });
    // An unavailable hosted model is refused at submission with the reason.
    const refused = await api<{ error: { code: string } }>(local.url, local.key, 'POST', '/v1/text-to-speech', { model: 'remote:espeak-ng', text: 'hi' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('model_unavailable');
    put = await api(local.url, local.key, 'PUT', '/v1/settings/remote', { url: null });
    expect(put.body).toMatchObject({ url: null });
    expect(await remoteIds()).toEqual([]);
  });

  it('rejects bad input with clear codes and changes nothing', async () => {
    await api(local.url, local.key, 'PUT', '/v1/settings/remote', { url: hosted.url, key: hosted.key });
    const cases: [unknown, number, string][] = [
      [{ url: 'ftp://example.com' }, 400, 'invalid_request'],
      [{ url: 'not a url' }, 400, 'invalid_request'],
      [{ url: 'http://user:pw@example.com' }, 400, 'invalid_request'],
      [{ url: 42 }, 400, 'invalid_request'],
      [{ url: '' }, 400, 'invalid_request'],
      [{ key: 'k' }, 400, 'invalid_request'],
      [{ url: hosted.url, key: 7 }, 400, 'invalid_request'],
      [{ url: hosted.url, key: 'has space' }, 400, 'invalid_request'],
      [{ url: hosted.url, colour: 'red' }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const r = await api<{ error: { code: string; message: string } }>(local.url, local.key, 'PUT', '/v1/settings/remote', body);
      expect([r.status, r.body.error.code], JSON.stringify(body)).toEqual([status, code]);
      expect(r.body.error.message.length).toBeGreaterThan(5);
    }
    const notJson = await fetch(`${local.url}/v1/settings/remote`, { method: 'PUT', headers: { authorization: `Bearer ${local.key}`, 'content-type': 'text/plain' }, body: 'x' });
    expect(notJson.status).toBe(415);
    const broken = await fetch(`${local.url}/v1/settings/remote`, { method: 'PUT', headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' }, body: '{' });
    expect(broken.status).toBe(400);
    expect((await api(local.url, local.key, 'GET', '/v1/settings/remote')).body).toMatchObject({ url: hosted.url, key_set: true });
  });

  it('lets only the local account change where jobs go', async () => {
    const other = local.repos.accounts.createApiKey(local.repos.accounts.ensureAccount('someone-else').id, null).key;
    const r = await api<{ error: { code: string } }>(local.url, other, 'PUT', '/v1/settings/remote', { url: 'http://127.0.0.1:1' });
    expect(r.status).toBe(404);
    expect((await api(local.url, local.key, 'GET', '/v1/settings/remote')).body).toMatchObject({ url: hosted.url });
  });
});
