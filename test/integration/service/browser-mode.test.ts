/**
 * Browser mode (--ui): the built renderer served at / under a strict CSP with the single-page fallback, the
 * loopback-only session bootstrap with its Host/Origin checks and one-time login token, and CORS for configured
 * origins only.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, startTestService, type TestService } from '../../helpers/service.js';
import { Client, expectError, json } from '../../helpers/http-client.js';
import { scaled } from '../../helpers/time-scale.js';

let t: TestService;
let plain: TestService;
let ui: string;
const DEV_ORIGIN = 'http://localhost:5173';

beforeAll(async () => {
  ui = mkdtempSync(join(tmpdir(), 'voxdesk-ui-'));
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>Voxdesk</title><script type="module" src="/assets/app.js"></script>');
  mkdirSync(join(ui, 'assets'));
  writeFileSync(join(ui, 'assets', 'app.js'), 'console.log("voxdesk");');
  t = await startTestService({ serveUi: ui, allowedOrigins: [DEV_ORIGIN] });
  plain = await startTestService();
});
afterAll(async () => {
  await t?.stop();
  await plain?.stop();
  rmSync(ui, { recursive: true, force: true });
});

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('static UI', () => {
  it('serves index.html and assets with a strict CSP; client routes fall back to index.html; missing assets 404', async () => {
    const index = await fetch(`${t.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await index.text()).toContain('<title>Voxdesk</title>');
    const asset = await fetch(`${t.url}/assets/app.js`);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await asset.text()).toContain('voxdesk');
    expect(await (await fetch(`${t.url}/transcribe/job_123`)).text()).toContain('<title>Voxdesk</title>');
    expect((await fetch(`${t.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${t.url}/..%2f..%2fetc%2fpasswd`)).status).not.toBe(500);
    // /v1 is never shadowed by the single-page fallback.
    await expectError(new Client(t.url, t.key).get('/v1/nothing-here'), 404, 'not_found');
  });
  it('without --ui there is no UI and no bootstrap', async () => {
    expect((await fetch(`${plain.url}/`)).status).toBe(404);
    await expectError(fetch(`${plain.url}/v1/session/bootstrap`), 404, 'not_found');
  });
});

describe('session bootstrap', () => {
  const tokenOf = (loginUrl: string | null): string => /#token=([A-Za-z0-9_-]{43})$/.exec(loginUrl ?? '')![1]!;
  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${t.url}/v1/session/bootstrap`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('refuses a plain loopback client without the token (the hole: curl got the local key)', async () => {
    // Right Host, no Origin, from loopback: everything the old bootstrap asked for.
    await expectError(fetch(`${t.url}/v1/session/bootstrap`), 401, 'unauthorized');
    await expectError(post({}), 401, 'unauthorized');
    await expectError(post({ token: 'guessed-token' }), 401, 'unauthorized');
    // Another account's key does not open a local session either.
    const otherKey = await t.service.keys.createKey('other');
    await expectError(fetch(`${t.url}/v1/session/bootstrap`, { headers: { authorization: `Bearer ${otherKey}` } }), 401, 'unauthorized');
  });

  it('trades the printed one-time token for a working local session, once', async () => {
    const token = tokenOf(t.service.browserLoginUrl());
    const boot = await json<{ api_key: string; account: string }>(post({ token }, { origin: t.url }));
    expect(boot.api_key).toMatch(/^vdk_session_/);
    expect(boot.account).toBe('local');
    expect((boot as { data_dir?: string }).data_dir).toBe(t.dataDir);
    const session = new Client(t.url, boot.api_key);
    expect((await session.get('/v1/jobs')).status).toBe(200);
    expect(await json(session.get('/v1/session'))).toEqual({ account_id: expect.stringMatching(/^acc_/), account: 'local', data_dir: t.dataDir });
    await expectError(post({ token }, { origin: t.url }), 401, 'unauthorized');
    // A new address replaces the old token.
    const first = tokenOf(t.service.browserLoginUrl());
    const second = tokenOf(t.service.browserLoginUrl());
    await expectError(post({ token: first }), 401, 'unauthorized');
    expect((await post({ token: second })).status).toBe(200);
  });

  it('GET /v1/session shows other accounts no data dir', async () => {
    const other = new Client(t.url, (await t.service.keys.createKey('other')));
    expect(await json(other.get('/v1/session'))).toMatchObject({ account: 'other', data_dir: null });
  });

  it('refuses a foreign Origin, a cross-site fetch and a Host that is not the service (DNS rebinding), token or not', async () => {
    const token = tokenOf(t.service.browserLoginUrl());
    await expectError(post({ token }, { origin: 'http://evil.example' }), 403, 'forbidden_origin');
    await expectError(post({ token }, { origin: DEV_ORIGIN }), 403, 'forbidden_origin');
    await expectError(post({ token }, { 'sec-fetch-site': 'cross-site' }), 403, 'forbidden_origin');
    const rebound = await rawGet(`${t.url}/v1/session/bootstrap`, { host: `evil.example:${t.service.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.code).toBe('forbidden_origin');
    // The refusals did not spend the token.
    expect((await post({ token }, { origin: t.url })).status).toBe(200);
  });
});

describe('voxdesk serve --ui', () => {
  it('prints the UI address with a one-time token; curl on the bootstrap gets 401, the token logs in once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-ui-serve-'));
    const serve = await startServeProcess(dataDir, ['--ui', ui]);
    try {
      await expect.poll(() => serve.stderr(), { timeout: scaled(30_000) }).toMatch(/browser UI: http:\/\/127\.0\.0\.1:\d+\/#token=/);
      const loginUrl = /browser UI: (\S+)/.exec(serve.stderr())![1]!;
      expect(loginUrl.startsWith(`${serve.url}/#token=`)).toBe(true);
      const curl = execFileSync('curl', ['-s', '-w', '\n%{http_code}', `${serve.url}/v1/session/bootstrap`], { encoding: 'utf8' });
      expect(curl.trim().split('\n').pop()).toBe('401');
      const token = new URL(loginUrl).hash.slice('#token='.length);
      const login = (): Promise<Response> =>
        fetch(`${serve.url}/v1/session/bootstrap`, { method: 'POST', headers: { 'content-type': 'application/json', origin: serve.url }, body: JSON.stringify({ token }) });
      const { api_key: key } = await json<{ api_key: string }>(login());
      expect((await new Client(serve.url, key).get('/v1/local/models')).status).toBe(200);
      await expectError(login(), 401, 'unauthorized');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('CORS', () => {
  it('answers preflights and grants only configured origins', async () => {
    const pre = await fetch(`${t.url}/v1/jobs`, {
      method: 'OPTIONS',
      headers: { origin: DEV_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,idempotency-key' },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    const ok = await new Client(t.url, t.key).get('/v1/jobs', { origin: DEV_ORIGIN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
    const foreign = await fetch(`${t.url}/v1/models`, { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});
