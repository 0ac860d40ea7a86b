import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerNotificationsRoutes } from './notifications.routes.ts';

/** Suspicious-user notifications. */
export function registerNotifications(app: App, deps: Deps): void {
  registerNotificationsRoutes(app, deps);
}
