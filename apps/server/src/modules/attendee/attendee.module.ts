import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerAttendeeRoutes } from './attendee.routes.ts';
import { registerAttendeeAppRoutes } from './attendee-app.routes.ts';

/** Attendees' phones: event, queue, own photos, overlay, share, live template stream, photo e-mail (/api/public), and the app at /app/. */
export async function registerAttendee(app: App, deps: Deps): Promise<void> {
  await registerAttendeeRoutes(app, deps);
  await registerAttendeeAppRoutes(app, deps);
}
