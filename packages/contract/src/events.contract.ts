import { z } from 'zod';
import { defineRoute, queryList } from './route.ts';
import { P } from './permissions.ts';
import { EVENT_STATUSES, PROMO_TYPES } from './constants.ts';
import { LiveMetricsSchema } from './snapshots.contract.ts';

/** One promotion of an event (spec 2 §3): start is an ISO instant in UTC. */
export const PromoSchema = z.object({
  _id: z.string(),
  type: z.enum(PROMO_TYPES),
  start: z.string(),
});
export type Promo = z.infer<typeof PromoSchema>;
export type PromoType = (typeof PROMO_TYPES)[number];

/**
 * An event as the console sees it (spec 1 §3, spec 2 §3). The master template has
 * template: true, slugDate = slug, and null times/gameDate. The configuration parts are
 * kept loose here: the template screens own their inner shapes. Unknown configuration keys
 * pass through (looseObject) so a screen can add a part without changing this schema.
 */
export const EventSchema = z.looseObject({
  _id: z.string(),
  template: z.boolean(),
  slug: z.string(),
  slugDate: z.string(),
  eventStatus: z.enum(EVENT_STATUSES),
  /** ISO instant (UTC); null for the template. */
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  /** YYYY-MM-DD in the event's time zone; null for the template. */
  gameDate: z.string().nullable(),
  title: z.string(),
  timezone: z.string(),
  overlays: z.array(z.record(z.string(), z.unknown())),
  availableLanguages: z.array(z.string()),
  languages: z.record(z.string(), z.unknown()),
  defaultLanguage: z.string(),
  images: z.record(z.string(), z.unknown()),
  venueType: z.string(),
  theme: z.record(z.string(), z.unknown()),
  iconColor: z.record(z.string(), z.unknown()),
  emailSettings: z.record(z.string(), z.unknown()),
  seatType: z.array(z.unknown()),
  blockedSeats: z.array(z.unknown()),
  screenshots: z.array(z.unknown()),
  screenshotsHash: z.string(),
  triviaEnabled: z.boolean(),
  slideshow: z.record(z.string(), z.unknown()),
  share: z.array(z.unknown()),
  geofence: z.record(z.string(), z.unknown()),
  promo: z.array(PromoSchema),
});
export type Event = z.infer<typeof EventSchema>;

/** The names `fields[]` may ask for (every field of Event). */
export const EVENT_FIELDS = Object.keys(EventSchema.shape) as (keyof typeof EventSchema.shape)[];
export type EventField = (typeof EVENT_FIELDS)[number];

/** A list item: only the asked fields (plus _id) are present. */
export const EventPartSchema = EventSchema.partial().extend({ _id: z.string() });
export type EventPart = z.infer<typeof EventPartSchema>;

const FieldsQuerySchema = z.object({
  fields: queryList(z.enum(EVENT_FIELDS as [EventField, ...EventField[]])).optional(),
});

const SlugDateSchema = z.string().min(1).max(100);

/**
 * POST /api/events: one dated event, a copy of the master template's configuration.
 * Only types are checked here (400); the spec's rules (name required, not in the past,
 * one per day, 15-minute steps, 5 min to 24 h) answer 422/409 with the spec's text.
 */
export const EventCreateSchema = z.strictObject({
  /** YYYY-MM-DD in the event's time zone. */
  gameDate: z.string().max(10),
  /** Must be `${slug}-${gameDate}` (slug 'stadiumcam'). */
  slugDate: SlugDateSchema,
  /** ISO instants (UTC or with offset); an end on the next local day crosses midnight. */
  startTime: z.string().max(40),
  endTime: z.string().max(40),
  title: z.string().max(200),
  /** IANA zone; default the template's (America/Winnipeg). */
  timezone: z.string().max(100).optional(),
});
export type EventCreate = z.infer<typeof EventCreateSchema>;

/** A promotion as sent: without _id it is new and the server assigns one. */
export const PromoInputSchema = z.strictObject({
  _id: z.string().max(100).optional(),
  type: z.string().max(100),
  /** ISO instant; not a valid date → 422 'Time is Not Valid'. */
  start: z.string().max(40),
});
export type PromoInput = z.infer<typeof PromoInputSchema>;

/**
 * PUT /api/events data. Which permission a change needs:
 * - title / startTime (with endTime): an edit → calendar_eventMenu_editEvent (implies Event:write);
 * - eventStatus, or endTime alone (the early end): Event:write or main_header_powerBtn;
 * - promo (the full list): Event:write or main_header_liveMetric.
 */
export const EventUpdateDataSchema = z.strictObject({
  title: z.string().max(200).optional(),
  startTime: z.string().max(40).optional(),
  endTime: z.string().max(40).optional(),
  eventStatus: z.enum(EVENT_STATUSES).optional(),
  promo: z.array(PromoInputSchema).max(100).optional(),
});
export type EventUpdateData = z.infer<typeof EventUpdateDataSchema>;

export const EventUpdateSchema = z.strictObject({
  slugDate: SlugDateSchema,
  data: EventUpdateDataSchema,
});
export type EventUpdate = z.infer<typeof EventUpdateSchema>;

export const EventMetricsSchema = LiveMetricsSchema.extend({ slugDate: z.string() });
export type EventMetrics = z.infer<typeof EventMetricsSchema>;

export const eventsRoutes = {
  /** The event list (selector, calendar), template included, sorted by gameDate. */
  list: defineRoute({
    method: 'GET',
    path: '/api/events',
    permission: 'session',
    query: FieldsQuerySchema,
    response: z.array(EventPartSchema),
  }),
  /** The current event (DESIGN §6): live, else today's, else next upcoming, else the template. */
  current: defineRoute({
    method: 'GET',
    path: '/api/events/stadiumcam',
    permission: 'session',
    query: FieldsQuerySchema,
    response: EventPartSchema,
  }),
  /** One event, the template too (`/api/event/stadiumcam`); 404 'Event not found'. */
  get: defineRoute({
    method: 'GET',
    path: '/api/event/:slugDate',
    permission: 'session',
    params: z.object({ slugDate: SlugDateSchema }),
    response: EventSchema,
  }),
  create: defineRoute({
    method: 'POST',
    audit: 'event.create',
    path: '/api/events',
    permission: [P.EVENT_WRITE, P.DAY_CLICK_CREATE_EVENT],
    body: EventCreateSchema,
    response: EventSchema,
  }),
  /** The finer permission per kind of change is checked by the server (see EventUpdateDataSchema). */
  update: defineRoute({
    method: 'PUT',
    audit: 'event.update',
    path: '/api/events',
    permission: [P.EVENT_WRITE, P.POWER_BTN, P.LIVE_METRIC],
    or: true,
    body: EventUpdateSchema,
    response: EventSchema,
  }),
  /** Deletes the event with its snapshots, notifications and media (DESIGN §6); 204. */
  remove: defineRoute({
    method: 'DELETE',
    audit: 'event.delete',
    path: '/api/events/:slugDate/delete/false',
    permission: [P.EVENT_WRITE, P.DELETE_EVENT],
    params: z.object({ slugDate: SlugDateSchema }),
    response: null,
  }),
  /** Live metrics of an event (default: the current event). */
  metrics: defineRoute({
    method: 'GET',
    path: '/api/events/metrics',
    permission: [P.LIVE_METRIC, P.MONITOR_READ],
    or: true,
    query: z.object({ slugDate: SlugDateSchema.optional() }),
    response: EventMetricsSchema,
  }),
};
