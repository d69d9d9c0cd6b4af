/**
 * Keys the person controls: `voxdesk keys list|revoke` and GET/DELETE /v1/keys. A revoked key is refused on its next
 * HTTP request and its open live WebSocket sessions end with an `unauthorized` error — through the route at once, and
 * through the CLI (another process writing the database) within the live server's re-check interval. Lists never
 * show a key; VOXDESK_API_KEY values shorter than 24 characters, or revoked ones, stop `serve` with a message.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServeProcess, startTestService, type TestService } from '../../../helpers/service.js';
import { LiveClient } from '../../../helpers/live-harness.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { scaled } from '../../../helpers/time-scale.js';

const run = promisify(execFile);

function voxdesk(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  return run(process.execPath, [join(ROOT, 'bin/voxdesk.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: scaled(120_000) }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }),
  );
}

interface KeyView {
  id: string;
  account: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

let t: TestService;
let admin: Client;

beforeAll(async () => {
  t = await startTestService();
  admin = new Client(t.url, t.key);
});
afterAll(async () => t?.stop());

async function keyNamed(name: string): Promise<KeyView> {
  const list = await json<{ data: KeyView[] }>(admin.get('/v1/keys'));
  return list.data.find((k) => k.name === name)!;
}

function openLive(key: string): Promise<LiveClient> {
  return LiveClient.open(`${t.url.replace('http', 'ws')}/v1/text-to-speech/realtime?model=espeak-ng`, { authorization: `Bearer ${key}` });
}

function closed(client: LiveClient): Promise<number> {
  return new Promise((resolve) => client.ws.once('close', (code) => resolve(code)));
}

describe('GET /v1/keys', () => {
  it('lists every key with account, name, created and last used — never the key', async () => {
    const key = await t.service.keys.createKey('guest', 'laptop script');
    expect((await new Client(t.url, key).get('/v1/queue')).status).toBe(200);
    const response = await admin.get('/v1/keys');
    const text = await response.clone().text();
    expect(text).not.toContain(key);
    expect(text).not.toContain(t.key);
    const view = await keyNamed('laptop script');
    expect(view).toMatchObject({ account: 'guest', revoked_at: null });
    expect(view.id).toMatch(/^key_/);
    expect(Date.parse(view.last_used_at!)).toBeGreaterThan(Date.parse(view.created_at) - 1);
  });
});

describe('revoking through the service', () => {
  it('refuses the key at once on HTTP and ends its open live session with an error', async () => {
    const key = await t.service.keys.createKey('local', 'to revoke');
    const client = new Client(t.url, key);
    expect((await client.get('/v1/jobs')).status).toBe(200);
    const live = await openLive(key);
    await live.waitFor('session.created');
    const ended = closed(live);

    const { id } = await keyNamed('to revoke');
    const revoked = await json<KeyView>(fetch(`${t.url}/v1/keys/${id}`, { method: 'DELETE', headers: admin.headers() }));
    expect(revoked.revoked_at).not.toBeNull();

    await expectError(client.get('/v1/jobs'), 401, 'unauthorized');
    const error = await live.waitFor('error');
    expect(error).toMatchObject({ error: { code: 'unauthorized' } });
    expect(await ended).toBe(1008);
    // Other keys keep working; revoking twice answers the same; an unknown id is 404.
    expect((await admin.get('/v1/jobs')).status).toBe(200);
    expect((await fetch(`${t.url}/v1/keys/${id}`, { method: 'DELETE', headers: admin.headers() })).status).toBe(200);
    await expectError(fetch(`${t.url}/v1/keys/key_nope`, { method: 'DELETE', headers: admin.headers() }), 404, 'not_found');
  });
});

describe('voxdesk keys', () => {
  it('lists without keys and revokes from another process: the running service refuses the key and ends its session', async () => {
    const key = await t.service.keys.createKey('local', 'cli revoke');
    const live = await openLive(key);
    await live.waitFor('session.created');
    const ended = closed(live);

    const listed = await voxdesk(['keys', 'list', '--data-dir', t.dataDir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+ACCOUNT\s+NAME\s+CREATED\s+LAST USED\s+REVOKED/);
    expect(listed.stdout).toContain('cli revoke');
    expect(listed.stdout).not.toContain(key);
    const asJson = JSON.parse((await voxdesk(['keys', 'list', '--json', '--data-dir', t.dataDir])).stdout) as { data: KeyView[] };
    const id = asJson.data.find((k) => k.name === 'cli revoke')!.id;

    const revoke = await voxdesk(['keys', 'revoke', id, '--data-dir', t.dataDir]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toContain(`${id} revoked`);
    await expectError(new Client(t.url, key).get('/v1/jobs'), 401, 'unauthorized');
    expect(await ended).toBe(1008);
    expect(live.json().find((m) => m.type === 'error')).toMatchObject({ error: { code: 'unauthorized' } });

    const unknown = await voxdesk(['keys', 'revoke', 'key_missing', '--data-dir', t.dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no API key key_missing');
  });
});

describe('VOXDESK_API_KEY', () => {
  let dataDir: string;
  beforeAll(() => (dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-envkey-'))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('shorter than 24 characters stops serve with a message', async () => {
    const result = await voxdesk(['serve', '--port', '0', '--data-dir', dataDir], { VOXDESK_API_KEY: 'vdk_short_key_0123' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('VOXDESK_API_KEY is 18 characters long; a key must have at least 24');
    expect(result.stdout).toBe('');
  });

  it('once revoked, is refused at the next start instead of coming back to life', async () => {
    const key = 'vdk_scripted_key_revoked_later_0001';
    const serve = await startServeProcess(dataDir, [], { VOXDESK_API_KEY: key });
    serve.child.kill('SIGTERM');
    await serve.exited;
    const { data } = JSON.parse((await voxdesk(['keys', 'list', '--json', '--data-dir', dataDir])).stdout) as { data: KeyView[] };
    const id = data.find((k) => k.name === 'VOXDESK_API_KEY')!.id;
    expect((await voxdesk(['keys', 'revoke', id, '--data-dir', dataDir])).code).toBe(0);
    const again = await voxdesk(['serve', '--port', '0', '--data-dir', dataDir], { VOXDESK_API_KEY: key });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`VOXDESK_API_KEY was revoked (${id}`);
  });
});
