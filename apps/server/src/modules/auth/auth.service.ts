import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import {
  LOGIN_ADDRESS_MAX_FAILURES,
  LOGIN_MAX_FAILURES,
  LOGIN_WINDOW_MS,
  RESET_MAX_REQUESTS,
  RESET_TOKEN_TTL_MS,
  RESET_WINDOW_MS,
  type LoginBody,
  type SessionUser,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, unauthorized, ERR, type CodedText } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { endUserSessions, hashToken, permissionsForRoles, startSession } from './auth.sessions.ts';
import { findUserById, findUserByUsername, findUsersByEmail, touchLastLogin, updateUser } from './users.repository.ts';
import { auditNote } from '../../audit-context.ts';
import {
  clearLoginAttempts,
  consumeResetToken,
  deleteUnusedResetTokens,
  findResetToken,
  loginWindows,
  pruneResetTokens,
  recentAttempts,
  recordAttempts,
  releaseLoginAttempt,
  replaceResetToken,
  reserveLoginAttempt,
  type ThrottleKind,
} from './auth.repository.ts';

// argon2id with the library's defaults (19 MiB, t=2), OWASP's recommended minimum.
export const hashPassword = (password: string) => hash(password, { algorithm: 2 });
export const verifyPassword = (hashed: string, password: string) => verify(hashed, password).catch(() => false);

/** Random passwords for new users, resets and the first admin: unambiguous characters. */
export function randomPassword(length = 12): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

// An unknown user is checked against this hash too, so both answers take as long.
let dummyHash: Promise<string> | undefined;
const unknownUserHash = () => (dummyHash ??= hashPassword(randomPassword(16)));

export const sessionUserOf = (u: Omit<AuthUser, 'sessionHash'>): SessionUser => ({
  _id: u._id,
  username: u.username,
  email: u.email,
  roles: u.roles,
  permissions: [...u.permissions],
  createdAt: u.createdAt.toISOString(),
  lastLogin: u.lastLogin?.toISOString() ?? null,
});

// Throttling ------------------------------------------------------------------------------

type Limit = {
  kind: ThrottleKind;
  max: number;
  windowMs: number;
  text: (retryAfterSeconds: number) => CodedText;
};
const RESET_LIMIT: Limit = {
  kind: 'reset',
  max: RESET_MAX_REQUESTS,
  windowMs: RESET_WINDOW_MS,
  text: ERR.auth.resetThrottled,
};

/**
 * Throws 429 when any key already has `max` attempts in the window. Retry-After is the
 * time until the attempt that keeps the key at its limit leaves the window.
 */
async function assertUnderLimit(deps: Deps, limit: Limit, keys: string[], now: Date): Promise<void> {
  const since = new Date(now.getTime() - limit.windowMs);
  const attempts = await recentAttempts(deps.db, limit.kind, keys, since, limit.max);
  let waitMs = 0;
  for (const times of attempts.values()) {
    if (times.length < limit.max) continue;
    const limiting = times[limit.max - 1];
    waitMs = Math.max(waitMs, limiting.getTime() + limit.windowMs - now.getTime());
  }
  if (waitMs > 0) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new AppError(429, limit.text(seconds), { headers: { 'retry-after': String(seconds) } });
  }
}

const record = (deps: Deps, limit: Limit, keys: string[], now: Date) =>
  recordAttempts(deps.db, limit.kind, keys, now, new Date(now.getTime() - limit.windowMs));

const accountKey = (username: string) => `account:${username}`;
const addressKey = (ip: string) => `address:${ip}`;

// Login and logout ------------------------------------------------------------------------

/** Who is logging in: the form, the client address and the session id the browser still sent. */
export type LoginInput = LoginBody & { ip: string; previousSid: string | undefined };

/**
 * Reserves the attempt on the account and the address first, in one atomic statement (so
 * parallel attempts cannot all pass the check before any is counted); only then runs argon2.
 * A failure keeps its reservation as the counted failure; a success gives it back. While a
 * key is at its limit every attempt, even with the right password, gets 429.
 */
async function reserveLogin(deps: Deps, input: LoginInput, now: Date): Promise<string[]> {
  const keys = [
    { key: accountKey(input.username), cap: LOGIN_MAX_FAILURES },
    { key: addressKey(input.ip), cap: LOGIN_ADDRESS_MAX_FAILURES },
  ];
  const reserved = await reserveLoginAttempt(deps.db, keys, now, new Date(now.getTime() - LOGIN_WINDOW_MS));
  const blocked = keys.map((k) => k.key).filter((k) => !reserved.has(k));
  if (blocked.length === 0) return [...reserved];
  await releaseLoginAttempt(deps.db, [...reserved]);
  const starts = await loginWindows(deps.db, blocked);
  const waitMs = Math.max(0, ...starts.map((s) => s.getTime() + LOGIN_WINDOW_MS - now.getTime()));
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  deps.log.warn({ username: input.username, ip: input.ip }, 'login throttled');
  throw new AppError(429, ERR.auth.loginThrottled(seconds), { headers: { 'retry-after': String(seconds) } });
}

/**
 * Unknown user and wrong password answer the same and both count as failures.
 * Returns the user and the new session id for the cookie.
 */
export async function login(deps: Deps, input: LoginInput): Promise<{ user: SessionUser; sid: string }> {
  const now = new Date();
  // Every refusal below (throttled, wrong name or password) is a failed login in the audit log.
  auditNote({ action: 'auth.loginFailed', username: input.username });
  const reserved = await reserveLogin(deps, input, now);
  const row = await findUserByUsername(deps.db, input.username);
  const ok = await verifyPassword(row?.passwordHash ?? (await unknownUserHash()), input.password);
  if (!row || !ok) {
    deps.log.warn({ username: input.username, ip: input.ip }, 'login failed');
    throw unauthorized(ERR.auth.invalidCredentials);
  }
  await releaseLoginAttempt(deps.db, reserved);
  const sid = await startSession(deps, input.previousSid, row.id);
  await touchLastLogin(deps.db, row.id, now);
  auditNote({ action: 'auth.login', actor: { id: row.id, username: row.username } });
  const user = sessionUserOf({
    _id: row.id,
    username: row.username,
    email: row.email,
    roles: row.roles,
    permissions: await permissionsForRoles(deps.db, row.roles),
    createdAt: row.createdAt,
    lastLogin: now,
  });
  return { user, sid };
}

// Password reset --------------------------------------------------------------------------

/**
 * Mails a single-use link to every user with this address. The answer is the same whether
 * or not the address is known; both are counted for the throttle, per client address and
 * per e-mail address, so the form cannot be used to flood a mailbox.
 */
export async function requestPasswordReset(deps: Deps, ip: string, email: string): Promise<void> {
  const now = new Date();
  const keys = [addressKey(ip), `email:${email.toLowerCase()}`];
  await assertUnderLimit(deps, RESET_LIMIT, keys, now);
  await record(deps, RESET_LIMIT, keys, now);
  await pruneResetTokens(deps.db, new Date(now.getTime() - 24 * 60 * 60_000));
  for (const user of await findUsersByEmail(deps.db, email)) {
    // 24 random bytes (192 bits) keep the link short enough for one mail line.
    const token = randomBytes(24).toString('base64url');
    await replaceResetToken(deps.db, {
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
    });
    const minutes = RESET_TOKEN_TTL_MS / 60_000;
    await deps.mailer.send({
      to: user.email,
      subject: 'StadiumCam password reset',
      text: [
        `Hello ${user.username},`,
        '',
        'Someone asked to reset the password of your StadiumCam console user.',
        `To get a new password, open this link within ${minutes} minutes:`,
        '',
        `${deps.config.publicUrl}/reset_password/${token}`,
        '',
        'The link works once. If you did not ask for this, ignore this mail:',
        'your password stays as it is.',
      ].join('\n'),
    });
    deps.log.info({ userId: user.id }, 'password reset link sent');
  }
}

/** A valid token gets the user a new random password by mail and ends all their sessions. */
export async function confirmPasswordReset(deps: Deps, token: string): Promise<void> {
  const now = new Date();
  const tokenHash = hashToken(token);
  const userId = await consumeResetToken(deps.db, tokenHash, now);
  if (!userId) {
    const row = await findResetToken(deps.db, tokenHash);
    if (!row) throw badRequest(ERR.auth.resetTokenInvalid);
    if (row.usedAt) throw badRequest(ERR.auth.resetTokenUsed);
    throw badRequest(ERR.auth.resetTokenExpired);
  }
  const user = await findUserById(deps.db, userId);
  if (!user) throw badRequest(ERR.auth.resetTokenInvalid);
  auditNote({ actor: { id: user.id, username: user.username } });
  const password = randomPassword();
  await updateUser(deps.db, user.id, { passwordHash: await hashPassword(password) });
  await endUserSessions(deps, user.id);
  await clearLoginAttempts(deps.db, accountKey(user.username));
  await deps.mailer.send({
    to: user.email,
    subject: 'Your new StadiumCam password',
    text: [
      `Hello ${user.username},`,
      '',
      'Your StadiumCam console password has been reset. Log in with:',
      '',
      `User name: ${user.username}`,
      `Password: ${password}`,
      '',
      `${deps.config.publicUrl}/login`,
    ].join('\n'),
  });
  deps.log.info({ userId: user.id }, 'password reset');
}

/**
 * A user's e-mail or password was set by someone: a reset link already mailed (perhaps to
 * the old address) stops working.
 */
export async function cancelPasswordResets(deps: Deps, userId: string): Promise<void> {
  const dropped = await deleteUnusedResetTokens(deps.db, userId);
  if (dropped) deps.log.info({ userId, dropped }, 'password reset links cancelled');
}

/**
 * Takes one use of a per-key quota (`cap` uses per `windowMs`) in one atomic statement, on
 * the same table as the login throttle, so parallel calls on every instance never exceed it.
 * Answers false when the quota is spent. Keys are namespaced (`mail:<userId>`) apart from
 * the login keys (`account:`, `address:`).
 */
export async function takeQuota(deps: Deps, key: string, cap: number, windowMs: number): Promise<boolean> {
  const now = new Date();
  const reserved = await reserveLoginAttempt(deps.db, [{ key, cap }], now, new Date(now.getTime() - windowMs));
  return reserved.has(key);
}

/** Gives a use back (the work it was taken for failed). */
export async function giveQuotaBack(deps: Deps, key: string): Promise<void> {
  await releaseLoginAttempt(deps.db, [key]);
}
