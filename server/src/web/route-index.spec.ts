import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouteIndex } from './route-index';

let base = '';
let close: () => void;

beforeAll(async () => {
  const index = createRouteIndex();
  const answer = (name: string): Koa.Middleware => (ctx) => void (ctx.body = { name, params: ctx.params, route: (ctx as { _matchedRoute?: string })._matchedRoute });
  index.register('/api/rooms', ['GET'], [answer('list')]);
  index.register('/api/rooms/search', ['GET'], [answer('search')]);
  index.register('/api/rooms/:id', ['GET', 'PATCH'], [answer('one')]);
  index.register('/api/tags/:id', ['DELETE'], [answer('tag')]);
  index.register('/api/:collection/count', ['GET'], [answer('count')]);
  const app = new Koa();
  app.use(index.routes());
  // Like the SPA fallback: answers GETs only, so other methods stay 404 for allowedMethods to turn into 405.
  app.use((ctx) => void (ctx.method === 'GET' && (ctx.body = { name: 'after' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

async function call(method: string, path: string): Promise<{ status: number; body: { name?: string; params?: Record<string, string>; route?: string } }> {
  const res = await fetch(base + path, { method });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {} };
}

describe('route index (one router per literal prefix)', () => {
  it('serves a route from its prefix router, the first registered pattern winning', async () => {
    expect((await call('GET', '/api/rooms')).body.name).toBe('list');
    expect((await call('GET', '/api/rooms/search')).body.name).toBe('search');
    const one = await call('GET', '/api/rooms/r1');
    expect(one.body).toMatchObject({ name: 'one', params: { id: 'r1' }, route: '/api/rooms/:id' });
  });

  it('keeps the router rule: any case, one trailing slash', async () => {
    expect((await call('GET', '/API/Rooms/')).body.name).toBe('list');
    expect((await call('PATCH', '/api/ROOMS/r2')).body).toMatchObject({ name: 'one', params: { id: 'r2' } });
  });

  it('serves patterns with a parameter in their prefix, after the literal ones', async () => {
    expect((await call('GET', '/api/rooms/count')).body.name).toBe('one');
    expect((await call('GET', '/api/contacts/count')).body).toMatchObject({ name: 'count', params: { collection: 'contacts' } });
  });

  it('answers 405 for a known path with another method, and hands unknown paths to what follows', async () => {
    expect((await call('POST', '/api/tags/t1')).status).toBe(405);
    expect((await call('GET', '/api/nothing/here')).body.name).toBe('after');
    expect((await call('GET', '/login')).body.name).toBe('after');
  });
});
