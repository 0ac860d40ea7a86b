import type { Event, EventField, EventPart, EventStatus, Promo } from '@stadiumcam/contract';
import { defaultTemplateConfig } from './events.defaults.ts';
import type { EventRow } from './events.repository.ts';

/**
 * Table row → the API's Event. Configuration parts missing from an older row fall back to
 * the defaults, so every event answers the full shape.
 */
export function toEvent(r: EventRow): Event {
  return {
    ...defaultTemplateConfig(),
    ...r.config,
    _id: r.id,
    template: r.template,
    slug: r.slug,
    slugDate: r.slugDate,
    eventStatus: r.eventStatus as EventStatus,
    startTime: r.startTime?.toISOString() ?? null,
    endTime: r.endTime?.toISOString() ?? null,
    gameDate: r.gameDate,
    title: r.title,
    timezone: r.timezone,
    promo: r.promo as Promo[],
  } as Event;
}

/** `fields[]`: only the asked fields plus _id; no list means the whole event. */
export function project(event: Event, fields: EventField[] | undefined): EventPart {
  if (!fields?.length) return event;
  const out: EventPart = { _id: event._id };
  for (const f of fields) (out as Record<string, unknown>)[f] = event[f];
  return out;
}
