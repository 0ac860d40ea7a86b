import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, inArray } from 'drizzle-orm';
import {
  ADMIN_ROLE,
  ALL_PERMISSIONS,
  SESSION_TTL_MS,
  effectivePermissions,
  type Permission,
} from '@stadiumcam/contract';
import type { Db } from '../db/client.ts';
import { roles, sessions, users } from '../db/schema/index.ts';

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
  if (roleNames.length === 0) return new Set();
  const rows = await db.select({ permissions: roles.permissions }).from(roles).where(inArray(roles.name, roleNames));
  return effectivePermissions(rows.flatMap((r) => r.permissions));
}

/** Reads the session cookie; an unknown or expired id yields null. */
export async function loadSessionUser(db: Db, sid: string | undefined): Promise<AuthUser | null> {
  if (!sid || sid.length > 100) return null;
  const idHash = hashToken(sid);
  const [row] = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  const u = row.user;
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

/** A fresh random 128-bit id for every login (rotation), stored only as its hash. */
export async function startSession(db: Db, reply: FastifyReply, req: FastifyRequest, userId: string): Promise<void> {
  const old = req.cookies[SESSION_COOKIE];
  if (old) await db.delete(sessions).where(eq(sessions.idHash, hashToken(old)));
  const sid = randomBytes(16).toString('hex');
  await db
    .insert(sessions)
    .values({ idHash: hashToken(sid), userId, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  void reply.setCookie(SESSION_COOKIE, sid, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export async function endSession(db: Db, reply: FastifyReply, req: FastifyRequest): Promise<void> {
  const sid = req.cookies[SESSION_COOKIE];
  if (sid) await db.delete(sessions).where(eq(sessions.idHash, hashToken(sid)));
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
