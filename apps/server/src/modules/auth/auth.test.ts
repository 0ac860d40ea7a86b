import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { sql, type SQL } from 'drizzle-orm';
import {
  MSG,
  ALL_PERMISSIONS,
  LOGIN_ADDRESS_MAX_FAILURES,
  LOGIN_MAX_FAILURES,
  RESET_MAX_REQUESTS,
  authRoutes,
  usersRoutes,
} from '@stadiumcam/contract';
import { ADMIN_PASSWORD, describeEachDb, type TestApp } from '../../test/harness.ts';
import { newMailsTo, postFrom, readOutbox } from './auth.test-util.ts';

const LOGIN = '/api/users/login';
const RESET_REQUEST = '/api/users/resetPasswordEmail';
const RESET_CONFIRM = '/api/users/resetPassword';

let ipCounter = 0;
/** A client address no other test uses. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

async function rows<T>(t: TestApp, query: SQL): Promise<T[]> {
  // PGlite and node-postgres both answer { rows }.
  const res: unknown = await t.app.deps.db.execute(query);
  return (res as { rows: T[] }).rows;
}

const linkToken = (text: string, publicUrl: string) => {
  const m = new RegExp(`${publicUrl.replace(/[.:/]/g, '\\$&')}/reset_password/([\\w-]+)`).exec(text);
  return m?.[1];
};

describeEachDb('auth: session, login, logout', (t) => {
  it('answers the session check with 401 without a session, and the user with one', async () => {
    const anonymous = await t().call(authRoutes.session);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: MSG.auth.notLoggedIn });

    const bogus = await t().call(authRoutes.session, { cookie: 'sid=0123456789abcdef0123456789abcdef' });
    expect(bogus.status).toBe(401);

    const cookie = await t().adminCookie();
    const me = await t().call(authRoutes.session, { cookie });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('admin');
    expect(me.body.roles).toEqual(['admin']);
    expect([...me.body.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect(new Date(me.body.createdAt).toISOString()).toBe(me.body.createdAt);
    expect(new Date(me.body.lastLogin).toISOString()).toBe(me.body.lastLogin);
  });

  it("answers the console's session check (GET /api/users/session) with user: null when logged out, never 401", async () => {
    const anonymous = await t().call(authRoutes.sessionProbe);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ user: null });
    const me = await t().call(authRoutes.sessionProbe, { cookie: await t().adminCookie() });
    expect(me.status).toBe(200);
    expect(me.body.user?.username).toBe('admin');
  });

  it('lower-cases and trims the username, and sets an httpOnly SameSite=Lax cookie', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: LOGIN,
      headers: { host: 'localhost', origin: 'http://localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ username: '  ADMIN ', password: ADMIN_PASSWORD }),
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).username).toBe('admin');
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^sid=[0-9a-f]{32};/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i);
  });

  it('rotates the session id at login: the cookie from before no longer works', async () => {
    const ip = freshIp();
    const first = await postFrom(t(), ip, LOGIN, { username: 'admin', password: ADMIN_PASSWORD });
    expect(first.status).toBe(200);
    const second = await postFrom(t(), ip, LOGIN, { username: 'admin', password: ADMIN_PASSWORD }, first.cookie);
    expect(second.status).toBe(200);
    expect(second.cookie).toBeDefined();
    expect(second.cookie).not.toBe(first.cookie);
    expect((await t().call(authRoutes.session, { cookie: first.cookie })).status).toBe(401);
    expect((await t().call(authRoutes.session, { cookie: second.cookie })).status).toBe(200);

    // Logging in as someone else from a logged-in browser also drops the old session.
    const other = await t().userWith([]);
    const third = await postFrom(
      t(),
      ip,
      LOGIN,
      { username: other.username, password: 'user-test-password' },
      second.cookie,
    );
    expect(third.status).toBe(200);
    expect((await t().call(authRoutes.session, { cookie: second.cookie })).status).toBe(401);
    expect((await t().call(authRoutes.session, { cookie: third.cookie })).body.username).toBe(other.username);
  });

  it('deletes the session at logout: the old cookie then gets 401', async () => {
    const cookie = await t().login('admin', ADMIN_PASSWORD);
    expect((await t().call(authRoutes.session, { cookie })).status).toBe(200);
    const out = await t().call(authRoutes.logout, { cookie });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^sid=;/);
    expect((await t().call(authRoutes.session, { cookie })).status).toBe(401);
    // Logging out without a session is harmless.
    expect((await t().call(authRoutes.logout)).status).toBe(204);
  });

  it('refuses bad login input with 400 and counts no failure', async () => {
    const ip = freshIp();
    const cases: [unknown, RegExp][] = [
      ['{"username": "admin", ', /malformed JSON/],
      [{ username: 'admin' }, /Password is required/],
      [{ password: 'x' }, /Username is required/],
      [{ username: '   ', password: 'x' }, /Username is required/],
      [{ username: 'admin', password: '' }, /Password is required/],
      [{ username: 'admin', password: 'x', remember: true }, /remember/],
      [{ username: 'a'.repeat(201), password: 'x' }, /username/],
      [{ username: 'admin', password: 'x'.repeat(1001) }, /password/],
      [{ username: 42, password: 'x' }, /Username is required/],
    ];
    for (const [payload, text] of cases) {
      const res = await postFrom(t(), ip, LOGIN, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.error, JSON.stringify(payload)).toMatch(text);
    }
    const stored = await rows<{ n: number }>(
      t(),
      sql`select coalesce(sum(count), 0)::int as n from login_throttle where key = ${`address:${ip}`}`,
    );
    expect(stored[0].n).toBe(0);
    expect((await postFrom(t(), ip, LOGIN, { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
  });
});

describeEachDb('auth: login throttling', (t) => {
  it('answers an unknown user and a wrong password alike', async () => {
    const user = await t().userWith([]);
    const wrong = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'not-it' });
    const unknown = await postFrom(t(), freshIp(), LOGIN, { username: 'nobody-here', password: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({ error: MSG.auth.invalidCredentials });
    expect(wrong.cookie).toBeUndefined();
  });

  it('locks an account after 5 failures in 5 minutes, even for the right password, with Retry-After', async () => {
    const user = await t().userWith([], { username: 'throttled-account' });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      // Each attempt from another address: only the account's count can lock.
      const res = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: `wrong-${i}` });
      expect(res.status).toBe(401);
    }
    const stored = await rows<{ n: number }>(
      t(),
      sql`select count::int as n from login_throttle where key = ${`account:${user.username}`}`,
    );
    expect(stored[0].n).toBe(LOGIN_MAX_FAILURES);

    const locked = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'user-test-password' });
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(locked.body).toEqual({ error: MSG.auth.loginThrottled(retryAfter) });
    expect(locked.body.error).toBe('Too many failed login attempts. Please try again in 5 minute(s).');
    expect(locked.cookie).toBeUndefined();
    // The upper-case spelling is the same account.
    const upper = await postFrom(t(), freshIp(), LOGIN, { username: 'THROTTLED-ACCOUNT', password: 'x' });
    expect(upper.status).toBe(429);

    // Retry-After counts down from the window's first failure: 4 minutes old leaves 60 s.
    await t().app.deps.db.execute(
      sql`update login_throttle set window_start = now() - interval '240 seconds' where key = ${`account:${user.username}`}`,
    );
    const later = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'user-test-password' });
    expect(later.status).toBe(429);
    expect(Number(later.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(later.body.error).toBe('Too many failed login attempts. Please try again in 1 minute(s).');

    // Once the failures have left the window the right password works again.
    await t().app.deps.db.execute(
      sql`update login_throttle set window_start = now() - interval '301 seconds' where key = ${`account:${user.username}`}`,
    );
    const ok = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'user-test-password' });
    expect(ok.status).toBe(200);
  });

  it('a success gives its reserved attempt back: it never counts as a failure', async () => {
    const user = await t().userWith([]);
    const fail = () => postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'wrong' });
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) expect((await fail()).status).toBe(401);
    const ok = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'user-test-password' });
    expect(ok.status).toBe(200);
    const stored = await rows<{ n: number }>(
      t(),
      sql`select count::int as n from login_throttle where key = ${`account:${user.username}`}`,
    );
    expect(stored[0].n).toBe(LOGIN_MAX_FAILURES - 1);
    // The failures stay in their window: one more makes five.
    expect((await fail()).status).toBe(401);
    expect((await fail()).status).toBe(429);
  });

  it('50 parallel attempts with the right password among them run at most 5 password checks (issue 16 §1)', async () => {
    const user = await t().userWith([]);
    const ip = freshIp();
    const attempts = Array.from({ length: 50 }, (_, i) =>
      postFrom(t(), ip, LOGIN, { username: user.username, password: i === 7 ? 'user-test-password' : `wrong-${i}` }),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    // 401 and 200 are the answers that ran argon2; 429 ran none.
    const checked = statuses.filter((s) => s === 401 || s === 200).length;
    expect(checked).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(50 - LOGIN_MAX_FAILURES);
    expect(statuses.every((s) => [200, 401, 429].includes(s))).toBe(true);
    // Once the limit is reached even the right password is refused.
    if (!statuses.includes(200)) {
      const locked = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'user-test-password' });
      expect(locked.status).toBe(429);
    }
  });

  it("one operator's typos do not lock the control room's shared address; 50 failures do", async () => {
    const a = await t().userWith([]);
    const b = await t().userWith([]);
    const ip = freshIp();
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      expect((await postFrom(t(), ip, LOGIN, { username: a.username, password: 'typo' })).status).toBe(401);
    }
    // The account is locked, the address is not: a colleague behind the same NAT logs in.
    expect((await postFrom(t(), ip, LOGIN, { username: a.username, password: 'user-test-password' })).status).toBe(429);
    expect((await postFrom(t(), ip, LOGIN, { username: b.username, password: 'user-test-password' })).status).toBe(200);
    // An address that has failed 50 times in the window is locked for every account.
    await t().app.deps.db.execute(
      sql`update login_throttle set count = ${LOGIN_ADDRESS_MAX_FAILURES} where key = ${`address:${ip}`}`,
    );
    const blocked = await postFrom(t(), ip, LOGIN, { username: b.username, password: 'user-test-password' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body.error).toMatch(/^Too many failed login attempts/);
    expect(
      (await postFrom(t(), freshIp(), LOGIN, { username: b.username, password: 'user-test-password' })).status,
    ).toBe(200);
  });
});

describeEachDb('auth: password reset', (t) => {
  it('answers the same for a known and an unknown address, and mails a link only to the known one', async () => {
    const user = await t().userWith([]);
    const email = `${user.username}@example.com`;
    const before = new Set((await readOutbox(t())).map((m) => m.file));

    const unknown = await postFrom(t(), freshIp(), RESET_REQUEST, { email: 'nobody@example.com' });
    const known = await postFrom(t(), freshIp(), RESET_REQUEST, { email: email.toUpperCase() });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual({ ok: true });
    expect(known.body).toEqual(unknown.body);

    expect(await newMailsTo(t(), 'nobody@example.com', before)).toHaveLength(0);
    const mails = await newMailsTo(t(), email, before);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('30 minutes');
    const token = linkToken(mails[0].text, t().config.publicUrl);
    expect(token).toBeDefined();

    // Only a hash of the token is stored, valid 30 minutes.
    const stored = await rows<{ token_hash: string; minutes: number }>(
      t(),
      sql`select token_hash, extract(epoch from (expires_at - created_at)) / 60 as minutes
          from reset_tokens where user_id = ${user.id}`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(createHash('sha256').update(token!).digest('hex'));
    expect(Math.round(Number(stored[0].minutes))).toBe(30);
  });

  it('resets with a valid token: mails a new password, ends every session, and the link works once', async () => {
    const user = await t().userWith([]);
    const email = `${user.username}@example.com`;
    const otherSession = await t().login(user.username, 'user-test-password');
    const before = new Set((await readOutbox(t())).map((m) => m.file));
    expect((await postFrom(t(), freshIp(), RESET_REQUEST, { email })).status).toBe(200);
    const token = linkToken((await newMailsTo(t(), email, before))[0].text, t().config.publicUrl)!;
    const seen = new Set((await readOutbox(t())).map((m) => m.file));

    const confirm = await postFrom(t(), freshIp(), RESET_CONFIRM, { token });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ ok: true });

    const mails = await newMailsTo(t(), email, seen);
    expect(mails).toHaveLength(1);
    const password = /Password: (\S+)/.exec(mails[0].text)?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(6);

    expect((await t().call(authRoutes.session, { cookie: user.cookie })).status).toBe(401);
    expect((await t().call(authRoutes.session, { cookie: otherSession })).status).toBe(401);
    const oldPassword = await postFrom(t(), freshIp(), LOGIN, {
      username: user.username,
      password: 'user-test-password',
    });
    expect(oldPassword.status).toBe(401);
    const newPassword = await postFrom(t(), freshIp(), LOGIN, { username: user.username, password });
    expect(newPassword.status).toBe(200);

    const again = await postFrom(t(), freshIp(), RESET_CONFIRM, { token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: MSG.auth.resetTokenUsed });
    // The used link changed nothing more: the mailed password still works.
    expect((await postFrom(t(), freshIp(), LOGIN, { username: user.username, password })).status).toBe(200);
  });

  it('refuses an unknown, expired or superseded token with 400 and a clear text', async () => {
    const user = await t().userWith([]);
    const email = `${user.username}@example.com`;

    const unknown = await postFrom(t(), freshIp(), RESET_CONFIRM, { token: 'A'.repeat(32) });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: MSG.auth.resetTokenInvalid });

    for (const token of ['', 'not a token!', 'x'.repeat(201)]) {
      const res = await postFrom(t(), freshIp(), RESET_CONFIRM, { token });
      expect(res.status, token).toBe(400);
    }
    expect((await postFrom(t(), freshIp(), RESET_CONFIRM, {})).status).toBe(400);
    expect((await postFrom(t(), freshIp(), RESET_CONFIRM, { token: 'abc', extra: 1 })).status).toBe(400);

    let seen = new Set((await readOutbox(t())).map((m) => m.file));
    await postFrom(t(), freshIp(), RESET_REQUEST, { email });
    const first = linkToken((await newMailsTo(t(), email, seen))[0].text, t().config.publicUrl)!;
    seen = new Set((await readOutbox(t())).map((m) => m.file));
    await postFrom(t(), freshIp(), RESET_REQUEST, { email });
    const second = linkToken((await newMailsTo(t(), email, seen))[0].text, t().config.publicUrl)!;
    expect(second).not.toBe(first);
    // A newer link replaces the older one.
    expect((await postFrom(t(), freshIp(), RESET_CONFIRM, { token: first })).body).toEqual({
      error: MSG.auth.resetTokenInvalid,
    });

    await t().app.deps.db.execute(
      sql`update reset_tokens set expires_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    const expired = await postFrom(t(), freshIp(), RESET_CONFIRM, { token: second });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ error: MSG.auth.resetTokenExpired });
    // Nothing changed: the old password still works and the session too.
    expect((await t().call(authRoutes.session, { cookie: user.cookie })).status).toBe(200);
    expect(
      (await postFrom(t(), freshIp(), LOGIN, { username: user.username, password: 'user-test-password' })).status,
    ).toBe(200);
  });

  it('throttles reset requests per client address and per e-mail address', async () => {
    const ip = freshIp();
    for (let i = 0; i < RESET_MAX_REQUESTS; i++) {
      expect((await postFrom(t(), ip, RESET_REQUEST, { email: `someone-${i}@example.com` })).status).toBe(200);
    }
    const byAddress = await postFrom(t(), ip, RESET_REQUEST, { email: 'another@example.com' });
    expect(byAddress.status).toBe(429);
    const retryAfter = Number(byAddress.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(byAddress.body).toEqual({ error: MSG.auth.resetThrottled(retryAfter) });

    const user = await t().userWith([]);
    const email = `${user.username}@example.com`;
    const before = new Set((await readOutbox(t())).map((m) => m.file));
    for (let i = 0; i < RESET_MAX_REQUESTS; i++) {
      expect((await postFrom(t(), freshIp(), RESET_REQUEST, { email })).status).toBe(200);
    }
    const byEmail = await postFrom(t(), freshIp(), RESET_REQUEST, { email: email.toUpperCase() });
    expect(byEmail.status).toBe(429);
    expect(await newMailsTo(t(), email, before)).toHaveLength(RESET_MAX_REQUESTS);
  });

  it('refuses a reset request without a valid e-mail address', async () => {
    const before = (await readOutbox(t())).length;
    for (const payload of [{}, { email: '' }, { email: 'not-an-address' }, { email: 'a@b.co', x: 1 }, '{"email":']) {
      const res = await postFrom(t(), freshIp(), RESET_REQUEST, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await readOutbox(t())).length).toBe(before);
  });
});

describeEachDb('auth: console sockets follow the session', (t) => {
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const s of sockets) s.disconnect();
  });

  const connect = async (cookie: string) => {
    const socket = io(`${url}/console`, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    return { socket, closed };
  };

  it('closes the sockets of a session at logout and of a user whose password changes', async () => {
    const user = await t().userWith([]);
    const loggingOut = await connect(user.cookie);
    const admin = await connect(await t().adminCookie());
    await t().call(authRoutes.logout, { cookie: user.cookie });
    expect(await loggingOut.closed).toBe('io server disconnect');
    await expect(connect(user.cookie)).rejects.toThrow(/Not logged in/);

    const cookie = await t().login(user.username, 'user-test-password');
    const changed = await connect(cookie);
    const res = await t().call(usersRoutes.update, {
      cookie: await t().adminCookie(),
      params: { id: user.id },
      body: { _id: user.id, password: 'another-password' },
    });
    expect(res.status).toBe(200);
    expect(await changed.closed).toBe('io server disconnect');
    expect(admin.socket.connected).toBe(true);
  });
});
