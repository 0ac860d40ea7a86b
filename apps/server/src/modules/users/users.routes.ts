import { usersRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { createUser, deleteUserById, listAllUsers, updateUserById, usernameExists } from './users.service.ts';

export function registerUsersRoutes(app: App, deps: Deps): void {
  registerRoute(app, usersRoutes.list, async () => listAllUsers(deps));
  registerRoute(app, usersRoutes.create, async ({ user, body }) => createUser(deps, user, body));
  registerRoute(app, usersRoutes.update, async ({ user, params, body }) => updateUserById(deps, user, params.id, body));
  registerRoute(app, usersRoutes.remove, async ({ user, params }) => {
    await deleteUserById(deps, user, params.id);
    return undefined;
  });
  registerRoute(app, usersRoutes.exists, async ({ params }) => ({
    exists: await usernameExists(deps, params.username),
  }));
}
