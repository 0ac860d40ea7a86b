import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { configFromEnv } from '../config.ts';

/**
 * Issue 16 §7 (docs/security.md §7): no log line carries a password, token, cookie or the
 * database URL, however carelessly an object is logged. The app logs at trace level into a
 * buffer while logins, an export, a reset and a careless log call run.
 */
const ADMIN_PASSWORD = 'Admin-Secret-Pass-1';
const WRONG_PASSWORD = 'Wrong-Secret-Pass-2';
const EXPORT_PASSWORD = 'Xp0rtSecr3t';
const RESET_TOKEN = 'reset-token-secret-0123456789';
const DB_PASSWORD = 'db-secret-pass';
const HOST = 'localhost';
const ORIGIN = `http://${HOST}`;

describe('log redaction (issue 16 §7)', () => {
  let app: App;
  let dataDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-redact-'));
    app = await buildApp(
      {
        ...configFromEnv({}),
        dataDir,
        pgliteDir: 'memory://',
        mediaDir: path.join(dataDir, 'media'),
        outboxDir: path.join(dataDir, 'outbox'),
        adminPassword: ADMIN_PASSWORD,
        deviceToken: 'device-token-secret',
        publicUrl: 'http://127.0.0.1:8080',
        webDist: path.join(dataDir, 'no-web'),
        attendeeDist: path.join(dataDir, 'no-attendee'),
        logLevel: 'trace',
        trustProxy: false,
      },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, payload: unknown, cookie?: string) =>
    app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      headers: { host: HOST, origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });

  it('writes no password, token, cookie or database URL into any line', async () => {
    expect((await post('/api/users/login', { username: 'admin', password: WRONG_PASSWORD })).statusCode).toBe(401);
    const ok = await post('/api/users/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(ok.statusCode).toBe(200);
    const sid = /sid=([^;]+)/.exec(String(ok.headers['set-cookie']))![1];
    const cookie = `sid=${sid}`;
    await app.inject({ method: 'GET', url: '/api/users/user', headers: { host: HOST, cookie } });
    await post('/api/snapshots/export', { password: EXPORT_PASSWORD, slugDate: ['nope-2030-01-01'] }, cookie);
    await post('/api/users/resetPassword', { token: RESET_TOKEN });
    // A careless call: whole request parts, bodies and configs.
    app.log.error(
      {
        body: { username: 'admin', password: ADMIN_PASSWORD, newPassword: WRONG_PASSWORD },
        req: { headers: { cookie, authorization: `Bearer ${RESET_TOKEN}` } },
        res: { headers: { 'set-cookie': cookie } },
        handshake: { auth: { token: RESET_TOKEN } },
        config: {
          databaseUrl: `postgres://app:${DB_PASSWORD}@db/app`,
          deviceToken: 'device-token-secret',
          redis: { url: 'redis://:redis-password-secret@cache:6379', prefix: 'x' },
        },
        sid,
        token: RESET_TOKEN,
      },
      'careless',
    );

    const text = lines.join('');
    // The lines were written: the failed login and the careless call are there.
    expect(text).toContain('login failed');
    expect(text).toContain('careless');
    expect(text).toContain('[redacted]');
    for (const secret of [
      ADMIN_PASSWORD,
      WRONG_PASSWORD,
      EXPORT_PASSWORD,
      RESET_TOKEN,
      DB_PASSWORD,
      sid,
      'device-token-secret',
      'redis-password-secret',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
