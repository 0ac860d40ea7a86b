import type { App } from '../app.ts';
import type { Deps } from '../deps.ts';
import { registerOps } from './ops/ops.module.ts';
import { registerRoles } from './roles/roles.module.ts';
import { registerUsers } from './users/users.module.ts';
import { registerAuth } from './auth/auth.module.ts';
import { registerEvents } from './events/events.module.ts';
import { registerSnapshots } from './snapshots/snapshots.module.ts';
import { registerCameras } from './cameras/cameras.module.ts';
import { registerMonitor } from './monitor/monitor.module.ts';
import { registerDevices } from './devices/devices.module.ts';
import { registerAttendee } from './attendee/attendee.module.ts';
import { registerNotifications } from './notifications/notifications.module.ts';
import { registerAnalytics } from './analytics/analytics.module.ts';
import { registerTemplate } from './template/template.module.ts';
import { registerMapping } from './mapping/mapping.module.ts';
import { registerSlideshow } from './slideshow/slideshow.module.ts';

/**
 * Every area, one line each, in boot order: each one's boot tasks run when it registers, so
 * this list is the only place the order lives. The admin role before the admin user; the
 * master template (events) before the demo overlays (devices); the camera hub loaded before
 * the sockets that use it. The one process task, the orphan media sweep, runs in main.ts after
 * listen (it needs the data-folder lock main.ts takes): see there.
 */
export const modules: ((app: App, deps: Deps) => void | Promise<void>)[] = [
  // First: its request timing hook sees every route.
  registerOps,
  registerRoles,
  registerUsers,
  registerAuth,
  registerEvents,
  registerSnapshots,
  registerCameras,
  registerMonitor,
  registerDevices,
  registerAttendee,
  registerNotifications,
  registerAnalytics,
  registerTemplate,
  registerMapping,
  registerSlideshow,
];
