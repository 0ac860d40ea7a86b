import { camerasRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { registerDeviceSocket } from '../devices/devices.socket.ts';
import { registerMonitorSocket } from '../monitor/monitor.socket.ts';
import { cameraHub } from './cameras.service.ts';

/** Cameras: status routes, the /devices namespace and the console's camera commands. */
export async function camerasModule(app: App, deps: Deps): Promise<void> {
  const hub = cameraHub(deps);
  await hub.load();
  registerDeviceSocket(deps);
  registerMonitorSocket(deps);
  registerRoute(app, camerasRoutes.status, async () => hub.status());
  registerRoute(app, camerasRoutes.monitor, async () => ({ cameras: hub.states(), demo: hub.demo }));
}
