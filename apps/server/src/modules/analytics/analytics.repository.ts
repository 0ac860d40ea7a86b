import { and, desc, eq, gt, inArray, like, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  analyticsCounts,
  events,
  pageViewCounts,
  queueJoins,
  seatCounts,
  sectionCounts as sectionCountsTable,
  snapshotCounts,
} from '../../db/schema/index.ts';
import { rowsOf } from '../snapshots/index.ts';

export type CountRow = { metric: string; key: string; bucket: Date; n: number };
export type UserBucketRow = { bucket: Date; users: number; sharers: number };
export type EventRow = typeof events.$inferSelect;

/** An event's roll-up rows of these metrics (a few thousand at most, whatever the photo count). */
export async function countRows(db: Db, slugDate: string, metrics: string[], withTraits = false): Promise<CountRow[]> {
  const c = analyticsCounts;
  const named = inArray(c.metric, metrics);
  const rows = await db
    .select({ metric: c.metric, key: c.key, bucket: c.bucket, n: c.n })
    .from(c)
    .where(and(eq(c.slugDate, slugDate), withTraits ? or(named, like(c.metric, 'trait:%')) : named));
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** Attendees per bucket of their first photo, and how many of them shared (the roll-up's rows). */
export async function userBuckets(db: Db, slugDate: string): Promise<UserBucketRow[]> {
  const byBucket = new Map<number, UserBucketRow>();
  for (const r of await countRows(db, slugDate, ['users', 'sharers'])) {
    const t = r.bucket.getTime();
    const b = byBucket.get(t) ?? { bucket: r.bucket, users: 0, sharers: 0 };
    b[r.metric as 'users' | 'sharers'] += r.n;
    byBucket.set(t, b);
  }
  // A bucket an attendee left (an earlier first photo, a delete) may keep a zero row.
  return [...byBucket.values()].filter((b) => b.users > 0);
}

export async function findEvent(db: Db, slugDate: string): Promise<EventRow | null> {
  return (await db.select().from(events).where(eq(events.slugDate, slugDate)).limit(1))[0] ?? null;
}

/** The previous dated event (by game date) with at least one attendee photo. */
export async function previousEventWithData(db: Db, gameDate: string): Promise<EventRow | null> {
  const rows = await db
    .select({ e: events })
    .from(events)
    .innerJoin(snapshotCounts, eq(snapshotCounts.slugDate, events.slugDate))
    .where(and(eq(events.template, false), lt(events.gameDate, gameDate), gt(snapshotCounts.all, 0)))
    .orderBy(desc(events.gameDate))
    .limit(1);
  return rows[0]?.e ?? null;
}

export type PageViewCount = { slugDate: string; day: string; dimension: string; key: string; n: number };

/** Adds counted page views to their day's rows (one row per event, UTC day, dimension and key). */
export async function addPageViews(db: Db, rows: PageViewCount[]) {
  await db
    .insert(pageViewCounts)
    .values(rows)
    .onConflictDoUpdate({
      target: [pageViewCounts.slugDate, pageViewCounts.dimension, pageViewCounts.key, pageViewCounts.day],
      set: { n: sql`${pageViewCounts.n} + excluded.n` },
    });
}

export async function pageViewTotals(db: Db, slugDate: string) {
  const rows = await db.execute(sql`select dimension, key, sum(n)::int as n from ${pageViewCounts}
    where slug_date = ${slugDate} group by dimension, key`);
  return rowsOf<{ dimension: string; key: string; n: number }>(rows).map((r) => ({ ...r, n: Number(r.n) }));
}

export type QueueJoinRow = typeof queueJoins.$inferInsert;

/** Successful queue joins from seats, in one insert (counted by the seat roll-up's triggers). */
export async function addQueueJoins(db: Db, rows: QueueJoinRow[]): Promise<void> {
  if (rows.length) await db.insert(queueJoins).values(rows);
}

export type HeatmapMetricColumn = 'joins' | 'photos' | 'shares';
export type SectionCountRow = { slugDate: string; seatType: string; section: string; n: number };

/** Per section of these events: the metric's count (the section roll-up: ~100 rows an event). */
export async function sectionCounts(
  db: Db,
  slugDates: string[],
  metric: HeatmapMetricColumn,
): Promise<SectionCountRow[]> {
  const c = sectionCountsTable;
  return db
    .select({ slugDate: c.slugDate, seatType: c.seatType, section: c.section, n: c[metric] })
    .from(c)
    .where(inArray(c.slugDate, slugDates));
}

/** One section's seats with their metric in these events. */
export async function seatCountsOf(
  db: Db,
  slugDates: string[],
  seatType: string,
  section: string,
  metric: HeatmapMetricColumn,
): Promise<{ slugDate: string; row: string; seat: string; n: number }[]> {
  const c = seatCounts;
  return db
    .select({ slugDate: c.slugDate, row: c.row, seat: c.seat, n: c[metric] })
    .from(c)
    .where(and(inArray(c.slugDate, slugDates), eq(c.seatType, seatType), eq(c.section, section)));
}
