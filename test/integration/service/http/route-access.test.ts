/**
 * Routes declare what they need of their caller in their own files (service/http/route-access.ts), and the one key
 * check honours it over real HTTP, on fused reads and on unfused writes alike: public routes answer without a key,
 * key-optional health checks a key only when one is sent, only the recording takes `?api_key=`, and every route that
 * declares nothing — or a path no route serves — needs a key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${svc.url}${path}`, { headers });
const code = async (response: Response): Promise<string | undefined> => ((await response.json()) as { error?: { code?: string } }).error?.code;

describe('route access', () => {
  it('public routes answer without a key: the catalogue, a model, a quote, artifact links', async () => {
    expect((await get('/v1/models')).status).toBe(200);
    expect((await get('/v1/models/test-asr')).status).toBe(200);
    expect((await get('/v1/models/test-asr/quote?seconds=60')).status).toBe(200);
    const artifact = await get('/v1/artifacts/no-such-token/a.wav');
    expect(artifact.status).toBe(404); // looked up, not refused for want of a key
    expect(await code(artifact)).toBe('not_found');
  });

  it("the UI bootstrap is public on both its methods, and checks its caller itself", async () => {
    const read = await get('/v1/session/bootstrap');
    expect(await code(read)).not.toBe(undefined);
    const post = await fetch(`${svc.url}/v1/session/bootstrap`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":"wrong"}' });
    // Refused by the route's own token check (no browser login on this service), not by the key check before it.
    expect(post.status).not.toBe(200);
    expect(((await post.json()) as { error: { message: string } }).error.message).not.toMatch(/Authorization: Bearer/);
  });

  it('health needs no key, checks one that is sent, and shows more to the administering key', async () => {
    const open = await get('/v1/health');
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ status: 'ok' });
    expect((await get('/v1/health', { authorization: 'Bearer vdk_wrongwrongwrongwrongwrongwrong00' })).status).toBe(401);
    const keyed = (await (await get('/v1/health', { authorization: `Bearer ${svc.key}` })).json()) as Record<string, unknown>;
    expect(keyed).toHaveProperty('queued');
  });

  it('a route that declares nothing needs a key, and does not take it from the query', async () => {
    expect((await get('/v1/jobs')).status).toBe(401);
    expect((await get(`/v1/jobs?api_key=${svc.key}`)).status).toBe(401);
    expect((await get('/v1/jobs', { authorization: `Bearer ${svc.key}` })).status).toBe(200);
    const write = await fetch(`${svc.url}/v1/vocabulary`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(write.status).toBe(401);
  });

  it('only the recording takes the key as ?api_key= (for <audio src>)', async () => {
    const missing = await get(`/v1/speech-to-text/job_none/audio?api_key=${svc.key}`);
    expect(missing.status).toBe(404); // the key was taken: the job is looked up
    expect((await get('/v1/speech-to-text/job_none/audio')).status).toBe(401);
  });

  it('a path no route serves needs a key before it is a 404', async () => {
    expect((await get('/v1/no-such-route')).status).toBe(401);
    expect((await get('/v1/no-such-route', { authorization: `Bearer ${svc.key}` })).status).toBe(404);
  });
});
