/**
 * The operator's figures on one node (service/ops/metrics.ts, routes/health-routes.ts) over real HTTP on the embedded
 * store: GET /metrics needs the administering key and answers the Prometheus text format — the node's role, the
 * queue, claims, finished jobs by outcome, requests by status — and /v1/health names the role and the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import { Client } from '../../../helpers/http-client.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService({ holdSeconds: 30, workers: 1 });
  api = new Client(t.url, t.key);
}, scaled(60_000));
afterAll(() => t?.stop());

describe('GET /metrics', () => {
  it('is refused without the administering key, and to other accounts', async () => {
    expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
    const other = new Client(t.url, await t.service.keys.createKey('someone-else'));
    expect((await other.get('/metrics')).status).toBe(401);
  });

  it('counts the node’s claims, finished jobs and requests in the Prometheus text format', async () => {
    const job = (await (await api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'Counted once.' })).json()) as Job;
    expect(job.status).toBe('succeeded');
    const response = await api.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/^voxdesk_node_info\{role="standalone",node="[^"]+"\} 1$/m);
    expect(text).toMatch(/^voxdesk_jobs_claimed_total [1-9]\d*$/m);
    expect(text).toMatch(/^voxdesk_jobs_finished_total\{product="text-to-speech",outcome="succeeded"\} [1-9]\d*$/m);
    expect(text).toMatch(/^voxdesk_lease_expiries_total 0$/m);
    expect(text).toMatch(/^voxdesk_http_requests_total\{method="POST",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^voxdesk_http_request_duration_seconds_bucket\{le="\+Inf",method="POST"\} [1-9]\d*$/m);
    expect(text).toContain('# TYPE voxdesk_queue_jobs gauge');
  }, scaled(60_000));
});

describe('GET /v1/health', () => {
  it('names the node’s role and its database for the administering key, and nothing more for others', async () => {
    expect(await (await api.get('/v1/health')).json()).toMatchObject({ status: 'ok', role: 'standalone', database: 'ok' });
    expect(await (await fetch(`${t.url}/v1/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${t.url}/health`)).json()).toEqual({ status: 'ok' });
  });
});
