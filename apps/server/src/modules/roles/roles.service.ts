import {
  ADMIN_ROLE,
  ALL_PERMISSIONS,
  P,
  effectivePermissions,
  isPermission,
  type Role,
  type RoleSave,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound, unprocessable, ERR } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { disconnectRoleSockets } from '../auth/index.ts';
import {
  deleteRoleEverywhere,
  existingRoleNames,
  findRoleByName,
  findRoleByNameInsensitive,
  insertRole,
  listRoles,
  permissionsOfRoles,
  updateRolePermissions,
  type RoleRow,
} from '../auth/index.ts';
import { auditNote } from '../../audit-context.ts';

const toRole = (r: RoleRow): Role => ({ name: r.name, permissions: r.permissions, readonly: r.readonly });
const isAdminName = (name: string) => name.toLowerCase() === ADMIN_ROLE;

/** The admin role first, then the others by name (spec 3 §2.2's list). */
export async function listAllRoles(deps: Deps): Promise<Role[]> {
  const rows = await listRoles(deps.db);
  // Case-insensitive, by code point: the same order on every machine and database.
  const key = (r: RoleRow) => r.name.toLowerCase();
  const byName = (a: RoleRow, b: RoleRow) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  const admin = rows.filter((r) => r.name === ADMIN_ROLE);
  const others = rows.filter((r) => r.name !== ADMIN_ROLE).sort(byName);
  return [...admin, ...others].map(toRole);
}

/** Stored lists are normalised: parents added (holding a child implies them), tree order. */
export function normalisePermissions(list: readonly string[]): string[] {
  const set = effectivePermissions(list);
  return ALL_PERMISSIONS.filter((p) => set.has(p));
}

/** Permissions that manage who holds what: a role holding one is changed only by a full holder. */
const MANAGING = [P.ROLES_WRITE, P.USERS] as const;

/** Nobody grants a permission they do not hold (role edits, role creation, role assignment). */
export function assertMayGrant(actor: AuthUser, granted: readonly string[]): void {
  const missing = granted.find((p) => !isPermission(p) || !actor.permissions.has(p));
  if (missing !== undefined) throw forbidden(ERR.roles.cannotGrant(missing));
}

function assertMayChangeRole(actor: AuthUser, ...lists: (readonly string[])[]): void {
  const managing = lists.some((list) => MANAGING.some((p) => list.includes(p)));
  if (managing && !ALL_PERMISSIONS.every((p) => actor.permissions.has(p))) {
    throw forbidden(ERR.roles.onlyFullHolderEditsManagers);
  }
}

/** What giving these roles to a user grants: each must be grantable by the actor. */
export async function assertMayAssignRoles(deps: Deps, actor: AuthUser, roleNames: readonly string[]): Promise<void> {
  assertMayGrant(actor, normalisePermissions(await permissionsOfRoles(deps.db, [...roleNames])));
}

/**
 * "Add new role" (isNew) refuses a name taken in any case; Save updates the role with this
 * name (in any case) or creates it. The admin role and other read-only roles never change.
 */
export async function saveRole(deps: Deps, actor: AuthUser, name: string, body: RoleSave): Promise<Role> {
  const permissions = normalisePermissions(body.permissions);
  const existing = await findRoleByNameInsensitive(deps.db, name);
  if (existing && body.isNew) throw conflict(ERR.roles.roleExistsTitle);
  if (isAdminName(name)) throw unprocessable(ERR.roles.adminImmutable);
  if (existing?.readonly) throw unprocessable(ERR.roles.readonlyRole);
  assertMayChangeRole(actor, existing?.permissions ?? [], permissions);
  auditNote({ detail: { before: existing ? { permissions: existing.permissions } : null, after: { permissions } } });
  // Keeping what the role already had is not granting it.
  assertMayGrant(
    actor,
    permissions.filter((p) => !existing?.permissions.includes(p)),
  );
  if (existing) {
    const row = await updateRolePermissions(deps.db, existing.name, permissions);
    if (!row) throw notFound(ERR.roles.roleNotFound);
    await disconnectRoleSockets(deps, row.name);
    return toRole(row);
  }
  const row = await insertRole(deps.db, name, permissions);
  // Another request created the name in the meantime.
  if (!row) throw conflict(ERR.roles.roleExistsTitle);
  return toRole(row);
}

/** Deleting a role also takes it off every user that held it. */
export async function deleteRole(deps: Deps, actor: AuthUser, name: string): Promise<void> {
  if (isAdminName(name)) throw unprocessable(ERR.roles.adminUndeletable);
  const existing = await findRoleByName(deps.db, name);
  if (!existing) throw notFound(ERR.roles.roleNotFound);
  if (existing.readonly) throw unprocessable(ERR.roles.readonlyRole);
  assertMayChangeRole(actor, existing.permissions);
  auditNote({ detail: { before: { permissions: existing.permissions } } });
  if (!(await deleteRoleEverywhere(deps.db, name))) throw notFound(ERR.roles.roleNotFound);
  await disconnectRoleSockets(deps, name);
}

/** Users may only hold roles that exist (exact spelling). */
export async function assertRolesExist(deps: Deps, names: readonly string[]): Promise<void> {
  const found = await existingRoleNames(deps.db, [...new Set(names)]);
  const missing = names.find((n) => !found.has(n));
  if (missing !== undefined) throw badRequest(ERR.users.unknownRole(missing));
}
