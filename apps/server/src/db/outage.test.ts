import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, eventsRoutes } from '@stadiumcam/contract';
import { createPgDatabase, createTestApp, type TestApp } from '../test/harness.ts';
import { cutProxy } from '../test/cut-proxy.ts';

/**
 * Issue 15 (faults): PostgreSQL out of reach for 10 s. Requests answer 503 quickly with a
 * clear text, and the server recovers by itself when the database is back. The outage is a
 * real one: a proxy in front of the machine's PostgreSQL drops its connections and refuses new ones.
 */
const DATABASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('PostgreSQL unreachable for 10 s', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof cutProxy>>;
  let drop = async () => {};

  beforeAll(async () => {
    const db = await createPgDatabase(DATABASE);
    drop = db.drop;
    const url = new URL(db.url);
    proxy = await cutProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${proxy.port}`;
    t = await createTestApp('pglite', { databaseUrl: url.toString() });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await drop();
  });

  it('answers 503 at once while it is away and recovers by itself', async () => {
    const cookie = await t.adminCookie();
    expect((await t.call(eventsRoutes.list, { cookie })).status).toBe(200);

    proxy.cut();
    const until = Date.now() + 10_000;
    let answered = 0;
    while (Date.now() < until) {
      const started = Date.now();
      const res = await t.call(eventsRoutes.list, { cookie });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: MSG.common.databaseUnavailable });
      expect(res.headers['retry-after']).toBe('5');
      // Quickly: a refused connection fails at once, a silent one after the pool's 3 s.
      expect(Date.now() - started).toBeLessThan(3_500);
      answered++;
    }
    expect(answered).toBeGreaterThan(3);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    proxy.restore();
    await expect.poll(async () => (await t.call(eventsRoutes.list, { cookie })).status, { timeout: 15_000 }).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  }, 60_000);
});
