/**
 * Imports that cannot read the machine: links out of the chosen folder are not followed (their targets are neither
 * copied nor named), links inside it are, pipes are never opened, errors name what is missing and not the folder's
 * files; and an import of a large folder runs in the background with progress while the service keeps answering.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';

const TINY_CTC = join(SHARED, 'models', 'tiny', 'tiny-nemo-ctc');
const SECRET = 'the-private-diary-of-the-owner';

let t: TestService;
let local: Client;
let work: string;
let outside: string;

beforeAll(async () => {
  t = await startTestService();
  local = new Client(t.url, t.key);
  work = mkdtempSync(join(tmpdir(), 'voxdesk-import-sec-'));
  outside = join(work, 'outside');
  mkdirSync(join(outside, 'private'), { recursive: true });
  writeFileSync(join(outside, 'private', 'diary.txt'), SECRET);
  copyFileSync(join(TINY_CTC, 'model.onnx'), join(outside, 'model.onnx'));
});
afterAll(async () => {
  await t?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A nemo-ctc model folder with the tiny model's files. */
function modelFolder(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  copyFileSync(join(TINY_CTC, 'tokens.txt'), join(dir, 'tokens.txt'));
  return dir;
}

async function importAndWait(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const started = await json<{ id: string; state: string }>(local.postJson('/v1/local/models/import', body), 202);
  expect(started.state).toBe('importing');
  await t.service.models.whenImported(started.id);
  return json(local.get(`/v1/local/models/${started.id}`));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('links', () => {
  it('links pointing outside the folder are neither followed nor copied; links inside are', async () => {
    const dir = modelFolder('with-links');
    copyFileSync(join(TINY_CTC, 'model.onnx'), join(dir, 'model.onnx'));
    symlinkSync(join(outside, 'private'), join(dir, 'private-folder'));
    symlinkSync(join(outside, 'private', 'diary.txt'), join(dir, 'notes.txt'));
    symlinkSync('/nonexistent/target', join(dir, 'dangling'));
    symlinkSync('model.onnx', join(dir, 'model-copy.onnx'));
    execFileSync('mkfifo', [join(dir, 'a-pipe')]);

    const status = await importAndWait({ path: dir, id: 'with-links' });
    expect(status).toMatchObject({ state: 'installed', family: 'nemo-ctc' });
    const installed = join(t.dataDir, 'models', 'with-links');
    expect(filesUnder(installed)).toEqual(['model-copy.onnx', 'model.onnx', 'tokens.txt']);
    expect(readFileSync(join(installed, 'model-copy.onnx'))).toEqual(readFileSync(join(TINY_CTC, 'model.onnx')));
    for (const file of filesUnder(installed)) expect(readFileSync(join(installed, file)).includes(SECRET)).toBe(false);
  });

  it('a model file that is a link out of the folder is missing: the error says what is missing, not what the folder holds', async () => {
    const dir = modelFolder('linked-model');
    symlinkSync(join(outside, 'model.onnx'), join(dir, 'model.onnx'));
    writeFileSync(join(dir, 'my-tax-return-2025.pdf'), 'numbers');
    const message = await expectError(local.postJson('/v1/local/models/import', { path: dir, id: 'linked-model', family: 'nemo-ctc' }), 400, 'invalid_request');
    expect(message).toContain('does not hold a nemo-ctc model: needs model*.onnx and tokens.txt');
    expect(message).toContain('1 link(s) pointing outside the folder were not followed');
    expect(message).not.toContain('my-tax-return');
    const guessed = await expectError(local.postJson('/v1/local/models/import', { path: dir, id: 'linked-model' }), 400, 'invalid_request');
    expect(guessed).not.toContain('my-tax-return');
    expect(existsSync(join(t.dataDir, 'models', 'linked-model'))).toBe(false);
  });

  it('a chosen folder that is itself a link (a folder on another disk) is imported', async () => {
    const dir = modelFolder('real-folder');
    copyFileSync(join(TINY_CTC, 'model.onnx'), join(dir, 'model.onnx'));
    symlinkSync(dir, join(work, 'shortcut'));
    expect(await importAndWait({ path: join(work, 'shortcut'), id: 'via-shortcut' })).toMatchObject({ state: 'installed' });
  });
});

describe('a large import', () => {
  it('runs in the background with progress: the service answers while it copies', async () => {
    const dir = modelFolder('large');
    const model = join(dir, 'model.onnx');
    writeFileSync(model, '');
    truncateSync(model, 256 * 1024 * 1024);
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, `extra-${i}.txt`), 'x'.repeat(10_000));

    const events: string[] = [];
    let progressSeen: number | null = null;
    t.service.models.on('progress', (p) => {
      if (p.id === 'large' && p.state === 'importing' && p.progress !== null && p.progress > 0 && p.progress < 1) progressSeen ??= p.progress;
    });
    const started = await json<{ id: string; state: string; size_bytes: number }>(local.postJson('/v1/local/models/import', { path: dir, id: 'large' }), 202);
    expect(started).toMatchObject({ state: 'importing', size_bytes: 256 * 1024 * 1024 + 200 * 10_000 + statSync(join(dir, 'tokens.txt')).size });
    const finished = t.service.models.whenImported('large').then(() => events.push('import finished'));
    const health = fetch(`${t.url}/v1/health`).then(async (r) => {
      events.push(`health ${r.status}`);
      return r;
    });
    const during = await json<{ state: string }>(local.get('/v1/local/models/large'));
    events.push(`status ${during.state}`);
    await Promise.all([finished, health]);
    // Answered before the import finished (a synchronous copy would have answered them after it).
    expect(events.slice(0, 2).sort()).toEqual(['health 200', 'status importing']);
    expect(events[2]).toBe('import finished');
    expect(progressSeen).not.toBeNull();
    expect(await json(local.get('/v1/local/models/large'))).toMatchObject({ state: 'installed', installed: true });
  });

  it('can be cancelled, leaving nothing behind', async () => {
    const dir = modelFolder('to-cancel');
    const model = join(dir, 'model.onnx');
    writeFileSync(model, '');
    truncateSync(model, 256 * 1024 * 1024);
    await json(local.postJson('/v1/local/models/import', { path: dir, id: 'to-cancel' }), 202);
    const cancelled = await json<{ state: string }>(fetch(`${t.url}/v1/local/models/to-cancel/download`, { method: 'DELETE', headers: local.headers() }));
    expect(cancelled.state).toBe('not_installed');
    expect(await t.service.models.whenImported('to-cancel')).toBeNull();
    await expectError(local.get('/v1/local/models/to-cancel'), 404, 'not_found');
    expect(existsSync(join(t.dataDir, 'models', 'to-cancel'))).toBe(false);
    await expect.poll(() => readdirSync(join(t.dataDir, 'models', '.staging'))).toEqual([]);
  });
});
