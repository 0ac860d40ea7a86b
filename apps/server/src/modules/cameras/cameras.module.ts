import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerCamerasRoutes } from './cameras.routes.ts';
import { registerCameraConfigs } from './camera-configs.ts';

/** Camera status. Boot: the hub learns the known cameras (all 'off' until their host says hello). */
export async function registerCameras(app: App, deps: Deps): Promise<void> {
  await deps.cameras.load();
  registerCamerasRoutes(app, deps);
  registerCameraConfigs(app, deps);
}
