import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_MS, type Permission } from '@stadiumcam/contract';

/**
 * The session cookie (HTTP only). Sessions themselves (rotation, ending, loading the user)
 * belong to the auth area: modules/auth/auth.sessions.ts.
 */
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

export const readSessionCookie = (req: FastifyRequest): string | undefined => req.cookies[SESSION_COOKIE];

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, sid: string): void {
  void reply.setCookie(SESSION_COOKIE, sid, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
