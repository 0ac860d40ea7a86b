import { cameraConfigsRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import type { DeviceSocket } from './cameras.service.ts';
import { hostReportedConfigs, listCameras, updateCameraConfigs } from './camera-configs.service.ts';

/** Camera Configs (spec 3 §2.6): routes and the hosts' 'camera configs' reports. */
export function registerCameraConfigs(app: App, deps: Deps): void {
  registerRoute(app, cameraConfigsRoutes.list, async () => listCameras(deps));
  registerRoute(app, cameraConfigsRoutes.update, async ({ params, body, user }) =>
    updateCameraConfigs(deps, params.key, body, user.username),
  );
  deps.realtime.devices.on('connection', (socket: DeviceSocket) => {
    socket.on('camera configs', (payload) => {
      hostReportedConfigs(deps, socket, payload).catch((err: unknown) =>
        deps.log.error({ err }, 'could not store camera configs'),
      );
    });
  });
}
