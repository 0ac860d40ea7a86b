import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerMonitorSocket } from './monitor.socket.ts';

/** The console's camera commands on /console (docs/protocol.md §2). */
export function registerMonitor(_app: App, deps: Deps): void {
  registerMonitorSocket(deps);
}
