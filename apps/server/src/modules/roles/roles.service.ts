import {
  ADMIN_ROLE,
  ALL_PERMISSIONS,
  MSG,
  ROLES_MSG,
  USERS_MSG,
  effectivePermissions,
  type Role,
  type RoleSave,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../errors.ts';
import {
  deleteRoleEverywhere,
  existingRoleNames,
  findRoleByName,
  findRoleByNameInsensitive,
  insertRole,
  listRoles,
  updateRolePermissions,
  type RoleRow,
} from './roles.repository.ts';

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

/**
 * "Add new role" (isNew) refuses a name taken in any case; Save updates the role with this
 * name (in any case) or creates it. The admin role and other read-only roles never change.
 */
export async function saveRole(deps: Deps, name: string, body: RoleSave): Promise<Role> {
  const permissions = normalisePermissions(body.permissions);
  const existing = await findRoleByNameInsensitive(deps.db, name);
  if (existing && body.isNew) throw conflict(MSG.roleExistsTitle);
  if (isAdminName(name)) throw unprocessable(ROLES_MSG.adminImmutable);
  if (existing?.readonly) throw unprocessable(ROLES_MSG.readonlyRole);
  if (existing) {
    const row = await updateRolePermissions(deps.db, existing.name, permissions);
    if (!row) throw notFound(ROLES_MSG.roleNotFound);
    return toRole(row);
  }
  const row = await insertRole(deps.db, name, permissions);
  // Another request created the name in the meantime.
  if (!row) throw conflict(MSG.roleExistsTitle);
  return toRole(row);
}

/** Deleting a role also takes it off every user that held it. */
export async function deleteRole(deps: Deps, name: string): Promise<void> {
  if (isAdminName(name)) throw unprocessable(ROLES_MSG.adminUndeletable);
  const existing = await findRoleByName(deps.db, name);
  if (!existing) throw notFound(ROLES_MSG.roleNotFound);
  if (existing.readonly) throw unprocessable(ROLES_MSG.readonlyRole);
  if (!(await deleteRoleEverywhere(deps.db, name))) throw notFound(ROLES_MSG.roleNotFound);
}

/** Users may only hold roles that exist (exact spelling). */
export async function assertRolesExist(deps: Deps, names: readonly string[]): Promise<void> {
  const found = await existingRoleNames(deps.db, [...new Set(names)]);
  const missing = names.find((n) => !found.has(n));
  if (missing !== undefined) throw badRequest(USERS_MSG.unknownRole(missing));
}
