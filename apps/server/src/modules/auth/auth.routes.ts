import { authRoutes, type SessionUser } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { endSession, permissionsForRoles, startSession, type AuthUser } from '../../plugins/session.ts';
import { unauthorized } from '../../errors.ts';
import { findUserByUsername, touchLastLogin } from '../users/users.repository.ts';
import { verifyPassword } from './auth.service.ts';

const toSessionUser = (u: Omit<AuthUser, 'sessionHash'>): SessionUser => ({
  _id: u._id,
  username: u.username,
  email: u.email,
  roles: u.roles,
  permissions: [...u.permissions],
  createdAt: u.createdAt.toISOString(),
  lastLogin: u.lastLogin?.toISOString() ?? null,
});

export function authModule(app: App, deps: Deps): void {
  registerRoute(app, authRoutes.session, async ({ user }) => toSessionUser(user));

  registerRoute(app, authRoutes.login, async ({ body, req, reply }) => {
    const username = body.username.toLowerCase();
    const row = await findUserByUsername(deps.db, username);
    // Unknown user and wrong password answer alike.
    if (!row || !(await verifyPassword(row.passwordHash, body.password)))
      throw unauthorized('Invalid username or password');
    await startSession(deps.db, reply, req, row.id);
    await touchLastLogin(deps.db, row.id);
    return toSessionUser({
      _id: row.id,
      username: row.username,
      email: row.email,
      roles: row.roles,
      permissions: await permissionsForRoles(deps.db, row.roles),
      createdAt: row.createdAt,
      lastLogin: new Date(),
    });
  });

  registerRoute(app, authRoutes.logout, async ({ req, reply }) => {
    await endSession(deps.db, reply, req);
    return undefined;
  });
}
