import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per event; the master template is the row with template = true and
 * slug_date = slug. The attendee-facing configuration (spec 2) lives in `config` so a new
 * dated event is a plain copy of the template's.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    // A table constraint, not only an index: the snapshots and notifications foreign keys need it
    // when the migration creates them (indexes come after the foreign keys).
    slugDate: text('slug_date').notNull().unique('events_slug_date_unique'),
    template: boolean('template').notNull().default(false),
    title: text('title').notNull(),
    eventStatus: text('event_status').notNull().default('pre'),
    /** YYYY-MM-DD in the event's time zone; null for the template. */
    gameDate: text('game_date'),
    startTime: timestamp('start_time', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    timezone: text('timezone').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    /** Highest number of attendees seen in the camera queues at once (live metrics); survives restarts. */
    peak: integer('peak').notNull().default(0),
    promo: jsonb('promo').$type<{ _id: string; type: string; start: string }[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_game_date_idx').on(t.gameDate), index('events_status_idx').on(t.eventStatus)],
);
