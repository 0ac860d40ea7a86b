import { randomUUID } from 'node:crypto';
import {
  ADMIN_ROLE,
  ADMIN_USERNAME,
  ALL_PERMISSIONS,
  type User,
  type UserCreate,
  type UserUpdate,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound, unprocessable, ERR } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { endUserSessions, permissionsForRoles } from '../auth/index.ts';
import { cancelPasswordResets, hashPassword } from '../auth/index.ts';
import { assertMayAssignRoles, assertRolesExist } from '../roles/index.ts';
import {
  deleteUser,
  findUserById,
  findUserByUsername,
  insertUserIfFree,
  listUsers,
  updateUser,
  type UserRow,
} from '../auth/index.ts';
import { auditNote } from '../../audit-context.ts';

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
  if (!holdsAdmin(actor.roles) && roleLists.some(holdsAdmin)) throw forbidden(ERR.users.onlyAdminManagesAdmins);
}

/**
 * Nobody acts on a user who holds more than they do (issue 27 §3): changing any field of a
 * user (e-mail, password, roles), setting a new password for them (the console's reset) or
 * deleting them needs every permission that user holds, else 403 naming one the actor lacks.
 * An administrator acts on anyone; only an administrator acts on an administrator. Every
 * action on an existing user goes through here (one's own user passes: one holds it all).
 */
export async function assertMayActOnUser(deps: Deps, actor: AuthUser, target: Pick<UserRow, 'roles'>): Promise<void> {
  assertMayManage(actor, target.roles);
  if (holdsAdmin(actor.roles)) return;
  const held = await permissionsForRoles(deps.db, target.roles);
  const missing = ALL_PERMISSIONS.find((p) => held.has(p) && !actor.permissions.has(p));
  if (missing !== undefined) throw forbidden(ERR.users.cannotActOnStronger(missing));
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
  if (await findUserByUsername(deps.db, body.username)) throw conflict(ERR.users.userNameTaken);
  const row = await insertUserIfFree(deps.db, {
    id: randomUUID(),
    username: body.username,
    email: body.email,
    passwordHash: await hashPassword(body.password),
    roles,
  });
  if (!row) throw conflict(ERR.users.userNameTaken);
  deps.log.info({ by: actor.username, username: row.username }, 'user created');
  return toUser(row);
}

/**
 * The username never changes. An empty or omitted password keeps the old one. A new
 * password or a change of roles ends the user's other sessions: they log in again with
 * what they now hold (the caller's own session stays).
 */
export async function updateUserById(
  deps: Deps,
  actor: AuthUser,
  id: string,
  body: UserUpdate,
  attempt = 1,
): Promise<User> {
  if (body._id !== id) throw badRequest(ERR.users.idMismatch);
  const current = await findUserById(deps.db, id);
  if (!current) throw notFound(ERR.users.userNotFound);
  await assertMayActOnUser(deps, actor, current);
  if (body.username !== undefined && body.username.trim().toLowerCase() !== current.username) {
    throw unprocessable(ERR.users.usernameImmutable);
  }
  const roles = body.roles ? [...new Set(body.roles)] : undefined;
  assertMayManage(actor, roles ?? []);
  if (roles && current.username === ADMIN_USERNAME && !holdsAdmin(roles)) {
    throw unprocessable(ERR.users.adminKeepsRole);
  }
  if (roles) await assertRolesExist(deps, roles);

  const passwordChanged = !!body.password;
  const rolesChanged =
    roles !== undefined && (roles.length !== current.roles.length || roles.some((r) => !current.roles.includes(r)));
  if (rolesChanged && id === actor._id) throw forbidden(ERR.users.cannotChangeOwnRoles);
  if (roles)
    await assertMayAssignRoles(
      deps,
      actor,
      roles.filter((r) => !current.roles.includes(r)),
    );
  const set = {
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
    ...(roles ? { roles } : {}),
  };
  // Written only while the user holds the roles the rules were checked against (another
  // request may have given them more meanwhile); if not, the rules run again on what they hold.
  const row = await updateUser(deps.db, id, set, current.roles);
  if (!row) return retryOnChange(deps, id, attempt, () => updateUserById(deps, actor, id, body, attempt + 1));
  // Never the password itself: only that it changed (docs/audit.md).
  auditNote({
    targets: { username: row.username },
    detail: {
      before: { email: current.email, roles: current.roles },
      after: { email: row.email, roles: row.roles },
      passwordChanged,
    },
  });
  if (passwordChanged || rolesChanged) await endUserSessions(deps, id, { except: actor.sessionHash });
  const emailChanged = row.email !== current.email;
  if (passwordChanged || emailChanged) await cancelPasswordResets(deps, id);
  deps.log.info(
    { by: actor.username, username: row.username, passwordChanged, rolesChanged, emailChanged },
    'user updated',
  );
  return toUser(row);
}

export async function deleteUserById(deps: Deps, actor: AuthUser, id: string, attempt = 1): Promise<void> {
  const current = await findUserById(deps.db, id);
  if (!current) throw notFound(ERR.users.userNotFound);
  if (current.id === actor._id) throw unprocessable(ERR.users.cannotDeleteSelf);
  if (current.username === ADMIN_USERNAME) throw unprocessable(ERR.users.cannotDeleteAdmin);
  await assertMayActOnUser(deps, actor, current);
  auditNote({
    targets: { username: current.username },
    detail: { before: { email: current.email, roles: current.roles } },
  });
  if (!(await deleteUser(deps.db, id, current.roles))) {
    return retryOnChange(deps, id, attempt, () => deleteUserById(deps, actor, id, attempt + 1));
  }
  // The rows went with the user; this closes their open console sockets.
  await endUserSessions(deps, id);
  deps.log.info({ by: actor.username, username: current.username }, 'user deleted');
}

/** A guarded write missed: the user is gone (404), or their roles changed (check again, twice at most). */
async function retryOnChange<T>(deps: Deps, id: string, attempt: number, again: () => Promise<T>): Promise<T> {
  if (!(await findUserById(deps.db, id))) throw notFound(ERR.users.userNotFound);
  if (attempt >= 3) throw conflict(ERR.users.changedMeanwhile);
  return again();
}
