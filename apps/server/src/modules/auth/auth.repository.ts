import { and, desc, eq, gt, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginThrottle, resetRequests, resetTokens, sessions, users } from '../../db/schema/index.ts';
import type { UserRow } from './users.repository.ts';

// Sessions ---------------------------------------------------------------------------

export type SessionTimes = { createdAt: Date; expiresAt: Date };

/** The user behind a live session id hash and the session's times, or undefined when unknown or ended. */
export async function findSessionUser(
  db: Db,
  idHash: string,
  now: Date,
): Promise<{ user: UserRow; session: SessionTimes } | undefined> {
  const [row] = await db
    .select({ user: users, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return row && { user: row.user, session: { createdAt: row.createdAt, expiresAt: row.expiresAt } };
}

/** Moves a live session's end (its use pushed the idle end on); an ended session stays ended. */
export async function setSessionEnd(db: Db, idHash: string, expiresAt: Date, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ expiresAt })
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)));
}

export async function insertSession(
  db: Db,
  row: { idHash: string; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Ends a user's sessions (all, or all but one) and returns the hashes that ended. */
export async function deleteUserSessions(db: Db, userId: string, exceptIdHash?: string): Promise<string[]> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), exceptIdHash ? ne(sessions.idHash, exceptIdHash) : undefined))
    .returning({ idHash: sessions.idHash });
  return rows.map((r) => r.idHash);
}

export async function deleteExpiredSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, now)));
}

// Throttling ----------------------------------------------------------------------------

const throttleTables = { reset: resetRequests } as const;
export type ThrottleKind = keyof typeof throttleTables;

/**
 * The times of the newest `limit` attempts per key since `since`, newest first: enough to
 * tell whether a key is over its limit and when it falls back under it.
 */
export async function recentAttempts(
  db: Db,
  kind: ThrottleKind,
  keys: string[],
  since: Date,
  limit: number,
): Promise<Map<string, Date[]>> {
  const table = throttleTables[kind];
  const out = new Map<string, Date[]>(keys.map((k) => [k, []]));
  if (keys.length === 0) return out;
  const rows = await db
    .select({ key: table.key, at: table.at })
    .from(table)
    .where(and(inArray(table.key, keys), gt(table.at, since)))
    .orderBy(desc(table.at))
    .limit(limit * keys.length);
  for (const r of rows) {
    const list = out.get(r.key)!;
    if (list.length < limit) list.push(r.at);
  }
  return out;
}

/** Counts one attempt for each key; rows that left the window are pruned on the way. */
export async function recordAttempts(db: Db, kind: ThrottleKind, keys: string[], at: Date, windowStart: Date) {
  const table = throttleTables[kind];
  await db.delete(table).where(and(inArray(table.key, keys), lt(table.at, windowStart)));
  await db.insert(table).values(keys.map((key) => ({ key, at })));
}

export async function clearAttempts(db: Db, kind: ThrottleKind, key: string): Promise<void> {
  const table = throttleTables[kind];
  await db.delete(table).where(eq(table.key, key));
}

// Login throttle ---------------------------------------------------------------------------

/**
 * Reserves one attempt on every key in ONE statement: a key's count goes up only while it is
 * under its cap (or its window has passed, which starts a new one). The upsert locks each
 * key's row, so parallel logins on any number of instances never reserve more than the cap.
 * Answers the keys that were reserved; a key missing from the answer is at its limit.
 */
export async function reserveLoginAttempt(
  db: Db,
  keys: { key: string; cap: number }[],
  now: Date,
  windowStart: Date,
): Promise<Set<string>> {
  const t = loginThrottle;
  const expired = sql`${t.windowStart} <= ${windowStart.toISOString()}::timestamptz`;
  const rows = await db
    .insert(t)
    .values(keys.map((k) => ({ key: k.key, count: 1, windowStart: now, cap: k.cap })))
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${expired} then 1 else ${t.count} + 1 end`,
        windowStart: sql`case when ${expired} then excluded.window_start else ${t.windowStart} end`,
        cap: sql`excluded.cap`,
      },
      setWhere: sql`${expired} or ${t.count} < excluded.cap`,
    })
    .returning({ key: t.key });
  return new Set(rows.map((r) => r.key));
}

/** Gives reserved attempts back (a success, or a throttled call that reserved some keys). */
export async function releaseLoginAttempt(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .update(loginThrottle)
    .set({ count: sql`greatest(${loginThrottle.count} - 1, 0)` })
    .where(inArray(loginThrottle.key, keys));
}

/** When each of these keys' windows started (for Retry-After). */
export async function loginWindows(db: Db, keys: string[]): Promise<Date[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select({ at: loginThrottle.windowStart })
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, keys));
  return rows.map((r) => r.at);
}

/** A password reset starts the account afresh. */
export async function clearLoginAttempts(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

// Password reset tokens ------------------------------------------------------------------

/** Stores a new token for the user; earlier unused ones stop working (only the newest mail counts). */
export async function replaceResetToken(
  db: Db,
  row: { tokenHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(resetTokens).where(and(eq(resetTokens.userId, row.userId), isNull(resetTokens.usedAt)));
    await tx.insert(resetTokens).values(row);
  });
}

/** Unused tokens of a user stop working (their e-mail or password was changed by someone). */
export async function deleteUnusedResetTokens(db: Db, userId: string): Promise<number> {
  const rows = await db
    .delete(resetTokens)
    .where(and(eq(resetTokens.userId, userId), isNull(resetTokens.usedAt)))
    .returning({ tokenHash: resetTokens.tokenHash });
  return rows.length;
}

export type ResetTokenRow = typeof resetTokens.$inferSelect;

export async function findResetToken(db: Db, tokenHash: string): Promise<ResetTokenRow | undefined> {
  return (await db.select().from(resetTokens).where(eq(resetTokens.tokenHash, tokenHash)).limit(1))[0];
}

/**
 * Marks a live token used and returns its user; undefined when it was used, expired or
 * unknown. One statement, so two concurrent confirms cannot both succeed.
 */
export async function consumeResetToken(db: Db, tokenHash: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .update(resetTokens)
    .set({ usedAt: now })
    .where(and(eq(resetTokens.tokenHash, tokenHash), isNull(resetTokens.usedAt), gt(resetTokens.expiresAt, now)))
    .returning({ userId: resetTokens.userId });
  return row?.userId;
}

/** Drops tokens that expired before `before`; newer ones stay so their answer can say "expired". */
export async function pruneResetTokens(db: Db, before: Date): Promise<void> {
  await db.delete(resetTokens).where(lt(resetTokens.expiresAt, before));
}
