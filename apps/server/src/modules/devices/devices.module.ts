import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { DeviceGate } from './device-gate.ts';
import { registerDevicesRoutes } from './devices.routes.ts';
import { HostBinding } from './host-binding.ts';
import { registerDeviceSocket } from './devices.socket.ts';
import { ensureDemoOverlays } from './overlays.bootstrap.ts';

/** Camera hosts: the /devices namespace and photo uploads. Boot (after events): demo overlays. */
export async function registerDevices(app: App, deps: Deps): Promise<void> {
  await ensureDemoOverlays(deps);
  const gate = new DeviceGate(deps);
  const binding = new HostBinding(deps);
  app.decorate('deviceGate', gate);
  app.addHook('onClose', async () => binding.close());
  registerDeviceSocket(deps, gate, binding);
  registerDevicesRoutes(app, deps);
}
