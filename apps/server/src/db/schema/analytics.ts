import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
