import { attendeeRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerPublicScope } from '../../plugins/public-scope.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { chooseOverlay, joinQueue, publicEvent, share, userSnapshots } from './attendee.service.ts';

/** The attendee path (/api/public, docs/protocol.md §3), rate limited per fan and per address (plugins/public-scope.ts). */
export async function registerAttendeeRoutes(app: App, deps: Deps): Promise<void> {
  await registerPublicScope(app, deps, (attendee) => {
    registerRoute(attendee, attendeeRoutes.event, async ({ query }) => publicEvent(deps, query.slugDate));
    registerRoute(attendee, attendeeRoutes.joinQueue, async ({ body, req }) => joinQueue(deps, req.fanId, body));
    registerRoute(attendee, attendeeRoutes.snapshots, async ({ query }) =>
      userSnapshots(deps, query.slugDate, query.userId),
    );
    registerRoute(attendee, attendeeRoutes.chooseOverlay, async ({ params, body }) =>
      chooseOverlay(deps, params.id, body.userId, body.overlay),
    );
    registerRoute(attendee, attendeeRoutes.share, async ({ params, body }) => share(deps, params.id, body));
  });
}
