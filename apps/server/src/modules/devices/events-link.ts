/** The few calls this area makes into the events area, in one place. */
import type { Event } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { getCurrentEvent, getEventBySlugDate } from '../events/events.service.ts';
import { notifyMetricsChanged, reportQueueUsers } from '../events/metrics.service.ts';

/** The live event, else today's, else the next, else the template (DESIGN §6). */
export const currentEvent = (deps: Deps): Promise<Event> => getCurrentEvent(deps);
export const eventBySlugDate = (deps: Deps, slugDate: string): Promise<Event | null> =>
  getEventBySlugDate(deps, slugDate);
export const metricsChanged = (deps: Deps, slugDate: string): void => notifyMetricsChanged(deps, slugDate);
export const queueUsers = (deps: Deps, slugDate: string, camera: string, userIds: string[]): void =>
  reportQueueUsers(deps, slugDate, camera, userIds);
