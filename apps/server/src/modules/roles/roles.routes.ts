import { rolesRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { deleteRole, listAllRoles, saveRole } from './roles.service.ts';

export function registerRolesRoutes(app: App, deps: Deps): void {
  registerRoute(app, rolesRoutes.list, async () => listAllRoles(deps));
  registerRoute(app, rolesRoutes.save, async ({ user, params, body }) => saveRole(deps, user, params.name, body));
  registerRoute(app, rolesRoutes.remove, async ({ user, params }) => {
    await deleteRole(deps, user, params.name);
    return undefined;
  });
}
