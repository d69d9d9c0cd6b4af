import { Hono } from 'hono';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src-main/common/errors.js';
import { corsHeaders } from '../../../../src-main/service/http/cors-headers.js';
import { handleErrors } from '../../../../src-main/service/http/error-handler.js';
import { REMEMBERED_PATHS, RememberedRoutes } from '../../../../src-main/service/http/remembered-routes.js';
import { fuseGates, gate, type HonoEntry } from '../../../../src-main/service/http/route-gates.js';
import { silentLog } from '../../../../src-main/common/log.js';

type Env = { Variables: { seen: string[] } };

/** An app as buildApp makes it: gates on /v1/*, the router folding them, the central error handler. */
function gatedApp(extra?: (app: Hono<Env>) => void): { app: Hono<Env>; router: RememberedRoutes<HonoEntry>; order: string[] } {
  const order: string[] = [];
  const router = new RememberedRoutes(REMEMBERED_PATHS, fuseGates);
  const app = handleErrors(new Hono<Env>({ router: router as never }), silentLog);
  app.use(
    '/v1/*',
    corsHeaders({ allowOrigin: (o) => (o === 'http://ok.test' ? o : null), allowMethods: ['GET'], allowHeaders: ['Authorization'], exposeHeaders: ['X-Id'], maxAge: 60 }),
  );
  app.use(
    '/v1/*',
    gate((c) => {
      order.push('first');
      if (c.req.header('x-refuse')) throw new ApiError('unauthorized', 'refused by the first gate');
      c.set('seen', ['first']);
      return undefined;
    }),
  );
  app.use(
    '/v1/*',
    gate((c) => {
      order.push('second');
      if (c.req.header('x-early')) return c.text('early', 202);
      c.get('seen').push('second');
      return undefined;
    }),
  );
  extra?.(app);
  app.get('/v1/things/:id', (c) => {
    order.push('route');
    if (c.req.param('id') === 'boom') throw new ApiError('not_found', 'no thing boom');
    return c.json({ id: c.req.param('id'), seen: c.get('seen') });
  });
  app.get('/v1/raw/:id', () => new Response('raw body', { headers: { 'content-type': 'text/plain' } }));
  app.get('/v1/later/:id', async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return c.json({ id: c.req.param('id'), later: true });
  });
  return { app, router, order };
}

let server: Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

async function overHttp(app: Hono<Env>): Promise<string> {
  const listening = createServer(getRequestListener(app.fetch));
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

describe('route gates', () => {
  it('folds the gates into the route: one handler, run in order, with the route’s parameters', async () => {
    const { app, router, order } = gatedApp();
    expect(router.match('GET', '/v1/things/a')[0]).toHaveLength(1);
    const response = await app.request('/v1/things/a');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'a', seen: ['first', 'second'] });
    expect(order).toEqual(['first', 'second', 'route']);
  });

  it('answers a route that answers at once at once (no promise for the adapter to wait on)', () => {
    const { app } = gatedApp();
    const answer = app.fetch(new Request('http://x.test/v1/things/a'));
    expect(answer).toBeInstanceOf(Response);
  });

  it('lets a gate answer early, and a throwing gate reach the central error handler; the route never runs', async () => {
    const { app, order } = gatedApp();
    const early = await app.request('/v1/things/a', { headers: { 'x-early': '1' } });
    expect(early.status).toBe(202);
    expect(await early.text()).toBe('early');
    const refused = await app.request('/v1/things/a', { headers: { 'x-refuse': '1' } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    expect(order).not.toContain('route');
  });

  it('sends the CORS headers on JSON, raw, late and error answers, with and without node:http', async () => {
    const { app } = gatedApp();
    const url = await overHttp(app);
    const headers = { origin: 'http://ok.test' };
    for (const send of [(path: string) => app.request(path, { headers }), (path: string) => fetch(`${url}${path}`, { headers })]) {
      for (const [path, status] of [['/v1/things/a', 200], ['/v1/raw/a', 200], ['/v1/later/a', 200], ['/v1/things/boom', 404]] as const) {
        const response = await send(path);
        expect(response.status, path).toBe(status);
        expect(response.headers.get('access-control-allow-origin'), path).toBe('http://ok.test');
        expect(response.headers.get('access-control-expose-headers'), path).toBe('X-Id');
        expect(response.headers.get('vary'), path).toContain('Origin');
        await response.arrayBuffer();
      }
      const raw = await send('/v1/raw/a');
      expect(raw.headers.get('content-type')).toBe('text/plain');
      expect(await raw.text()).toBe('raw body');
    }
    const preflight = await fetch(`${url}/v1/things/a`, { method: 'OPTIONS', headers: { ...headers, 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');
  });

  it('lets a gate answer a promise (a key it must ask the store about): the later gates and the route wait for it', async () => {
    const { app, order } = gatedApp((a) =>
      a.use(
        '/v1/*',
        gate(async (c) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push('later');
          if (c.req.header('x-refuse-later')) throw new ApiError('unauthorized', 'refused after a look at the store');
          return undefined;
        }),
      ),
    );
    const answer = await app.request('/v1/things/a');
    expect(answer.status).toBe(200);
    expect(order).toEqual(['first', 'second', 'later', 'route']);
    const refused = await app.request('/v1/things/a', { headers: { 'x-refuse-later': '1' } });
    expect(refused.status).toBe(401);
    expect(order.filter((step) => step === 'route')).toHaveLength(1);
  });

  it('leaves a chain with a plain middleware to Hono, which runs it as before', async () => {
    const { app, router, order } = gatedApp((a) =>
      a.use('/v1/things/*', async (c, next) => {
        order.push('plain');
        await next();
        c.header('x-after', 'yes');
      }),
    );
    expect(router.match('GET', '/v1/things/a')[0].length).toBeGreaterThan(1);
    const response = await app.request('/v1/things/a');
    expect(await response.json()).toEqual({ id: 'a', seen: ['first', 'second'] });
    expect(response.headers.get('x-after')).toBe('yes');
    expect(order).toEqual(['first', 'second', 'plain', 'route']);
    const refused = await app.request('/v1/things/a', { headers: { 'x-refuse': '1' } });
    expect(refused.status).toBe(401);
  });

  it('runs the gates and the route\'s synchronous part inside the scope it is given, once per request', async () => {
    const scoped: string[] = [];
    let inside = false;
    const scope = <T>(run: () => T): T => {
      scoped.push('enter');
      inside = true;
      try {
        return run();
      } finally {
        inside = false;
      }
    };
    const router = new RememberedRoutes<HonoEntry>(REMEMBERED_PATHS, (result) => fuseGates(result, scope));
    const app = handleErrors(new Hono({ router: router as never }), silentLog);
    const seen: boolean[] = [];
    app.use(
      '/v1/*',
      gate((c) => {
        seen.push(inside);
        if (c.req.header('x-refuse')) throw new ApiError('unauthorized', 'refused');
        return undefined;
      }),
    );
    app.get('/v1/things/:id', (c) => {
      seen.push(inside);
      return c.json({ id: c.req.param('id') });
    });
    expect(await (await app.request('/v1/things/a')).json()).toEqual({ id: 'a' });
    expect((await app.request('/v1/things/a', { headers: { 'x-refuse': '1' } })).status).toBe(401);
    expect(scoped).toEqual(['enter', 'enter']);
    expect(seen).toEqual([true, true, true]);
    expect(inside).toBe(false);
  });
});
