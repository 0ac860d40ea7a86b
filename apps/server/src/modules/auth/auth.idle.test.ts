import { afterEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { SESSION_TTL_MS, authRoutes } from '@stadiumcam/contract';
import { configFromEnv } from '../../config.ts';
import { sessions } from '../../db/schema/index.ts';
import { ADMIN_PASSWORD, describeEachDb } from '../../test/harness.ts';
import { hashToken } from './auth.sessions.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('SESSION_IDLE_HOURS', () => {
  it('is 12 hours unless set; fractions are hours too; nonsense keeps the default', () => {
    expect(configFromEnv({}).sessionIdleMs).toBe(12 * HOUR);
    expect(configFromEnv({ SESSION_IDLE_HOURS: '0.5' }).sessionIdleMs).toBe(30 * MINUTE);
    expect(configFromEnv({ SESSION_IDLE_HOURS: '2' }).sessionIdleMs).toBe(2 * HOUR);
    for (const bad of ['', '0', '-3', '12h'])
      expect(configFromEnv({ SESSION_IDLE_HOURS: bad }).sessionIdleMs).toBe(12 * HOUR);
  });
});

// Issue 27 §13: a session ends after 12 hours unused, and 7 days after login however used.
// The server's clock (Date) is moved; the database and the requests are real.
describeEachDb('sessions: the idle timeout beside the absolute one', (t) => {
  afterEach(() => vi.useRealTimers());
  const at = (ms: number) => vi.setSystemTime(ms);
  const alive = async (cookie: string) => (await t().call(authRoutes.session, { cookie })).status;
  const endOf = async (cookie: string) => {
    const idHash = hashToken(cookie.replace(/^sid=/, ''));
    const [row] = await t().app.deps.db.select().from(sessions).where(eq(sessions.idHash, idHash));
    return row?.expiresAt.getTime();
  };

  it('ends a session unused for longer than the setting; each use moves the end on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now();
    at(t0);
    const cookie = await t().login('admin', ADMIN_PASSWORD);
    at(t0 + 11 * HOUR + 59 * MINUTE);
    expect(await alive(cookie)).toBe(200);
    // 11 h 59 min after that use: still alive, although 23 h 58 min after the login.
    at(t0 + 2 * (11 * HOUR + 59 * MINUTE));
    expect(await alive(cookie)).toBe(200);
    // 12 h 1 min unused: ended, and it stays ended.
    at(t0 + 2 * (11 * HOUR + 59 * MINUTE) + 12 * HOUR + MINUTE);
    expect(await alive(cookie)).toBe(401);
    at(t0 + 2 * (11 * HOUR + 59 * MINUTE) + 12 * HOUR + 2 * MINUTE);
    expect(await alive(cookie)).toBe(401);
  });

  it('ends a session 7 days after its login however often it is used', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now();
    at(t0);
    const cookie = await t().login('admin', ADMIN_PASSWORD);
    let now = t0;
    while (now + 11 * HOUR < t0 + SESSION_TTL_MS) {
      now += 11 * HOUR;
      at(now);
      expect(await alive(cookie)).toBe(200);
    }
    // Used 11 hours ago at most, but the absolute end has come.
    expect(await endOf(cookie)).toBe(t0 + SESSION_TTL_MS);
    at(t0 + SESSION_TTL_MS - MINUTE);
    expect(await alive(cookie)).toBe(200);
    at(t0 + SESSION_TTL_MS + 1);
    expect(await alive(cookie)).toBe(401);
  });

  it('writes the session row at most once a minute, however many requests it serves', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now();
    at(t0);
    const cookie = await t().login('admin', ADMIN_PASSWORD);
    expect(await endOf(cookie)).toBe(t0 + 12 * HOUR);
    at(t0 + 50_000);
    for (let i = 0; i < 30; i++) expect(await alive(cookie)).toBe(200);
    expect(await endOf(cookie)).toBe(t0 + 12 * HOUR);
    at(t0 + 61_000);
    expect(await alive(cookie)).toBe(200);
    expect(await endOf(cookie)).toBe(t0 + 61_000 + 12 * HOUR);
    at(t0 + 100_000);
    for (let i = 0; i < 30; i++) expect(await alive(cookie)).toBe(200);
    expect(await endOf(cookie)).toBe(t0 + 61_000 + 12 * HOUR);
  });
});
