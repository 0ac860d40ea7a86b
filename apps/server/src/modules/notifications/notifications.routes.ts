import { notificationsRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { countSuspicious, dismissNotification, listSuspicious } from './notifications.service.ts';

export function registerNotificationsRoutes(app: App, deps: Deps): void {
  registerRoute(app, notificationsRoutes.list, async ({ query }) =>
    listSuspicious(deps, query.slugDate, query.offset, query.limit),
  );
  registerRoute(app, notificationsRoutes.count, async ({ query }) => ({
    total: await countSuspicious(deps, query.slugDate),
  }));
  registerRoute(app, notificationsRoutes.dismiss, async ({ params }) => dismissNotification(deps, params.id));
}
