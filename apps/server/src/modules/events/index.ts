/** The events area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerEvents } from './events.module.ts';
export {
  currentEvent,
  eventBySlugDate,
  type EventCache,
  listenQueueUsers,
  metricsChanged,
  queueUsers,
} from './events.cache.ts';
export { toEvent } from './events.mapper.ts';
export { type EventInsert, type EventRow } from './events.repository.ts';
export { ensureTodayEventLive, getCurrentEvent, getEventBySlugDate } from './events.service.ts';
export { createMetricsState, type MetricsState } from './metrics.service.ts';
