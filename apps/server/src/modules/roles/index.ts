/** The roles area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerRoles } from './roles.module.ts';
export { assertMayAssignRoles, assertRolesExist } from './roles.service.ts';
