/**
 * Secrets at rest and where the hosted key may go, through the real service:
 * - the hole: changing the hosted URL without a key sent the stored key to the new address at once;
 * - the hosted key never appears in the raw database, WAL or shared-memory files — set through the API, or left in
 *   plain text by an older version and sealed at start (the old bytes scrubbed too);
 * - a fresh data dir is private: folders 0700, files 0600 (database, WAL, uploads, artifacts, logs, the key file);
 * - the OS-keyring cipher, with GNOME Keyring in a private D-Bus session (Debian's gnome-keyring and dbus-daemon).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/store/database.js';
import { createRepositories } from '../../../../src-main/store/repositories.js';
import { ROOT, startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand } from '../../../helpers/system.js';
import { Client, json, audio } from '../../../helpers/http-client.js';
import { scaled } from '../../../helpers/time-scale.js';

/** A stand-in hosted service that records the Authorization header of every request it gets. */
interface Recorder {
  url: string;
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

async function recorder(): Promise<Recorder> {
  const authorizations: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function rawDatabase(dataDir: string): Buffer {
  return Buffer.concat(['', '-wal', '-shm'].map((s) => join(dataDir, `voxdesk.db${s}`)).filter(existsSync).map((f) => readFileSync(f)));
}

function put(t: TestService, body: unknown): Promise<Response> {
  return fetch(`${t.url}/v1/settings/remote`, { method: 'PUT', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const HOSTED_KEY = 'vdk_the_hosted_service_key_0123456789';
let a: Recorder;
let b: Recorder;
const services: TestService[] = [];

beforeAll(async () => {
  a = await recorder();
  b = await recorder();
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('the hosted key', () => {
  it('is not sent to a new URL given without a key (the hole: it went there at once)', async () => {
    const t = await startTestService();
    services.push(t);
    expect(await json(put(t, { url: a.url, key: HOSTED_KEY }))).toMatchObject({ url: a.url, key_set: true });
    expect(a.authorizations).toContain(`Bearer ${HOSTED_KEY}`);
    const moved = await json(put(t, { url: b.url }));
    expect(moved).toMatchObject({ url: b.url, key_set: false });
    expect(b.authorizations.length).toBeGreaterThan(0); // the new address was asked for its catalogue…
    expect(b.authorizations.filter((h) => h?.includes(HOSTED_KEY))).toEqual([]); // …without the old key
    expect(await json(put(t, { url: b.url, key: 'vdk_key_for_b' }))).toMatchObject({ key_set: true });
    expect(b.authorizations).toContain('Bearer vdk_key_for_b');
  });

  it('never appears in the raw database, WAL or shared-memory files', async () => {
    const t = await startTestService();
    services.push(t);
    await json(put(t, { url: a.url, key: HOSTED_KEY }));
    expect(rawDatabase(t.dataDir).includes(Buffer.from(HOSTED_KEY))).toBe(false);
    expect(t.service.repos.secrets.get('remote.key')?.sealedBy).toBe('key-file'); // headless Linux: no secret service
    await t.service.close();
    expect(rawDatabase(t.dataDir).includes(Buffer.from(HOSTED_KEY))).toBe(false);
  });

  it('left in plain text by an older version, is sealed at start and its old bytes leave the files', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-plainkey-'));
    const db = openDatabase(join(dataDir, 'voxdesk.db'));
    createRepositories(db).settings.set('remote', { url: a.url, key: HOSTED_KEY }); // how versions before 008 stored it
    db.close();
    expect(rawDatabase(dataDir).includes(Buffer.from(HOSTED_KEY))).toBe(true);

    a.authorizations.length = 0;
    const t = await startTestService({ dataDir });
    services.push(t);
    expect(await json(t.service.app.request('/v1/settings/remote', { headers: { authorization: `Bearer ${t.key}` } }))).toMatchObject({ url: a.url, key_set: true });
    await t.service.remote.source.refresh();
    expect(a.authorizations).toContain(`Bearer ${HOSTED_KEY}`); // still the key it was
    expect(rawDatabase(dataDir).includes(Buffer.from(HOSTED_KEY))).toBe(false);
    await t.service.close();
    expect(rawDatabase(dataDir).includes(Buffer.from(HOSTED_KEY))).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('a fresh data dir', () => {
  it('is private: every folder 0700 and every file 0600, uploads, artifacts and logs included', async () => {
    const t = await startTestService();
    services.push(t);
    await json(put(t, { url: a.url, key: HOSTED_KEY }));
    const client = new Client(t.url, t.key);
    const job = await json<{ status: string }>(
      client.postForm('/v1/speech-to-text', [
        { name: 'model', value: 'test-asr' },
        { name: 'params', value: JSON.stringify({ behaviour: 'succeed', ms: 1, artifact: true }) },
        { name: 'file', file: { name: 'meeting.wav', data: audio() } },
      ]),
    );
    expect(job.status).toBe('succeeded');
    const seen: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        const st = statSync(path);
        seen.push(path.slice(t.dataDir.length + 1));
        expect(`${path.slice(t.dataDir.length)} ${(st.mode & 0o777).toString(8)}`).toBe(`${path.slice(t.dataDir.length)} ${st.isDirectory() ? '700' : '600'}`);
        if (st.isDirectory()) walk(path);
      }
    };
    expect((statSync(t.dataDir).mode & 0o777).toString(8)).toBe('700');
    walk(t.dataDir);
    // The walk covered what matters: the database with its WAL, the key file, an upload, an artifact, the worker log.
    for (const expected of [/^voxdesk\.db$/, /^voxdesk\.db-wal$/, /^voxdesk\.db-shm$/, /^secrets\.key$/, /^uploads\/.+\/.*meeting\.wav$/, /^artifacts\/job_\w+\/.+/, /^logs\/workers\.log$/]) {
      expect(seen.some((p) => expected.test(p)), `${expected} in ${seen.join(', ')}`).toBe(true);
    }
  });
});

describe('the OS keyring', () => {
  it('seals with a key kept in GNOME Keyring (Secret Service) when one runs, readable by the next process', () => {
    requireCommand('dbus-run-session', 'dbus-daemon');
    requireCommand('gnome-keyring-daemon', 'gnome-keyring');
    const home = mkdtempSync(join(tmpdir(), 'voxdesk-keyring-'));
    const dataDir = join(home, 'data');
    const fixture = new URL('./fixtures/keyring-secrets.ts', import.meta.url).pathname;
    const node = `"${process.execPath}" --import tsx "${fixture}"`;
    const script = [
      `eval "$(printf 'test-password' | gnome-keyring-daemon --unlock --components=secrets)"`,
      `${node} write "${dataDir}" "${HOSTED_KEY}"`,
      `${node} read "${dataDir}"`,
    ].join('\n');
    try {
      const out = execFileSync('dbus-run-session', ['--', 'sh', '-c', script], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, HOME: home, XDG_RUNTIME_DIR: home, DBUS_SESSION_BUS_ADDRESS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: scaled(60_000),
      });
      const [written, read] = out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(written).toEqual({ kind: 'os-keyring', sealedBy: 'os-keyring', read: null, keyFile: false });
      expect(read).toEqual({ kind: 'os-keyring', sealedBy: 'os-keyring', read: HOSTED_KEY, keyFile: false });
      expect(rawDatabase(dataDir).includes(Buffer.from(HOSTED_KEY))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
