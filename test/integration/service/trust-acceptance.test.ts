/**
 * The acceptance, tried as a new user would, on one real `voxdesk serve --ui` with two accounts: the second
 * transcribes (PocketSphinx on jfk.wav) and speaks (eSpeak NG) but cannot import, delete, configure or read anything
 * of the first; the printed address logs a browser in while `curl` on the bootstrap gets 401.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { ROOT, startServeProcess, type ServeProcess } from '../../helpers/service.js';
import { requireCommand, requireFile, SHARED } from '../../helpers/system.js';
import { Client, expectError, json } from '../../helpers/http-client.js';
import { scaled } from '../../helpers/time-scale.js';

const run = promisify(execFile);
let work: string;
let serve: ServeProcess;
let owner: Client;
let guest: Client;

async function keyFor(dataDir: string, account: string): Promise<string> {
  const { stdout } = await run(process.execPath, [join(ROOT, 'bin/voxdesk.js'), 'keys', 'create', '--account', account, '--data-dir', dataDir], { cwd: ROOT });
  return stdout.trim();
}

beforeAll(async () => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
  requireCommand('curl');
  work = mkdtempSync(join(tmpdir(), 'voxdesk-acceptance-'));
  const ui = join(work, 'ui');
  mkdirSync(ui);
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>Voxdesk</title>');
  const dataDir = join(work, 'data');
  const ownerKey = await keyFor(dataDir, 'local');
  const guestKey = await keyFor(dataDir, 'guest');
  // Answers are held until the job ends: a cold PocketSphinx job on a machine busy with the rest of the suite
  // took close to a minute once.
  serve = await startServeProcess(dataDir, ['--ui', ui, '--hold-seconds', '150']);
  owner = new Client(serve.url, ownerKey);
  guest = new Client(serve.url, guestKey);
});
afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  rmSync(work, { recursive: true, force: true });
});

describe('two accounts on one serve --ui', () => {
  it('the second account transcribes and speaks', { timeout: scaled(240_000) }, async () => {
    const transcript = await json<Job>(
      guest.postForm('/v1/speech-to-text', [
        { name: 'model', value: 'pocketsphinx-en-us' },
        { name: 'file', file: { name: 'jfk.wav', data: new Uint8Array(readFileSync(join(SHARED, 'audio', 'jfk.wav'))) } },
      ]),
    );
    expect(transcript.status).toBe('succeeded');
    expect(String((transcript.result as { text: string }).text).toLowerCase()).toContain('country');
    const speech = await json<Job>(guest.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Hello from the second account.' }));
    expect(speech.status).toBe('succeeded');
  });

  it('but cannot import, delete, configure or read anything of the first', async () => {
    const ownersJob = await json<Job>(owner.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'The owner speaks.' }));
    const send = (method: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${serve.url}${path}`, { method, headers: guest.headers(body ? { 'content-type': 'application/json' } : {}), ...(body ? { body: JSON.stringify(body) } : {}) });
    for (const [method, path, body] of [
      ['POST', '/v1/local/models/import', { path: join(SHARED, 'models', 'tiny', 'tiny-nemo-ctc') }],
      ['POST', '/v1/local/models/gtcrn-simple/download'],
      ['DELETE', '/v1/local/models/gtcrn-simple'],
      ['GET', '/v1/local/models'],
      ['PUT', '/v1/settings/remote', { url: 'http://127.0.0.1:9' }],
      ['PUT', '/v1/settings/retention', { recordings_hours: 1 }],
      ['GET', '/v1/settings/remote'],
      ['GET', '/v1/settings/retention'],
      ['GET', '/v1/keys'],
      ['GET', `/v1/text-to-speech/${ownersJob.id}`],
    ] as [string, string, unknown?][]) {
      await expectError(send(method, path, body), 404, 'not_found');
    }
    const jobs = await json<{ data: Job[] }>(guest.get('/v1/jobs'));
    expect(jobs.data.some((j) => j.id === ownersJob.id)).toBe(false);
    expect(await json(guest.get('/v1/session'))).toMatchObject({ account: 'guest', data_dir: null });
    expect((await owner.get('/v1/local/models')).status).toBe(200);
  });

  it('the printed address logs a browser in, while curl on the bootstrap gets 401', async () => {
    await expect.poll(() => serve.stderr(), { timeout: scaled(30_000) }).toMatch(/browser UI: \S+#token=/);
    const loginUrl = /browser UI: (\S+)/.exec(serve.stderr())![1]!;
    const curl = execFileSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', `${serve.url}/v1/session/bootstrap`], { encoding: 'utf8' });
    expect(curl).toBe('401');
    const token = new URL(loginUrl).hash.slice('#token='.length);
    const session = await json<{ api_key: string; account: string }>(
      fetch(`${serve.url}/v1/session/bootstrap`, { method: 'POST', headers: { 'content-type': 'application/json', origin: serve.url }, body: JSON.stringify({ token }) }),
    );
    expect(session.account).toBe('local');
    expect((await new Client(serve.url, session.api_key).get('/v1/settings/retention')).status).toBe(200);
  });
});
