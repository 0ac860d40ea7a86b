import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { ensureAdminUser } from './users.bootstrap.ts';
import { registerUsersRoutes } from './users.routes.ts';

/** Users. Boot (after roles): the admin user on first start. */
export async function registerUsers(app: App, deps: Deps): Promise<void> {
  await ensureAdminUser(deps);
  registerUsersRoutes(app, deps);
}
