import type { Event } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { getCurrentEvent, getEventBySlugDate } from './events.service.ts';
import { notifyMetricsChanged, reportQueueUsers } from './metrics.service.ts';

/**
 * Every attendee join and every photo needs its event: at 10 photos/s the lookups were a good
 * part of the database's work, so an answer is reused for a moment (a changed overlay list
 * reaches attendees a second later).
 */
const EVENT_CACHE_MS = 1_000;
/** Recent event lookups of one app (on Deps). */
export type EventCache = Map<string, { at: number; value: Promise<Event | null> }>;

function cached(deps: Deps, key: string, load: () => Promise<Event | null>): Promise<Event | null> {
  const cache = deps.eventCache;
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && now - hit.at < EVENT_CACHE_MS) return hit.value;
  if (cache.size > 100) cache.clear();
  const value = load();
  cache.set(key, { at: now, value });
  value.catch(() => cache.delete(key));
  return value;
}

/** The live event, else today's, else the next, else the template (DESIGN §6). */
export const currentEvent = async (deps: Deps): Promise<Event> =>
  (await cached(deps, '\ncurrent', () => getCurrentEvent(deps)))!;
export const eventBySlugDate = (deps: Deps, slugDate: string): Promise<Event | null> =>
  cached(deps, slugDate, () => getEventBySlugDate(deps, slugDate));
export const metricsChanged = (deps: Deps, slugDate: string): void => notifyMetricsChanged(deps, slugDate);
/** A camera's queue as its host reported it here; the other instances mirror it for their live counts. */
export function queueUsers(deps: Deps, slugDate: string, camera: string, userIds: string[]): void {
  reportQueueUsers(deps, slugDate, camera, userIds);
  deps.cluster.publish('queue', { slugDate, camera, userIds });
}

/** Queues reported to other instances: counted here, emitted and stored there (docs/operations.md). */
export function listenQueueUsers(deps: Deps): void {
  deps.cluster.on('queue', (p: { slugDate: string; camera: string; userIds: string[] }) => {
    if (typeof p?.slugDate !== 'string' || typeof p.camera !== 'string' || !Array.isArray(p.userIds)) return;
    reportQueueUsers(deps, p.slugDate, p.camera, p.userIds, { mirrored: true });
  });
}
