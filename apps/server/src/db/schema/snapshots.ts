import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { events } from './events.ts';

export type ShareRecord = { socialSource: string; imgURL: string; date: string; userEmail?: string };

/**
 * Attendee photos. Face data is kept whole in `faces` and summarised in plain columns
 * (group size, age range, genders, emotions) so the album's filters use indexes at 1M rows.
 */
/** The tab columns (and share platforms) a filtered page or count checks inside an index. */
const tabKeys = (t: {
  magicshot: AnyPgColumn;
  favorite: AnyPgColumn;
  sharedCount: AnyPgColumn;
  shareSources: AnyPgColumn;
}) => [t.magicshot, t.favorite, t.sharedCount, t.shareSources] as const;

export const snapshots = pgTable(
  'snapshots',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    slugDate: text('slug_date')
      .notNull()
      .references(() => events.slugDate, { onDelete: 'cascade', onUpdate: 'cascade' }),
    userId: text('user_id').notNull(),
    camera: text('camera').notNull(),
    seatType: text('seat_type').notNull().default('section'),
    section: text('section').notNull().default(''),
    row: text('row').notNull().default(''),
    seat: text('seat').notNull().default(''),
    date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
    thumbUri: text('thumb_uri').notNull().default(''),
    smallUri: text('small_uri').notNull().default(''),
    rawCroppedUri: text('raw_cropped_uri').notNull().default(''),
    sharedUri: text('shared_uri').notNull().default(''),
    mediaType: text('media_type').notNull().default('image'),
    favorite: boolean('favorite').notNull().default(false),
    hidden: boolean('hidden').notNull().default(false),
    magicshot: boolean('magicshot').notNull().default(false),
    overlay: text('overlay'),
    postObj: jsonb('post_obj').$type<ShareRecord[]>().notNull().default([]),
    sharedCount: integer('shared_count').notNull().default(0),
    shareSources: text('share_sources')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    faces: jsonb('faces').$type<unknown[] | null>(),
    groupSize: integer('group_size'),
    ageMin: integer('age_min'),
    ageMax: integer('age_max'),
    /** 'Female', 'Male' or 'Both' when faces were found. */
    genders: text('genders'),
    emotions: text('emotions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  // Every album query names its events first, so every index leads with slug_date. Partial
  // indexes serve the tabs (all / favorites / shared / magicshots) in date order, so a page is
  // an index walk; docs/bench-album.md shows the plans at 1M rows.
  (t) => [
    index('snapshots_event_date_idx').on(t.slugDate, t.date, t.id),
    index('snapshots_album_idx')
      .on(t.slugDate, t.date, t.id)
      .where(sql`${t.magicshot} = false`),
    index('snapshots_favorites_idx')
      .on(t.slugDate, t.date, t.id)
      .where(sql`${t.favorite} = true and ${t.magicshot} = false`),
    index('snapshots_shared_idx')
      .on(t.slugDate, t.date, t.id)
      .where(sql`${t.sharedCount} > 0 and ${t.magicshot} = false`),
    index('snapshots_magicshot_idx')
      .on(t.slugDate, t.date, t.id)
      .where(sql`${t.magicshot} = true`),
    index('snapshots_event_user_idx').on(t.slugDate, t.userId, t.date, t.id),
    // Trailing keys are not for order: they let a filtered page or count check camera, tab and
    // share platform inside the index (index-only, no visit to the table per candidate).
    index('snapshots_event_srs_idx').on(
      t.slugDate,
      t.seatType,
      t.section,
      t.row,
      t.seat,
      t.date,
      t.id,
      t.camera,
      ...tabKeys(t),
    ),
    index('snapshots_event_row_idx').on(t.slugDate, t.row),
    index('snapshots_event_seat_idx').on(t.slugDate, t.seat),
    index('snapshots_event_camera_idx').on(t.slugDate, t.camera, t.date, t.id, ...tabKeys(t)),
    // Section and camera together (a common pair): both leading, so the scan reads only the
    // matching (section, camera) ranges instead of whole sections.
    index('snapshots_event_section_camera_idx').on(
      t.slugDate,
      t.seatType,
      t.section,
      t.camera,
      t.date,
      t.id,
      ...tabKeys(t),
    ),
    index('snapshots_event_overlay_idx').on(t.slugDate, t.overlay),
    index('snapshots_faces_idx')
      .on(t.slugDate, t.groupSize, t.ageMin, t.ageMax)
      .where(sql`${t.groupSize} is not null`),
    index('snapshots_emotions_idx').using('gin', t.emotions),
    index('snapshots_share_sources_idx').using('gin', t.shareSources),
    // Share platforms: the option list's loose scan, and the platform filter's count read
    // inside the index (magicshot is the tab check; the filter adds shared_count > 0).
    index('snapshots_event_sources_idx')
      .on(t.slugDate, t.shareSources, t.magicshot)
      .where(sql`${t.sharedCount} > 0`),
    index('snapshots_user_idx').on(t.userId, t.date),
    // The event users' "banned" filter: banned photos are few, walked in date order.
    index('snapshots_banned_idx')
      .on(t.slugDate, t.date, t.id)
      .where(sql`${t.hidden} = true`),
  ],
);

/**
 * The album's tab counts per event, kept exact by statement-level triggers on snapshots
 * (created at boot by the snapshots module: drizzle-kit does not write triggers), so the
 * unfiltered stats of a million-photo event are one row read. No foreign key: an event's
 * cascade delete must not race its counter row.
 */
export const snapshotCounts = pgTable('snapshot_counts', {
  slugDate: text('slug_date').primaryKey(),
  all: integer('all_count').notNull().default(0),
  favorite: integer('favorite_count').notNull().default(0),
  magicshots: integer('magicshot_count').notNull().default(0),
  shared: integer('shared_count').notNull().default(0),
  /** Bumped by every statement that touches the event's photos: cached page anchors check it. */
  version: integer('version').notNull().default(0),
});

/**
 * One row per statement that touched an event's photos (its counter version), written by the
 * same triggers: per tab, the oldest date whose place in that tab's date order the statement
 * changed (null: none there, e.g. a favourite leaves the All tab as it was). Cached page
 * anchors older than it stay exact, so photos arriving at the newest end leave them valid. The
 * triggers (db/migrations/0001_album_counters.sql) keep the last 20,000 versions per event.
 */
export const snapshotChanges = pgTable(
  'snapshot_changes',
  {
    slugDate: text('slug_date').notNull(),
    version: integer('version').notNull(),
    allFrom: timestamp('all_from', { withTimezone: true }),
    favoriteFrom: timestamp('favorite_from', { withTimezone: true }),
    magicshotFrom: timestamp('magicshot_from', { withTimezone: true }),
    sharedFrom: timestamp('shared_from', { withTimezone: true }),
    /** The all-with-magicshot list. */
    anyFrom: timestamp('any_from', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.slugDate, t.version] })],
);
