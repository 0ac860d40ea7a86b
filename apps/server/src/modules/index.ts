import type { App } from '../app.ts';
import type { Deps } from '../deps.ts';
import { authModule } from './auth/auth.routes.ts';
import { usersModule } from './users/users.routes.ts';
import { rolesModule } from './roles/roles.routes.ts';
import { eventsModule } from './events/events.routes.ts';
import { snapshotsModule } from './snapshots/snapshots.routes.ts';
import { camerasModule } from './cameras/cameras.routes.ts';
import { devicesModule } from './devices/devices.routes.ts';
import { notificationsModule } from './notifications/notifications.routes.ts';

/** Every area registers its routes and socket handlers here, one line each. */
export const modules: ((app: App, deps: Deps) => void | Promise<void>)[] = [
  authModule,
  usersModule,
  rolesModule,
  eventsModule,
  snapshotsModule,
  camerasModule,
  devicesModule,
  notificationsModule,
];
