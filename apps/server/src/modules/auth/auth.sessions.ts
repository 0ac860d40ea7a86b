import { createHash, randomBytes } from 'node:crypto';
import {
  ADMIN_ROLE,
  ALL_PERMISSIONS,
  SESSION_TTL_MS,
  effectivePermissions,
  type Permission,
} from '@stadiumcam/contract';
import type { Db } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { permissionsOfRoles } from './roles.repository.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findSessionUser,
  insertSession,
  setSessionEnd,
  type SessionTimes,
} from './auth.repository.ts';

/** Session ids longer than this are not ours: not even looked up. */
const MAX_SID_LENGTH = 100;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The permissions a user's roles grant, parents included; admin holds all. */
export async function permissionsForRoles(db: Db, roleNames: string[]): Promise<Set<Permission>> {
  if (roleNames.includes(ADMIN_ROLE)) return new Set(ALL_PERMISSIONS);
  return effectivePermissions(await permissionsOfRoles(db, roleNames));
}

/**
 * A session ends `idleMs` after its last use (SESSION_IDLE_HOURS) and at the latest
 * SESSION_TTL_MS after the login, whichever comes first. `expires_at` holds that end; a
 * request moves it on (the idle rule) but never past the absolute one.
 */
const sessionEnd = (createdAt: Date, now: Date, idleMs: number) =>
  new Date(Math.min(createdAt.getTime() + SESSION_TTL_MS, now.getTime() + idleMs));

/**
 * The end is written at most once a minute per session (a busy console sends many requests a
 * minute), so an idle session may live up to a minute longer than the setting. With a setting
 * under ten minutes (tests) a tenth of it.
 */
const touchEveryMs = (idleMs: number) => Math.min(60_000, idleMs / 10);

async function keepAlive(db: Db, idHash: string, session: SessionTimes, now: Date, idleMs: number): Promise<void> {
  const end = sessionEnd(session.createdAt, now, idleMs);
  // Either way: a lowered setting shortens a live session at its next use.
  if (Math.abs(end.getTime() - session.expiresAt.getTime()) >= touchEveryMs(idleMs)) {
    await setSessionEnd(db, idHash, end, now);
  }
}

/**
 * The session cookie's user; an unknown, idle or expired id yields null, a live one is kept
 * alive (`keepAlive`). Permissions are worked out on every request, so a role edit applies at
 * once to everyone holding the role.
 */
export async function loadSessionUser(db: Db, sid: string | undefined, idleMs: number): Promise<AuthUser | null> {
  if (!sid || sid.length > MAX_SID_LENGTH) return null;
  const idHash = hashToken(sid);
  const now = new Date();
  const found = await findSessionUser(db, idHash, now);
  if (!found) return null;
  await keepAlive(db, idHash, found.session, now, idleMs);
  const u = found.user;
  return {
    _id: u.id,
    username: u.username,
    email: u.email,
    roles: u.roles,
    permissions: await permissionsForRoles(db, u.roles),
    createdAt: u.createdAt,
    lastLogin: u.lastLogin,
    sessionHash: idHash,
  };
}

/**
 * A fresh random 128-bit id for every login (rotation: the id sent before the login, if
 * any, is deleted), stored only as its hash. Returns the id for the cookie.
 */
export async function startSession(deps: Deps, previousSid: string | undefined, userId: string): Promise<string> {
  if (previousSid && previousSid.length <= MAX_SID_LENGTH) await endSessions(deps, [hashToken(previousSid)]);
  const now = new Date();
  await deleteExpiredSessions(deps.db, userId, now);
  const sid = randomBytes(16).toString('hex');
  await insertSession(deps.db, {
    idHash: hashToken(sid),
    userId,
    createdAt: now,
    expiresAt: sessionEnd(now, now, deps.config.sessionIdleMs),
  });
  return sid;
}

/** Logout: deletes the cookie's session, if any. */
export async function endSession(deps: Deps, sid: string | undefined): Promise<void> {
  if (sid && sid.length <= MAX_SID_LENGTH) await endSessions(deps, [hashToken(sid)]);
}

/**
 * Ends a user's sessions (all, or all but the caller's own) after a password change, a
 * role change, a reset or a deletion, including their open console sockets: those hold
 * the user as it was at connect time.
 */
export async function endUserSessions(deps: Deps, userId: string, opts: { except?: string } = {}): Promise<void> {
  const ended = await deleteUserSessions(deps.db, userId, opts.except);
  await disconnectSockets(deps, (u) => u._id === userId && u.sessionHash !== opts.except);
  if (ended.length) deps.log.info({ userId, sessions: ended.length }, 'sessions ended');
}

async function endSessions(deps: Deps, idHashes: string[]): Promise<void> {
  for (const h of idHashes) await deleteSession(deps.db, h);
  const set = new Set(idHashes);
  await disconnectSockets(deps, (u) => set.has(u.sessionHash));
}

/**
 * A role's permissions changed or it was deleted: its holders' open console sockets close
 * (the console reconnects at once and joins the rooms it may now join).
 */
export async function disconnectRoleSockets(deps: Deps, roleName: string): Promise<void> {
  await disconnectSockets(deps, (u) => u.roles.includes(roleName));
}

async function disconnectSockets(deps: Deps, match: (user: AuthUser) => boolean): Promise<void> {
  const sockets = await deps.realtime.consoles.fetchSockets();
  for (const s of sockets) if (s.data.user && match(s.data.user)) s.disconnect(true);
}
