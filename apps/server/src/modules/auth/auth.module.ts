import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerAuthRoutes } from './auth.routes.ts';

/** Login, logout, session, password reset. */
export function registerAuth(app: App, deps: Deps): void {
  registerAuthRoutes(app, deps);
}
