/**
 * The /v1/local/models routes through Hono's app.request (no port needed), with a real manager and download server,
 * behind the service's own error handler.
 */
import { Hono } from 'hono';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelManager } from '../../../../src-main/models/model-manager.js';
import { CURATED_LIST_VERSION } from '../../../../src-main/models/packages/curated-models.js';
import type { AppEnv } from '../../../../src-main/service/app-env.js';
import { handleErrors } from '../../../../src-main/service/http/error-handler.js';
import { modelManagerRoutes } from '../../../../src-main/service/routes/model-manager-routes.js';
import { openDatabase, type Db } from '../../../../src-main/store/database.js';
import { createSqliteStore } from '../../../../src-main/store/sqlite-store.js';
import { SHARED } from '../../../helpers/system.js';
import { startRangeServer, type RangeServer } from '../../../helpers/range-server.js';
import { silentLog } from '../../../../src-main/common/log.js';

let dir: string;
let db: Db;
let server: RangeServer;
let manager: ModelManager;
let app: Hono<AppEnv>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-mr-'));
  db = openDatabase(join(dir, 'voxdesk.db'));
  server = await startRangeServer({ '/gtcrn-simple/gtcrn_simple.onnx': { body: readFileSync(join(SHARED, 'models', 'gtcrn_simple.onnx')) } });
  manager = await ModelManager.open({ dataDir: dir, store: createSqliteStore(db, join(dir, 'voxdesk.db')), mirror: server.url, backoffMs: 10 });
  app = handleErrors(new Hono<AppEnv>(), silentLog).route('/', modelManagerRoutes(manager));
});

afterEach(async () => {
  await manager.stop();
  await server.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown, contentType = 'application/json') {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': contentType };
  }
  const res = await app.request(path, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('model manager routes', () => {
  it('lists packages, downloads one (202), shows it installed, and removes it', async () => {
    const list = await call('GET', '/v1/local/models');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', curated_list_version: CURATED_LIST_VERSION });
    const gtcrn = (list.body.data as Array<Record<string, unknown>>).find((p) => p.id === 'gtcrn-simple');
    expect(gtcrn).toMatchObject({ state: 'not_installed', installed: false, size_bytes: 535_638, capability: 'noise_reduction', licence: 'MIT' });

    const started = await call('POST', '/v1/local/models/gtcrn-simple/download');
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ id: 'gtcrn-simple', state: 'downloading' });
    await manager.whenDone('gtcrn-simple');
    const one = await call('GET', '/v1/local/models/gtcrn-simple');
    expect(one.body).toMatchObject({ state: 'installed', installed: true, verified: true, dir: join(dir, 'models', 'gtcrn-simple') });
    expect((await call('POST', '/v1/local/models/gtcrn-simple/download')).status).toBe(200);

    expect(await call('DELETE', '/v1/local/models/gtcrn-simple')).toEqual({ status: 200, body: { id: 'gtcrn-simple', object: 'local_model', deleted: true } });
    const again = await call('DELETE', '/v1/local/models/gtcrn-simple');
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
  });

  it('cancels a running download', async () => {
    server.files.set('/gtcrn-simple/gtcrn_simple.onnx', { body: readFileSync(join(SHARED, 'models', 'gtcrn_simple.onnx')), slowChunkMs: 200 });
    await call('POST', '/v1/local/models/gtcrn-simple/download');
    const cancelled = await call('DELETE', '/v1/local/models/gtcrn-simple/download');
    expect(cancelled).toMatchObject({ status: 200, body: { id: 'gtcrn-simple', state: 'not_installed' } });
    expect(await call('DELETE', '/v1/local/models/gtcrn-simple/download')).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
  });

  it('answers unknown ids with 404 not_found', async () => {
    for (const [method, path] of [
      ['GET', '/v1/local/models/nope'],
      ['POST', '/v1/local/models/nope/download'],
      ['DELETE', '/v1/local/models/nope/download'],
      ['DELETE', '/v1/local/models/nope'],
    ] as const) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((res.body.error as { code: string }).code).toBe('not_found');
    }
  });

  it('imports a folder (202, then installed) and refuses bad import bodies', async () => {
    const ok = await call('POST', '/v1/local/models/import', { path: join(SHARED, 'models', 'tiny', 'tiny-nemo-ctc'), id: 'ctc', languages: ['en'] });
    expect(ok.status).toBe(202);
    expect(ok.body).toMatchObject({ id: 'ctc', family: 'nemo-ctc', state: 'importing', source: 'imported', languages: ['en'] });
    await manager.whenImported('ctc');
    expect((await call('GET', '/v1/local/models/ctc')).body).toMatchObject({ id: 'ctc', family: 'nemo-ctc', state: 'installed', installed: true });

    expect(await call('POST', '/v1/local/models/import', 'path=x', 'text/plain')).toMatchObject({ status: 415, body: { error: { code: 'unsupported_media_type' } } });
    expect(await call('POST', '/v1/local/models/import', '{nope')).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
    expect(await call('POST', '/v1/local/models/import', {})).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', message: expect.stringContaining('path is required') } } });
    expect(await call('POST', '/v1/local/models/import', { path: 42 })).toMatchObject({ status: 400, body: { error: { message: 'path must be a string, not the number 42: send it in quotes' } } });
    expect(await call('POST', '/v1/local/models/import', { path: '/x', languages: 'en' })).toMatchObject({ status: 400, body: { error: { message: 'languages must be an array of strings' } } });
    expect(await call('POST', '/v1/local/models/import', { path: join(dir, 'missing') })).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('does not exist') } } });
    expect(await call('POST', '/v1/local/models/import', { path: join(SHARED, 'models', 'tiny', 'tiny-nemo-ctc'), id: 'ctc' })).toMatchObject({ status: 409 });
  });
});
