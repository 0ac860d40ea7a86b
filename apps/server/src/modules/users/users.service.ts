import { randomUUID } from 'node:crypto';
import { ADMIN_ROLE, ADMIN_USERNAME, MSG, type User, type UserCreate, type UserUpdate } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { endUserSessions } from '../auth/auth.sessions.ts';
import { hashPassword } from '../auth/auth.service.ts';
import { assertMayAssignRoles, assertRolesExist } from '../roles/roles.service.ts';
import {
  deleteUser,
  findUserById,
  findUserByUsername,
  insertUserIfFree,
  listUsers,
  updateUser,
  type UserRow,
} from './users.repository.ts';

const toUser = (u: UserRow): User => ({
  _id: u.id,
  username: u.username,
  email: u.email,
  roles: u.roles,
  createdAt: u.createdAt.toISOString(),
  lastLogin: u.lastLogin?.toISOString() ?? null,
});

const holdsAdmin = (roles: readonly string[]) => roles.includes(ADMIN_ROLE);

/** The Users permission manages operators; only an administrator manages administrators. */
function assertMayManage(actor: AuthUser, ...roleLists: (readonly string[])[]): void {
  if (!holdsAdmin(actor.roles) && roleLists.some(holdsAdmin)) throw forbidden(MSG.users.onlyAdminManagesAdmins);
}

export async function listAllUsers(deps: Deps): Promise<User[]> {
  return (await listUsers(deps.db)).map(toUser);
}

export async function usernameExists(deps: Deps, username: string): Promise<boolean> {
  return (await findUserByUsername(deps.db, username.trim().toLowerCase())) !== undefined;
}

export async function createUser(deps: Deps, actor: AuthUser, body: UserCreate): Promise<User> {
  const roles = [...new Set(body.roles)];
  assertMayManage(actor, roles);
  await assertRolesExist(deps, roles);
  await assertMayAssignRoles(deps, actor, roles);
  if (await findUserByUsername(deps.db, body.username)) throw conflict(MSG.users.userNameTaken);
  const row = await insertUserIfFree(deps.db, {
    id: randomUUID(),
    username: body.username,
    email: body.email,
    passwordHash: await hashPassword(body.password),
    roles,
  });
  if (!row) throw conflict(MSG.users.userNameTaken);
  deps.log.info({ by: actor.username, username: row.username }, 'user created');
  return toUser(row);
}

/**
 * The username never changes. An empty or omitted password keeps the old one. A new
 * password or a change of roles ends the user's other sessions: they log in again with
 * what they now hold (the caller's own session stays).
 */
export async function updateUserById(deps: Deps, actor: AuthUser, id: string, body: UserUpdate): Promise<User> {
  if (body._id !== id) throw badRequest(MSG.users.idMismatch);
  const current = await findUserById(deps.db, id);
  if (!current) throw notFound(MSG.users.userNotFound);
  if (body.username !== undefined && body.username.trim().toLowerCase() !== current.username) {
    throw unprocessable(MSG.users.usernameImmutable);
  }
  const roles = body.roles ? [...new Set(body.roles)] : undefined;
  assertMayManage(actor, current.roles, roles ?? []);
  if (roles && current.username === ADMIN_USERNAME && !holdsAdmin(roles)) {
    throw unprocessable(MSG.users.adminKeepsRole);
  }
  if (roles) await assertRolesExist(deps, roles);

  const passwordChanged = !!body.password;
  const rolesChanged =
    roles !== undefined && (roles.length !== current.roles.length || roles.some((r) => !current.roles.includes(r)));
  if (rolesChanged && id === actor._id) throw forbidden(MSG.users.cannotChangeOwnRoles);
  if (roles)
    await assertMayAssignRoles(
      deps,
      actor,
      roles.filter((r) => !current.roles.includes(r)),
    );
  const row = await updateUser(deps.db, id, {
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
    ...(roles ? { roles } : {}),
  });
  if (!row) throw notFound(MSG.users.userNotFound);
  if (passwordChanged || rolesChanged) await endUserSessions(deps, id, { except: actor.sessionHash });
  deps.log.info({ by: actor.username, username: row.username, passwordChanged, rolesChanged }, 'user updated');
  return toUser(row);
}

export async function deleteUserById(deps: Deps, actor: AuthUser, id: string): Promise<void> {
  const current = await findUserById(deps.db, id);
  if (!current) throw notFound(MSG.users.userNotFound);
  if (current.id === actor._id) throw unprocessable(MSG.users.cannotDeleteSelf);
  if (current.username === ADMIN_USERNAME) throw unprocessable(MSG.users.cannotDeleteAdmin);
  assertMayManage(actor, current.roles);
  await endUserSessions(deps, id);
  if (!(await deleteUser(deps.db, id))) throw notFound(MSG.users.userNotFound);
  deps.log.info({ by: actor.username, username: current.username }, 'user deleted');
}
