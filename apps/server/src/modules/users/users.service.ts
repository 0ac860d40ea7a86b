import { randomUUID } from 'node:crypto';
import {
  ADMIN_ROLE,
  ADMIN_USERNAME,
  MSG,
  USERS_MSG,
  type User,
  type UserCreate,
  type UserUpdate,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../errors.ts';
import { endUserSessions, type AuthUser } from '../../plugins/session.ts';
import { hashPassword } from '../auth/auth.service.ts';
import { assertRolesExist } from '../roles/roles.service.ts';
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
  if (!holdsAdmin(actor.roles) && roleLists.some(holdsAdmin)) throw forbidden(USERS_MSG.onlyAdminManagesAdmins);
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
  if (await findUserByUsername(deps.db, body.username)) throw conflict(MSG.userNameTaken);
  const row = await insertUserIfFree(deps.db, {
    id: randomUUID(),
    username: body.username,
    email: body.email,
    passwordHash: await hashPassword(body.password),
    roles,
  });
  if (!row) throw conflict(MSG.userNameTaken);
  deps.log.info({ by: actor.username, username: row.username }, 'user created');
  return toUser(row);
}

/**
 * The username never changes. An empty or omitted password keeps the old one. A new
 * password or a change of roles ends the user's other sessions: they log in again with
 * what they now hold (the caller's own session stays).
 */
export async function updateUserById(deps: Deps, actor: AuthUser, id: string, body: UserUpdate): Promise<User> {
  if (body._id !== id) throw badRequest(USERS_MSG.idMismatch);
  const current = await findUserById(deps.db, id);
  if (!current) throw notFound(USERS_MSG.userNotFound);
  if (body.username !== undefined && body.username.trim().toLowerCase() !== current.username) {
    throw unprocessable(USERS_MSG.usernameImmutable);
  }
  const roles = body.roles ? [...new Set(body.roles)] : undefined;
  assertMayManage(actor, current.roles, roles ?? []);
  if (roles && current.username === ADMIN_USERNAME && !holdsAdmin(roles)) {
    throw unprocessable(USERS_MSG.adminKeepsRole);
  }
  if (roles) await assertRolesExist(deps, roles);

  const passwordChanged = !!body.password;
  const rolesChanged =
    roles !== undefined && (roles.length !== current.roles.length || roles.some((r) => !current.roles.includes(r)));
  const row = await updateUser(deps.db, id, {
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
    ...(roles ? { roles } : {}),
  });
  if (!row) throw notFound(USERS_MSG.userNotFound);
  if (passwordChanged || rolesChanged) await endUserSessions(deps, id, { except: actor.sessionHash });
  deps.log.info({ by: actor.username, username: row.username, passwordChanged, rolesChanged }, 'user updated');
  return toUser(row);
}

export async function deleteUserById(deps: Deps, actor: AuthUser, id: string): Promise<void> {
  const current = await findUserById(deps.db, id);
  if (!current) throw notFound(USERS_MSG.userNotFound);
  if (current.id === actor._id) throw unprocessable(USERS_MSG.cannotDeleteSelf);
  if (current.username === ADMIN_USERNAME) throw unprocessable(USERS_MSG.cannotDeleteAdmin);
  assertMayManage(actor, current.roles);
  await endUserSessions(deps, id);
  if (!(await deleteUser(deps.db, id))) throw notFound(USERS_MSG.userNotFound);
  deps.log.info({ by: actor.username, username: current.username }, 'user deleted');
}
