/** The auth area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerAuth } from './auth.module.ts';
export { cancelPasswordResets, giveQuotaBack, hashPassword, randomPassword, takeQuota } from './auth.service.ts';
export { disconnectRoleSockets, endUserSessions, loadSessionUser, permissionsForRoles } from './auth.sessions.ts';
export {
  deleteRoleEverywhere,
  existingRoleNames,
  findRoleByName,
  findRoleByNameInsensitive,
  insertRole,
  listRoles,
  permissionsOfRoles,
  type RoleRow,
  updateRolePermissions,
  upsertReadonlyRole,
} from './roles.repository.ts';
export {
  deleteUser,
  findUserById,
  findUserByUsername,
  insertUserIfFree,
  listUsers,
  updateUser,
  type UserRow,
} from './users.repository.ts';
