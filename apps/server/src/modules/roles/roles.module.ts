import { ADMIN_ROLE, ALL_PERMISSIONS } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { upsertReadonlyRole } from '../auth/index.ts';
import { registerRolesRoutes } from './roles.routes.ts';

/** Roles. Boot: the built-in admin role holds every permission of this version. */
export async function registerRoles(app: App, deps: Deps): Promise<void> {
  await upsertReadonlyRole(deps.db, ADMIN_ROLE, ALL_PERMISSIONS);
  registerRolesRoutes(app, deps);
}
