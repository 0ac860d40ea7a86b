import { eventsRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { notFound, ERR } from '../../errors.ts';
import { registerRoute } from '../../plugins/routes.ts';
import {
  createEvent,
  deleteEvent,
  getCurrentEvent,
  getEventBySlugDate,
  listEvents,
  updateEvent,
} from './events.service.ts';
import { project } from './events.mapper.ts';
import { auditNote } from '../../audit-context.ts';
import { getMetrics } from './metrics.service.ts';

export function registerEventsRoutes(app: App, deps: Deps): void {
  registerRoute(app, eventsRoutes.list, async ({ query }) => listEvents(deps, query.fields));

  registerRoute(app, eventsRoutes.current, async ({ query }) => project(await getCurrentEvent(deps), query.fields));

  registerRoute(app, eventsRoutes.get, async ({ params }) => {
    const event = await getEventBySlugDate(deps, params.slugDate);
    if (!event) throw notFound(ERR.events.eventNotFound);
    return event;
  });

  registerRoute(app, eventsRoutes.create, async ({ body }) => createEvent(deps, body));

  registerRoute(app, eventsRoutes.update, async ({ body, user }) => {
    // Going live: the pre-live checklist's failing items at that moment go into the audit entry
    // (computed here, not taken from the console, so a client cannot hide them).
    if (body.data.eventStatus === 'live') {
      const failures = await deps.preLiveFailures(body.slugDate);
      if (failures.length) auditNote({ detail: { checklistFailures: failures } });
    }
    return updateEvent(deps, user, body);
  });

  registerRoute(app, eventsRoutes.remove, async ({ params }) => {
    await deleteEvent(deps, params.slugDate);
    return undefined;
  });

  registerRoute(app, eventsRoutes.metrics, async ({ query }) =>
    getMetrics(deps, query.slugDate ?? (await getCurrentEvent(deps)).slugDate),
  );
}
