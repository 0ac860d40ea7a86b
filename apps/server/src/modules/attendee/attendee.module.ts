import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { installPublicLimits } from '../../plugins/public-scope.ts';
import { registerAttendeeRoutes } from './attendee.routes.ts';
import { registerAttendeeAppRoutes } from './attendee-app.routes.ts';
import { createFanIds } from './fan-token.ts';

/** Attendees' phones: fan ids, event, queue, own photos, overlay, share, live stream, photo e-mail, trivia answers (/api/public), and the app at /app/. */
export async function registerAttendee(app: App, deps: Deps): Promise<void> {
  const fans = await createFanIds(deps);
  // Every /api/public request, whichever module registers its route (docs/security.md §19).
  installPublicLimits(app, deps, fans.verify);
  await registerAttendeeRoutes(app, deps);
  await registerAttendeeAppRoutes(app, deps, fans);
}
