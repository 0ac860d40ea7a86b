import { analyticsRoutes as r } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerPublicScope } from '../../plugins/public-scope.ts';
import { registerRoute } from '../../plugins/routes.ts';
import * as service from './analytics.service.ts';
import { heatmap } from './heatmap.service.ts';

export async function registerAnalyticsRoutes(app: App, deps: Deps): Promise<void> {
  registerRoute(app, r.basic, ({ params }) => service.basicAnalytics(deps, params.slugDate));
  registerRoute(app, r.google, ({ params }) => service.webAnalytics(deps, params.slugDate));
  registerRoute(app, r.vision, ({ params }) => service.visionAnalytics(deps, params.slugDate));
  registerRoute(app, r.pastEventData, ({ params }) => service.pastEventData(deps, params.slugDate));
  registerRoute(app, r.heatmap, ({ params, query }) => heatmap(deps, params.slugDate, query));
  registerRoute(app, r.export, async ({ user, params, reply }) => {
    const { name, csv } = await service.exportCsv(deps, user, params.slugDate);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(csv);
  });
  // The attendee app's page views: rate-limited like the rest of /api/public.
  await registerPublicScope(app, deps, (attendee) => {
    registerRoute(attendee, r.pageView, ({ body }) => service.recordPageView(deps, body));
  });
}
