import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { MSG, attendeeRoutes, authRoutes, eventsRoutes, type RouteDef } from '@stadiumcam/contract';
import { createPgDatabase, createTestApp, type TestApp } from '../test/harness.ts';
import { cutProxy } from '../test/cut-proxy.ts';
import { isDatabaseUnavailable } from './errors.ts';

/**
 * Issue 27 §9: while PostgreSQL is out of reach every request answers 503 with Retry-After and
 * the catalogue's text, never 500, however the outage looks to the driver; a request whose
 * transaction is in flight when the connection drops too, and the process lives on. The
 * outages are real: a proxy in front of the machine's PostgreSQL (test/cut-proxy.ts) refuses,
 * answers as a starting server, takes connections and never answers, or drops them.
 */
const DATABASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN_EMAIL = 'admin@stadiumcam.local';

describe('a database outage answers 503, never 500 (PostgreSQL through a proxy)', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof cutProxy>>;
  let directUrl = '';
  let drop = async () => {};
  let cookie = '';

  beforeAll(async () => {
    const db = await createPgDatabase(DATABASE);
    drop = db.drop;
    directUrl = db.url;
    const url = new URL(db.url);
    proxy = await cutProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${proxy.port}`;
    t = await createTestApp('pglite', { databaseUrl: url.toString() });
    cookie = await t.adminCookie();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await drop();
  });

  // A session check, a read, a public read, a login and a write in a transaction (the reset mail).
  const calls: [string, RouteDef, Record<string, unknown>][] = [
    ['session', authRoutes.session, {}],
    ['events', eventsRoutes.list, {}],
    ['public event', attendeeRoutes.event, {}],
    ['login', authRoutes.login, { body: { username: 'admin', password: 'not-the-password' } }],
    ['reset mail', authRoutes.resetRequest, { body: { email: ADMIN_EMAIL } }],
  ];
  const expectUnavailable = (name: string, res: { status: number; body: any; headers: Record<string, unknown> }) => {
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(503);
    expect(res.body).toEqual({ error: MSG.common.databaseUnavailable });
    expect(res.headers['retry-after']).toBe('5');
  };
  const recovers = async () => {
    proxy.restore();
    await expect.poll(async () => (await t.call(eventsRoutes.list, { cookie })).status, { timeout: 15_000 }).toBe(200);
  };

  const outages: [string, () => unknown, typeof calls][] = [
    ['refused: nothing listens (ECONNREFUSED), as with a stopped server', () => proxy.refuse(), calls],
    ['the server is starting up (FATAL 57P03)', () => proxy.startingUp(), calls],
    ['every connection drops at once (Connection terminated unexpectedly)', () => proxy.cut(), calls],
    // Each call waits for the pool's 3 s connect timeout: two calls tell enough.
    ['connections hang (the pool’s connect timeout)', () => proxy.silent(), calls.slice(0, 2)],
  ];
  for (const [name, outage, probes] of outages) {
    it(`${name}: 503 with Retry-After and the catalogue text, then back by itself`, async () => {
      expect((await t.call(eventsRoutes.list, { cookie })).status).toBe(200);
      await outage();
      for (const [call, route, input] of probes) {
        const started = Date.now();
        expectUnavailable(call, await t.call(route, { cookie, ...input }));
        expect(Date.now() - started).toBeLessThan(4_500);
      }
      await recovers();
    }, 60_000);
  }

  it('a request whose transaction is in flight when the connection drops answers 503, and the server lives on', async () => {
    // Another connection (not through the proxy) holds the admin's reset token row, so the
    // reset mail's transaction waits on it inside PostgreSQL until the connection is cut.
    expect((await t.call(authRoutes.resetRequest, { body: { email: ADMIN_EMAIL } })).status).toBe(200);
    const holder = new pg.Client({ connectionString: directUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        `SELECT 1 FROM reset_tokens WHERE user_id = (SELECT id FROM users WHERE username = 'admin') FOR UPDATE`,
      );
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown) => uncaught.push(err);
      process.on('uncaughtException', onUncaught);
      try {
        const pending = t.call(authRoutes.resetRequest, { body: { email: ADMIN_EMAIL } });
        await expect
          .poll(
            async () =>
              (
                await holder.query(
                  `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
                )
              ).rows[0].n,
            { timeout: 15_000 },
          )
          .toBe(1);
        proxy.cut();
        expectUnavailable('in flight', await pending);
        await recovers();
        expect(uncaught).toEqual([]);
      } finally {
        process.off('uncaughtException', onUncaught);
      }
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    expect((await t.call(authRoutes.session, { cookie })).status).toBe(200);
  }, 60_000);
});

describe('isDatabaseUnavailable', () => {
  const withCause = (message: string, cause: Error) => new Error(message, { cause });
  const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('reads the cause chain for driver codes, SQLSTATEs and texts; other failures are not an outage', () => {
    const outage = [
      coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      coded('getaddrinfo EAI_AGAIN postgres', 'EAI_AGAIN'),
      coded('terminating connection due to administrator command', '57P01'),
      coded('the database system is starting up', '57P03'),
      coded('connection failure', '08006'),
      coded('sorry, too many clients already', '53300'),
      new Error('timeout exceeded when trying to connect'),
      withCause('Failed query: rollback', new Error('Client has encountered a connection error and is not queryable')),
      withCause('Failed query: select 1', new Error('Connection terminated unexpectedly')),
    ];
    for (const err of outage) expect(isDatabaseUnavailable(err), err.message).toBe(true);
    const others = [
      coded('duplicate key value violates unique constraint', '23505'),
      coded('relation "x" does not exist', '42P01'),
      withCause('Failed query: insert', coded('value too long', '22001')),
      new TypeError('Cannot read properties of undefined'),
      'ECONNREFUSED',
    ];
    for (const err of others) expect(isDatabaseUnavailable(err), String(err)).toBe(false);
  });
});
