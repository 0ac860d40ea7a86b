import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, buildPath, defineRoute, type RouteDef } from '@stadiumcam/contract';
import { z } from 'zod';
import Fastify from 'fastify';
import { contractRoutes } from '../contract-routes.ts';
import { DEVICE_TOKEN, describeEachDb } from '../test/harness.ts';
import { registerRoute } from './routes.ts';

// Params that satisfy most schemas; validation failures (400/404) still prove the guard let it through.
const dummyParams = (path: string) =>
  Object.fromEntries([...path.matchAll(/:(\w+)/g)].map(([, k]) => [k, k === 'slugDate' ? 'stadiumcam' : 'x']));

describe('route registration', () => {
  it('throws at boot for a route that declares no access', () => {
    const app = Fastify() as any;
    app.decorate('routeDefs', []);
    const bad = { method: 'GET', path: '/api/nothing', response: z.object({}) } as unknown as RouteDef;
    expect(() => registerRoute(app, bad, async () => undefined)).toThrow(/declares no permission/);
  });
  it('accepts a declared route', () => {
    const app = Fastify() as any;
    app.decorate('routeDefs', []);
    registerRoute(
      app,
      defineRoute({ method: 'GET', path: '/api/x', public: true, response: null }),
      async () => undefined,
    );
    expect(app.routeDefs).toHaveLength(1);
  });
});

/** Every route object of the contract: the values of each exported `<area>Routes` map. */
describeEachDb('every route × role', (t) => {
  it('registers every route of the contract, each once', () => {
    const registered = t().app.routeDefs.map((d) => `${d.method} ${d.path}`);
    expect(new Set(registered).size).toBe(registered.length);
    const routes = contractRoutes();
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes.filter(({ def }) => !registered.includes(`${def.method} ${def.path}`)).map((r) => r.name);
    expect(missing, 'contract routes no module registers').toEqual([]);
  });

  it('lets anyone reach the public routes', async () => {
    const { app } = t();
    for (const def of app.routeDefs.filter((d) => d.public)) {
      const res = await app.inject({
        method: def.method,
        url: buildPath(def.path, dummyParams(def.path)),
        headers: { host: 'localhost', origin: 'http://localhost' },
      });
      expect([401, 403], `${def.method} ${def.path} anonymous: ${res.statusCode}`).not.toContain(res.statusCode);
      expect(res.statusCode, `${def.method} ${def.path} anonymous: ${res.body}`).toBeLessThan(500);
    }
  });

  it('answers 401 anonymous, 403 without the permission, and passes the guard with it', async () => {
    const { app } = t();
    const nobody = await t().userWith([]);
    const everything = await t().userWith(ALL_PERMISSIONS);
    expect(app.routeDefs.length).toBeGreaterThan(0);
    for (const def of app.routeDefs) {
      if (def.public) continue;
      const params = dummyParams(def.path);
      const send = (headers: Record<string, string>) =>
        app.inject({
          method: def.method,
          url: buildPath(def.path, params),
          headers: { host: 'localhost', origin: 'http://localhost', ...headers },
        });
      const label = `${def.method} ${def.path}`;
      expect((await send({})).statusCode, `${label} anonymous`).toBe(401);
      if (def.device) {
        const device = await send({ authorization: `Bearer ${DEVICE_TOKEN}` });
        expect(device.statusCode, `${label} device`).not.toBe(401);
        expect(device.statusCode, `${label} device: ${device.body}`).toBeLessThan(500);
        continue;
      }
      const without = await send({ cookie: nobody.cookie });
      if (def.permission === 'session') expect(without.statusCode, `${label} session`).not.toBe(401);
      else expect(without.statusCode, `${label} without permission`).toBe(403);
      const withIt = await send({ cookie: everything.cookie });
      expect([401, 403], `${label} with permission: ${withIt.statusCode}`).not.toContain(withIt.statusCode);
      // Dummy ids and no body: a clear 4xx, never a crash.
      expect(withIt.statusCode, `${label} with permission: ${withIt.body}`).toBeLessThan(500);
    }
  });
});
