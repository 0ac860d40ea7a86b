import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ADMIN_ROLE,
  ALL_PERMISSIONS,
  SESSION_TTL_MS,
  effectivePermissions,
  type Permission,
} from '@stadiumcam/contract';
import type { Db } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findSessionUser,
  insertSession,
} from '../modules/auth/auth.repository.ts';
import { permissionsOfRoles } from '../modules/roles/roles.repository.ts';

export const SESSION_COOKIE = 'sid';

export type AuthUser = {
  _id: string;
  username: string;
  email: string;
  roles: string[];
  permissions: Set<Permission>;
  createdAt: Date;
  lastLogin: Date | null;
  sessionHash: string;
};

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The permissions a user's roles grant, parents included; admin holds all. */
export async function permissionsForRoles(db: Db, roleNames: string[]): Promise<Set<Permission>> {
  if (roleNames.includes(ADMIN_ROLE)) return new Set(ALL_PERMISSIONS);
  return effectivePermissions(await permissionsOfRoles(db, roleNames));
}

/**
 * Reads the session cookie; an unknown or expired id yields null. Permissions are worked
 * out on every request, so a role edit applies at once to everyone holding the role.
 */
export async function loadSessionUser(db: Db, sid: string | undefined): Promise<AuthUser | null> {
  if (!sid || sid.length > 100) return null;
  const idHash = hashToken(sid);
  const u = await findSessionUser(db, idHash, new Date());
  if (!u) return null;
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
 * any, is deleted), stored only as its hash.
 */
export async function startSession(deps: Deps, req: FastifyRequest, reply: FastifyReply, userId: string) {
  const old = req.cookies[SESSION_COOKIE];
  if (old && old.length <= 100) await endSessions(deps, [hashToken(old)]);
  const now = new Date();
  await deleteExpiredSessions(deps.db, userId, now);
  const sid = randomBytes(16).toString('hex');
  await insertSession(deps.db, {
    idHash: hashToken(sid),
    userId,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  void reply.setCookie(SESSION_COOKIE, sid, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: SESSION_TTL_MS / 1000,
  });
}

/** Logout: deletes the cookie's session (if any) and the cookie. */
export async function endSession(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const sid = req.cookies[SESSION_COOKIE];
  if (sid && sid.length <= 100) await endSessions(deps, [hashToken(sid)]);
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
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

async function disconnectSockets(deps: Deps, match: (user: AuthUser) => boolean): Promise<void> {
  const sockets = await deps.realtime.consoles.fetchSockets();
  for (const s of sockets) if (s.data.user && match(s.data.user)) s.disconnect(true);
}
