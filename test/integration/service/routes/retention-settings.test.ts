/** GET/PUT /v1/settings/retention over real HTTP: defaults, partial updates, persistence, and every bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRetention } from '../../../../src-main/jobs/retention/retention-policy.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService();
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
});

const PATH = '/v1/settings/retention';

function put(body: unknown, client: Client = api, type = 'application/json'): Promise<Response> {
  return fetch(client.url + PATH, {
    method: 'PUT',
    headers: client.headers({ 'content-type': type }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('retention settings routes', () => {
  it('answers the defaults: recordings as long as their job, history forever, links one day, and the disk used', async () => {
    const response = await api.get(PATH);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await json(response)).toEqual({ recordings_hours: null, job_history_days: null, artifact_link_hours: 24, recordings_bytes: 0 });
    // An upload is kept on disk and counted.
    const form = new FormData();
    form.append('model', 'test-asr');
    form.append('file', new Blob([new Uint8Array(3000).fill(7)]), 'a.wav');
    expect((await fetch(`${t.url}/v1/speech-to-text`, { method: 'POST', headers: api.headers(), body: form })).status).toBe(200);
    expect(await json(api.get(PATH))).toMatchObject({ recordings_bytes: 3000 });
  });

  it('stores a change, keeps omitted fields, and the job engine reads the same policy', async () => {
    const links = { artifact_link_hours: 24, recordings_bytes: 3000 };
    expect(await json(put({ recordings_hours: 72, job_history_days: 30 }))).toEqual({ recordings_hours: 72, job_history_days: 30, ...links });
    expect(await json(put({ job_history_days: null }))).toEqual({ recordings_hours: 72, job_history_days: null, ...links });
    expect(await json(put({ recordings_hours: 8760 }))).toEqual({ recordings_hours: 8760, job_history_days: null, ...links });
    expect(await json(put({ recordings_hours: null }))).toEqual({ recordings_hours: null, job_history_days: null, ...links });
    expect(await json(put({ recordings_hours: 1, job_history_days: 3650 }))).toMatchObject({ recordings_hours: 1, job_history_days: 3650 });
    expect(await json(api.get(PATH))).toEqual({ recordings_hours: 1, job_history_days: 3650, ...links });
    // What is stored, read as the job engine reads it.
    expect(await readRetention(t.service.store.repos.settings)).toEqual({ recordings_hours: 1, job_history_days: 3650 });
  });

  it('refuses out-of-range and mistyped values with invalid_params naming the field, changing nothing', async () => {
    const before = await json(api.get(PATH));
    for (const bad of [0, -1, 8761, 1.5, '24', true, [24], { h: 1 }]) {
      const message = await expectError(put({ recordings_hours: bad }), 400, 'invalid_params');
      expect(message).toMatch(/recordings_hours must be null \(as long as the job\) or a whole number of hours from 1 to 8760/);
    }
    for (const bad of [0, -7, 3651, 2.5, '30', false, 'forever']) {
      const message = await expectError(put({ job_history_days: bad }), 400, 'invalid_params');
      expect(message).toMatch(/job_history_days must be null \(keep forever\) or a whole number of days from 1 to 3650/);
    }
    // One bad field refuses the whole request: the good one is not stored either.
    await expectError(put({ recordings_hours: 48, job_history_days: 0 }), 400, 'invalid_params');
    expect(await expectError(put({}), 400, 'invalid_params')).toMatch(/recordings_hours and\/or job_history_days/);
    expect(await json(api.get(PATH))).toEqual(before);
  });

  it('refuses unknown fields (artifact links cannot be set) with unsupported_param', async () => {
    expect(await expectError(put({ artifact_link_hours: 48 }), 400, 'unsupported_param')).toMatch(/artifact_link_hours.*24 hours/);
    expect(await expectError(put({ recordings_hours: 48, keep: true }), 400, 'unsupported_param')).toMatch(/unknown field "keep"/);
  });

  it('refuses bodies that are not a JSON object', async () => {
    await expectError(put('recordings_hours=48', api, 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    await expectError(put('{"recordings_hours":', api), 400, 'invalid_json');
    await expectError(put([{ recordings_hours: 48 }]), 400, 'invalid_json');
    await expectError(put('null'), 400, 'invalid_json');
  });

  it('needs a key, and only the local account may read or change the policy', async () => {
    await expectError(new Client(t.url, null).get(PATH), 401, 'unauthorized');
    await expectError(put({ recordings_hours: 48 }, new Client(t.url, 'vdk_wrong')), 401, 'unauthorized');
    const guest = new Client(t.url, (await t.service.keys.createKey('guest')));
    await expectError(guest.get(PATH), 404, 'not_found'); // the machine's settings are the local account's
    await expectError(put({ recordings_hours: 48 }, guest), 404, 'not_found');
    expect(await json(api.get(PATH))).not.toHaveProperty('recordings_hours', 48);
  });
});
