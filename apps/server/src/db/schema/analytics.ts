import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { events } from './events.ts';

/**
 * Analytics roll-ups (docs/analytics.md). Kept exact by statement-level triggers on snapshots
 * (created at boot by the analytics module, like the album counters), so an event's figures
 * are a few thousand rows to sum instead of a million photos to scan. No foreign keys: an
 * event's cascade delete must not race the triggers; rows of a deleted event are removed with
 * their photos.
 */

/** Per event, 15-minute UTC bucket (every time zone's quarter hours), metric and key: a count. */
export const analyticsCounts = pgTable(
  'analytics_counts',
  {
    slugDate: text('slug_date').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    /** snapshots, sharedPhotos, shares, source, overlay, section, row, groupSize, faces, age, gender, emotion, trait:<name> */
    metric: text('metric').notNull(),
    key: text('key').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.slugDate, t.metric, t.key, t.bucket] })],
);

/** One row per attendee (user id) and event: their photos, shared photos and first photo. */
export const eventUsers = pgTable(
  'event_users',
  {
    slugDate: text('slug_date').notNull(),
    userId: text('user_id').notNull(),
    photos: integer('photos').notNull(),
    sharedPhotos: integer('shared_photos').notNull(),
    firstDate: timestamp('first_date', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.slugDate, t.userId] }),
    index('event_users_first_idx').on(t.slugDate, t.firstDate, t.sharedPhotos),
  ],
);

/** Cookieless page views of the attendee app, counted per event, day, dimension and value. */
export const pageViewCounts = pgTable(
  'page_view_counts',
  {
    slugDate: text('slug_date').notNull(),
    day: date('day').notNull(),
    dimension: text('dimension').notNull(),
    key: text('key').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.slugDate, t.dimension, t.key, t.day] })],
);

/**
 * Successful queue joins (one row per join, no fan id: only where and when), so the seat heat
 * map counts joins the way it counts photos: the roll-up below is kept by triggers on this
 * table, and an event's delete or rename cascades here and through them.
 */
export const queueJoins = pgTable(
  'queue_joins',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    slugDate: text('slug_date')
      .notNull()
      .references(() => events.slugDate, { onDelete: 'cascade', onUpdate: 'cascade' }),
    seatType: text('seat_type').notNull(),
    section: text('section').notNull(),
    row: text('row').notNull(),
    seat: text('seat').notNull(),
    date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('queue_joins_event_idx').on(t.slugDate)],
);

/**
 * The seat heat map's roll-up: per event and seat, queue joins, attendee photos and share
 * records, kept exact by the analytics triggers on snapshots and queue_joins (docs/analytics.md).
 * A venue has thousands of seats, so an event's map is a few thousand rows however many photos.
 */
export const seatCounts = pgTable(
  'seat_counts',
  {
    slugDate: text('slug_date').notNull(),
    seatType: text('seat_type').notNull(),
    section: text('section').notNull(),
    row: text('row').notNull(),
    seat: text('seat').notNull(),
    joins: integer('joins').notNull().default(0),
    photos: integer('photos').notNull().default(0),
    shares: integer('shares').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.slugDate, t.seatType, t.section, t.row, t.seat] })],
);

/** The same counts per section (what the bowl draws): ~100 rows to read instead of every seat. */
export const sectionCounts = pgTable(
  'section_counts',
  {
    slugDate: text('slug_date').notNull(),
    seatType: text('seat_type').notNull(),
    section: text('section').notNull(),
    joins: integer('joins').notNull().default(0),
    photos: integer('photos').notNull().default(0),
    shares: integer('shares').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.slugDate, t.seatType, t.section] })],
);
