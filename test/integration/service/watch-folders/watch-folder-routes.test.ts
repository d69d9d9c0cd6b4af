/**
 * GET/PUT /v1/settings/watch-folders over real HTTP: the saved list and its status, persistence across a restart,
 * and every bad input refused with its code and the folder named, changing nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchFolder } from '../../../../src-main/common/watch-folder-types.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { FAST_WATCH, putFolders, WATCH_PATH } from '../../../helpers/watch-folders.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
let work: string;
let dir: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-watch-routes-'));
  dir = join(work, 'recordings');
  mkdirSync(dir);
  t = await startTestService({ watchTimings: FAST_WATCH, dataDir: join(work, 'data') });
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const list = async (client: Client = api): Promise<WatchFolder[]> => (await json<{ folders: WatchFolder[] }>(client.get(WATCH_PATH))).folders;

function putRaw(body: string, type = 'application/json', client: Client = api): Promise<Response> {
  return fetch(api.url + WATCH_PATH, { method: 'PUT', headers: client.headers({ 'content-type': type }), body });
}

describe('watch folder settings route', () => {
  it('answers no folders at first, then the saved list with defaults filled in and a status', async () => {
    const first = await api.get(WATCH_PATH);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await json(first)).toEqual({ folders: [] });

    const saved = await json<{ folders: WatchFolder[] }>(putFolders(api, [{ path: `${dir}/`, model: 'test-asr', formats: ['srt', 'txt'] }]));
    expect(saved.folders).toHaveLength(1);
    expect(saved.folders[0]).toMatchObject({ path: dir, model: 'test-asr', params: {}, output_dir: null, formats: ['srt', 'txt'] });
    expect(saved.folders[0]!.status).toMatchObject({ error: null, files_waiting: 0, files_queued: 0, files_done: 0, files_failed: 0, files_skipped: 0, last_failure: null });
    expect(Object.keys(saved.folders[0]!.status).sort()).toEqual(
      ['error', 'files_done', 'files_failed', 'files_queued', 'files_skipped', 'files_waiting', 'last_failure', 'last_scan_at', 'next_retry_at', 'state'],
    );
    expect((await list())[0]).toMatchObject({ path: dir, formats: ['srt', 'txt'] });
  });

  it('keeps the list across a restart and watches it again', async () => {
    await json(putFolders(api, [{ path: dir, model: 'test-asr', params: { language: 'en' }, output_dir: join(work, 'out'), formats: ['vtt'] }]));
    await t.stop();
    t = await startTestService({ watchTimings: FAST_WATCH, dataDir: join(work, 'data') });
    api = new Client(t.url, t.key);
    const [folder] = await list();
    expect(folder).toMatchObject({ path: dir, model: 'test-asr', params: { language: 'en' }, output_dir: join(work, 'out'), formats: ['vtt'] });
    expect(['starting', 'scanning', 'watching']).toContain(folder!.status.state);
  });

  it('refuses a new folder that does not exist or is a file, naming it; a saved folder that went missing stays', async () => {
    const before = await list();
    const later = join(work, 'later');
    expect(await expectError(putFolders(api, [{ path: later, model: 'test-asr', formats: ['srt'] }]), 400, 'folder_missing')).toMatch(
      new RegExp(`folders\\[0\\]\\.path ${later} does not exist: create the folder`),
    );
    const file = join(work, 'a-file.txt');
    writeFileSync(file, 'x');
    const saved = before.map(({ path, model, params, output_dir, formats }) => ({ path, model, params, output_dir, formats }));
    expect(await expectError(putFolders(api, [...saved, { path: file, model: 'test-asr', formats: ['srt'] }]), 400, 'folder_not_directory')).toMatch(/folders\[1\]\.path .*a-file\.txt is a file, not a folder/);
    expect(await list()).toEqual(before);

    // Saved while it existed, then gone (a recorder unplugged): the list can still be saved with it, its status says why.
    mkdirSync(later);
    await json(putFolders(api, [{ path: later, model: 'test-asr', formats: ['srt'] }]));
    rmSync(later, { recursive: true });
    const [kept] = (await json<{ folders: WatchFolder[] }>(putFolders(api, [{ path: later, model: 'test-asr', formats: ['srt', 'txt'] }]))).folders;
    expect(kept).toMatchObject({ path: later, formats: ['srt', 'txt'] });
    await expect.poll(async () => (await list())[0]!.status.error?.code, { timeout: scaled(20_000) }).toBe('folder_missing');
  });

  it('refuses every bad folder with its code, naming the folder, and keeps the saved list', async () => {
    const good = { path: dir, model: 'test-asr', formats: ['srt'] };
    await json(putFolders(api, [good]));
    const before = await list();
    const cases: [unknown, number, string, RegExp][] = [
      [[{ ...good, path: 'recordings' }], 400, 'invalid_request', /folders\[0\]\.path must be an absolute path \(got "recordings"\)/],
      [[{ ...good, path: '' }], 400, 'invalid_request', /folders\[0\]\.path must be a non-empty string/],
      [[{ ...good, path: 42 }], 400, 'invalid_request', /folders\[0\]\.path must be a non-empty string/],
      [[{ ...good, path: `${dir}\0x` }], 400, 'invalid_request', /NUL/],
      [[{ model: 'test-asr', formats: ['srt'] }], 400, 'invalid_request', /folders\[0\]\.path/],
      [[{ ...good, model: undefined }], 400, 'model_required', /folders\[0\]\.model is required/],
      [[{ ...good, model: 7 }], 400, 'invalid_request', /folders\[0\]\.model must be a string/],
      [[{ ...good, model: 'no-such-model' }], 400, 'invalid_request', /folders\[0\]: unknown model "no-such-model"/],
      [[{ ...good, model: 'test-tts' }], 400, 'invalid_params', /folders\[0\]: model test-tts does not serve product speech-to-text/],
      [[{ ...good, model: 'test-missing' }], 422, 'model_unavailable', /folders\[0\]: model test-missing is unavailable: not downloaded/],
      [[{ ...good, params: { temperature: 1 } }], 400, 'unsupported_param', /folders\[0\]: .*temperature/],
      [[{ ...good, params: { count: 0 } }], 400, 'invalid_params', /folders\[0\]: params\.count must be >= 1/],
      [[{ ...good, params: 'fast' }], 400, 'invalid_params', /folders\[0\]: params must be a JSON object/],
      [[{ ...good, params: [] }], 400, 'invalid_params', /params must be a JSON object/],
      [[{ ...good, output_dir: 'out' }], 400, 'invalid_request', /folders\[0\]\.output_dir must be an absolute path/],
      [[{ ...good, output_dir: 3 }], 400, 'invalid_request', /folders\[0\]\.output_dir must be a non-empty string/],
      [[{ ...good, formats: undefined }], 400, 'invalid_request', /folders\[0\]\.formats must be a non-empty array of export formats \(txt, srt, vtt, json, docx\)/],
      [[{ ...good, formats: [] }], 400, 'invalid_request', /folders\[0\]\.formats must be a non-empty array/],
      [[{ ...good, formats: 'srt' }], 400, 'invalid_request', /folders\[0\]\.formats must be a non-empty array/],
      [[{ ...good, formats: ['srt', 'pdf'] }], 400, 'invalid_request', /folders\[0\]\.formats\[1\] must be one of txt, srt, vtt, json, docx \(got "pdf"\)/],
      [[{ ...good, formats: ['srt', 'srt'] }], 400, 'invalid_request', /formats lists srt twice/],
      [[{ ...good, formats: [1] }], 400, 'invalid_request', /formats\[0\] must be one of/],
      [[{ ...good, colour: 'red' }], 400, 'unsupported_param', /unknown field "folders\[0\]\.colour"; a watch folder takes path, model, params, output_dir, formats/],
      [[{ ...good, status: { state: 'watching' } }], 400, 'unsupported_param', /folders\[0\]\.status is read-only/],
      [[good, 'folder'], 400, 'invalid_request', /folders\[1\] must be an object/],
      [[good, null], 400, 'invalid_request', /folders\[1\] must be an object/],
      [[good, { ...good, model: 'test-asr-small' }], 400, 'invalid_request', /folders\[1\]\.path .* is already folders\[0\]/],
      [[good, { ...good, path: join(dir, 'sub') }], 400, 'invalid_request', /folders\[1\]\.path .*sub is inside folders\[0\]\.path/],
      [[{ ...good, path: join(dir, 'sub') }, good], 400, 'invalid_request', /folders\[0\]\.path .*sub is inside folders\[1\]\.path/],
      [Array.from({ length: 21 }, (_, i) => ({ ...good, path: join(work, `f${i}`) })), 400, 'invalid_request', /at most 20 watch folders; got 21/],
      ['all', 400, 'invalid_request', /folders is required: an array/],
    ];
    for (const [folders, status, code, message] of cases) {
      expect(await expectError(putFolders(api, folders), status, code), JSON.stringify(folders).slice(0, 120)).toMatch(message);
    }
    expect(await expectError(putRaw('{}'), 400, 'invalid_request')).toMatch(/folders is required/);
    expect(await expectError(putRaw(JSON.stringify({ folders: [], paused: true })), 400, 'unsupported_param')).toMatch(/unknown field "paused"/);
    await expectError(putRaw('{"folders":'), 400, 'invalid_json');
    await expectError(putRaw('[]'), 400, 'invalid_json');
    await expectError(putRaw('folders=[]', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    // The saved settings are unchanged (the status may move on meanwhile: a scan can finish on a loaded machine).
    const settingsOf = (folders: WatchFolder[]) => folders.map(({ status: _status, ...config }) => config);
    expect(settingsOf(await list())).toEqual(settingsOf(before));
  });

  it('a sibling folder whose name starts like another is not "inside" it, and [] stops watching', async () => {
    mkdirSync(join(work, 'recordings-old'), { recursive: true });
    const folders = (await json<{ folders: WatchFolder[] }>(putFolders(api, [
      { path: dir, model: 'test-asr', formats: ['srt'] },
      { path: join(work, 'recordings-old'), model: 'test-asr', formats: ['txt'] },
    ]))).folders;
    expect(folders.map((f) => f.path)).toEqual([dir, join(work, 'recordings-old')]);
    expect(await json(putFolders(api, []))).toEqual({ folders: [] });
    expect(await list()).toEqual([]);
  });

  it('needs a key, and only the local account may read or change the folders', async () => {
    await expectError(new Client(t.url, null).get(WATCH_PATH), 401, 'unauthorized');
    await expectError(putFolders(new Client(t.url, 'vdk_wrong'), []), 401, 'unauthorized');
    const guest = new Client(t.url, (await t.service.keys.createKey('guest')));
    await expectError(guest.get(WATCH_PATH), 404, 'not_found');
    await expectError(putFolders(guest, [{ path: dir, model: 'test-asr', formats: ['srt'] }]), 404, 'not_found');
    expect(await list()).toEqual([]);
  });
});
