import { camerasRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';

export function registerCamerasRoutes(app: App, deps: Deps): void {
  const hub = deps.cameras;
  registerRoute(app, camerasRoutes.status, async () => hub.status());
  registerRoute(app, camerasRoutes.monitor, async () => ({ cameras: hub.states(), demo: hub.demo }));
}
