import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, afterAll, beforeAll } from 'vitest';
import { buildPath, toQueryString, type Permission, type RouteDef, type RouteInput } from '@stadiumcam/contract';
import { buildApp, type App } from '../app.ts';
import { configFromEnv, type AppConfig } from '../config.ts';
import { hashPassword } from '../modules/auth/auth.service.ts';
import { insertUser, upsertReadonlyRole } from '../modules/auth/users.repository.ts';
import { createPgDatabase } from './pg-database.ts';

export { createPgDatabase };

export type DbKind = 'pglite' | 'postgres';
/** Integration tests run on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set. */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const ADMIN_PASSWORD = 'admin-test-password';
export const DEVICE_TOKEN = 'test-device-token-0123456789abcdef';
const HOST = 'localhost';
export const ORIGIN = `http://${HOST}`;

export type TestApp = {
  app: App;
  kind: DbKind;
  config: AppConfig;
  /** Calls a contract route through Fastify's inject, as the console would. */
  call: <R extends RouteDef>(
    route: R,
    input?: Partial<RouteInput<R>> & { cookie?: string; headers?: Record<string, string> },
  ) => Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** Logs in and returns the session cookie ("sid=..."). */
  login: (username: string, password: string) => Promise<string>;
  /** A user holding exactly these permissions through a fresh role; returns its cookie. */
  userWith: (
    permissions: Permission[],
    opts?: { username?: string },
  ) => Promise<{ cookie: string; username: string; id: string }>;
  adminCookie: () => Promise<string>;
  close: () => Promise<void>;
};

export async function createTestApp(kind: DbKind = 'pglite', overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-test-'));
  const pgDb = kind === 'postgres' ? await createPgDatabase() : undefined;
  const config: AppConfig = {
    ...configFromEnv({}),
    dataDir,
    databaseUrl: pgDb?.url,
    pgliteDir: 'memory://',
    mediaDir: path.join(dataDir, 'media'),
    outboxDir: path.join(dataDir, 'outbox'),
    adminPassword: ADMIN_PASSWORD,
    deviceToken: DEVICE_TOKEN,
    publicUrl: 'http://127.0.0.1:8080',
    webDist: path.join(dataDir, 'no-web'),
    attendeeDist: path.join(dataDir, 'no-attendee'),
    logLevel: 'silent',
    trustProxy: false,
    ...overrides,
  };
  const app = await buildApp(config, { logger: false });
  await app.ready();

  const call: TestApp['call'] = async (route, input = {}) => {
    const url =
      buildPath(route.path, input.params as Record<string, unknown>) +
      toQueryString(input.query as Record<string, unknown>);
    const res = await app.inject({
      method: route.method,
      url,
      headers: {
        host: HOST,
        origin: ORIGIN,
        ...(input.cookie ? { cookie: input.cookie } : {}),
        ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...input.headers,
      },
      ...(input.body !== undefined ? { payload: JSON.stringify(input.body) } : {}),
    });
    let body: unknown = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };

  const login = async (username: string, password: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ username, password }),
    });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    const cookie = res.cookies.find((c) => c.name === 'sid');
    return `sid=${cookie!.value}`;
  };

  let adminCookie: string | undefined;
  const userPassword = 'user-test-password';
  return {
    app,
    kind,
    config,
    call,
    login,
    adminCookie: async () => (adminCookie ??= await login('admin', ADMIN_PASSWORD)),
    userWith: async (permissions, opts = {}) => {
      const suffix = randomBytes(4).toString('hex');
      const role = `role-${suffix}`;
      // Test roles are written directly; the roles API has its own tests.
      await upsertReadonlyRole(app.deps.db, role, permissions);
      const username = opts.username ?? `user-${suffix}`;
      const id = randomUUID();
      await insertUser(app.deps.db, {
        id,
        username,
        email: `${username}@example.com`,
        passwordHash: await hashPassword(userPassword),
        roles: [role],
      });
      return { cookie: await login(username, userPassword), username, id };
    },
    close: async () => {
      await app.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a suite once per database kind with a fresh app shared by the suite's tests. */
export function describeEachDb(name: string, body: (ctx: () => TestApp) => void): void {
  for (const kind of DB_KINDS) {
    describe(`${name} [${kind}]`, () => {
      let t: TestApp;
      // The configured hookTimeout (vitest.config.ts, or --hookTimeout on a loaded machine).
      beforeAll(async () => {
        t = await createTestApp(kind);
      });
      afterAll(async () => {
        await t?.close();
      });
      body(() => t);
    });
  }
}
