import { cameraConfigsRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { listCameras, updateCameraConfigs } from './camera-configs.service.ts';

/** Camera Configs (spec 3 §2.6): the routes. The hosts' 'camera configs' reports: devices.socket.ts. */
export function registerCameraConfigs(app: App, deps: Deps): void {
  registerRoute(app, cameraConfigsRoutes.list, async () => listCameras(deps));
  registerRoute(app, cameraConfigsRoutes.update, async ({ params, body, user }) =>
    updateCameraConfigs(deps, params.key, body, user.username),
  );
}
