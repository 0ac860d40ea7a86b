import {
  readEventConfig,
  type Event,
  type EventField,
  type EventPart,
  type EventStatus,
  type Promo,
} from '@stadiumcam/contract';
import type { EventRow } from './events.repository.ts';

/** Where a stored configuration field that no longer parses is reported. */
export type ConfigLog = { warn: (obj: object, msg: string) => void };

/**
 * Table row → the API's Event. The configuration is parsed with the contract's schemas
 * (`readEventConfig`): a part missing from an older row is its default, and a stored value that
 * no longer parses is logged and replaced by its default, never cast.
 */
export function toEvent(r: EventRow, log?: ConfigLog): Event {
  const { config, rejected } = readEventConfig(r.config);
  if (rejected.length)
    log?.warn({ slugDate: r.slugDate, fields: rejected }, 'stored configuration replaced by defaults');
  return {
    ...config,
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
  };
}

/** `fields[]`: only the asked fields plus _id; no list means the whole event. */
export function project(event: Event, fields: EventField[] | undefined): EventPart {
  if (!fields?.length) return event;
  const out: EventPart = { _id: event._id };
  for (const f of fields) (out as Record<string, unknown>)[f] = event[f];
  return out;
}
