import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerDevicesRoutes } from './devices.routes.ts';
import { registerDeviceSocket } from './devices.socket.ts';
import { ensureDemoOverlays } from './overlays.bootstrap.ts';

/** Camera hosts: the /devices namespace and photo uploads. Boot (after events): demo overlays. */
export async function registerDevices(app: App, deps: Deps): Promise<void> {
  await ensureDemoOverlays(deps);
  registerDeviceSocket(deps);
  registerDevicesRoutes(app, deps);
}
