import type { App } from '../app.ts';
import type { Deps } from '../deps.ts';
import { registerOps } from './ops/index.ts';
import { registerAudit } from './audit/index.ts';
import { registerRoles } from './roles/index.ts';
import { registerUsers } from './users/index.ts';
import { registerAuth } from './auth/index.ts';
import { registerEvents } from './events/index.ts';
import { registerSnapshots } from './snapshots/index.ts';
import { registerCameras } from './cameras/index.ts';
import { registerMonitor } from './monitor/index.ts';
import { registerDevices } from './devices/index.ts';
import { registerAttendee } from './attendee/index.ts';
import { registerNotifications } from './notifications/index.ts';
import { registerAnalytics } from './analytics/index.ts';
import { registerTemplate } from './template/index.ts';
import { registerMapping } from './mapping/index.ts';
import { registerSlideshow } from './slideshow/index.ts';
import { registerChecklist } from './checklist/index.ts';
import { registerDocs } from './docs/index.ts';

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
  // Second: every audited route and socket command records through it.
  registerAudit,
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
  registerChecklist,
  // Last: the API description reads the contract, not the other modules.
  registerDocs,
];
