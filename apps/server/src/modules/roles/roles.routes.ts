import { rolesRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { deleteRole, listAllRoles, saveRole } from './roles.service.ts';

export function rolesModule(app: App, deps: Deps): void {
  registerRoute(app, rolesRoutes.list, async () => listAllRoles(deps));
  registerRoute(app, rolesRoutes.save, async ({ params, body }) => saveRole(deps, params.name, body));
  registerRoute(app, rolesRoutes.remove, async ({ params }) => {
    await deleteRole(deps, params.name);
    return undefined;
  });
}
