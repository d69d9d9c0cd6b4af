import { Hono } from 'hono';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { RememberedRoutes } from '../../../../src-main/service/http/remembered-routes.js';

const ROUTES: [string, string][] = [
  ['ALL', '/v1/*'],
  ['GET', '/v1/jobs'],
  ['GET', '/v1/:product/batch/:batchId'],
  ['GET', '/v1/:product/:jobId'],
  ['POST', '/v1/:product/:jobId/cancel'],
  ['POST', '/v1/local/models/import'],
  ['POST', '/v1/local/models/:id/download'],
];

function both(size?: number): { remembered: RememberedRoutes<string>; trie: TrieRouter<string> } {
  const remembered = new RememberedRoutes<string>(size);
  const trie = new TrieRouter<string>();
  for (const [method, path] of ROUTES) {
    remembered.add(method, path, `${method} ${path}`);
    trie.add(method, path, `${method} ${path}`);
  }
  return { remembered, trie };
}

describe('remembered routes', () => {
  it('answers exactly as TrieRouter, the first time and when asked again', () => {
    const { remembered, trie } = both();
    const asked: [string, string][] = [
      ['GET', '/v1/jobs'],
      ['GET', '/v1/text-to-speech/job_1'],
      ['GET', '/v1/text-to-speech/job_2'],
      ['GET', '/v1/speech-to-text/batch/bat_1'],
      ['POST', '/v1/text-to-speech/job_1/cancel'],
      ['POST', '/v1/local/models/import'],
      ['POST', '/v1/local/models/kokoro/download'],
      ['DELETE', '/v1/nothing/here/at/all'],
      ['GET', `/v1/text-to-speech/${'x'.repeat(500)}`],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [method, path] of asked) expect(remembered.match(method, path)).toEqual(trie.match(method, path));
    }
  });

  it('keeps the params of each path apart', () => {
    const { remembered } = both();
    const first = remembered.match('GET', '/v1/text-to-speech/job_1');
    const second = remembered.match('GET', '/v1/speech-to-text/job_2');
    expect(first[0].at(-1)?.[1]).toEqual({ product: 'text-to-speech', jobId: 'job_1' });
    expect(second[0].at(-1)?.[1]).toEqual({ product: 'speech-to-text', jobId: 'job_2' });
    expect(remembered.match('GET', '/v1/text-to-speech/job_1')[0].at(-1)?.[1]).toEqual({ product: 'text-to-speech', jobId: 'job_1' });
  });

  it('forgets what it knew when a route is added later', () => {
    const { remembered } = both();
    expect(remembered.match('GET', '/v1/queue')[0].map(([handler]) => handler)).toEqual(['ALL /v1/*']);
    remembered.add('GET', '/v1/queue', 'GET /v1/queue');
    expect(remembered.match('GET', '/v1/queue')[0].map(([handler]) => handler)).toEqual(['ALL /v1/*', 'GET /v1/queue']);
  });

  it('keeps at most `size` paths and stays correct past it', () => {
    const { remembered, trie } = both(3);
    for (let i = 0; i < 10; i++) {
      const path = `/v1/text-to-speech/job_${i}`;
      expect(remembered.match('GET', path)).toEqual(trie.match('GET', path));
    }
    expect(remembered.match('GET', '/v1/text-to-speech/job_0')).toEqual(trie.match('GET', '/v1/text-to-speech/job_0'));
  });

  it('is needed: RegExpRouter refuses this API’s shape (a parameter beside a fixed segment)', () => {
    const router = new RegExpRouter<string>();
    expect(() => {
      for (const [method, path] of ROUTES) router.add(method, path, path);
      router.match('GET', '/v1/jobs');
    }).toThrow(/UnsupportedPath|\/v1/);
  });

  it('serves a Hono app with the same answers', async () => {
    const app = new Hono({ router: new RememberedRoutes() });
    app.get('/v1/jobs', (c) => c.text('list'));
    app.get('/v1/:product/:jobId', (c) => c.text(`${c.req.param('product')} ${c.req.param('jobId')}`));
    for (let i = 0; i < 2; i++) {
      expect(await (await app.request('/v1/jobs')).text()).toBe('list');
      expect(await (await app.request('/v1/text-to-speech/job_9')).text()).toBe('text-to-speech job_9');
      expect(await (await app.request('/v1/speech-to-text/job_8')).text()).toBe('speech-to-text job_8');
    }
  });
});
