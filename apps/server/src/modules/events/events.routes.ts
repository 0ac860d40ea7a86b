import { MSG, eventsRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
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
import { getMetrics } from './metrics.service.ts';

export function registerEventsRoutes(app: App, deps: Deps): void {
  registerRoute(app, eventsRoutes.list, async ({ query }) => listEvents(deps, query.fields));

  registerRoute(app, eventsRoutes.current, async ({ query }) => project(await getCurrentEvent(deps), query.fields));

  registerRoute(app, eventsRoutes.get, async ({ params }) => {
    const event = await getEventBySlugDate(deps, params.slugDate);
    if (!event) throw notFound(MSG.events.eventNotFound);
    return event;
  });

  registerRoute(app, eventsRoutes.create, async ({ body }) => createEvent(deps, body));

  registerRoute(app, eventsRoutes.update, async ({ body, user }) => updateEvent(deps, user, body));

  registerRoute(app, eventsRoutes.remove, async ({ params }) => {
    await deleteEvent(deps, params.slugDate);
    return undefined;
  });

  registerRoute(app, eventsRoutes.metrics, async ({ query }) =>
    getMetrics(deps, query.slugDate ?? (await getCurrentEvent(deps)).slugDate),
  );
}
