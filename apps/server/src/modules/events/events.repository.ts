import { and, asc, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, snapshots } from '../../db/schema/index.ts';

export type EventRow = typeof events.$inferSelect;
export type EventInsert = typeof events.$inferInsert;
export type EventPatch = Partial<
  Pick<EventInsert, 'title' | 'startTime' | 'endTime' | 'eventStatus' | 'promo' | 'config'>
>;

export async function findEventBySlugDate(db: Db, slugDate: string): Promise<EventRow | null> {
  const [row] = await db.select().from(events).where(eq(events.slugDate, slugDate)).limit(1);
  return row ?? null;
}

export async function findTemplate(db: Db): Promise<EventRow | null> {
  const [row] = await db.select().from(events).where(eq(events.template, true)).orderBy(asc(events.createdAt)).limit(1);
  return row ?? null;
}

/** Template first (no gameDate), then by day. */
export async function listEventRows(db: Db): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .orderBy(sql`${events.gameDate} asc nulls first`, asc(events.startTime), asc(events.slugDate));
}

export async function findLiveEvent(db: Db): Promise<EventRow | null> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.eventStatus, 'live'), eq(events.template, false)))
    .orderBy(desc(events.gameDate), desc(events.startTime))
    .limit(1);
  return row ?? null;
}

/** Dated events from this day on, earliest first (the caller reads "today" per event zone). */
export async function listDatedEventsFrom(db: Db, gameDate: string, limit: number): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(and(eq(events.template, false), gte(events.gameDate, gameDate)))
    .orderBy(asc(events.gameDate), asc(events.startTime))
    .limit(limit);
}

export async function findEventOnDay(db: Db, gameDate: string): Promise<EventRow | null> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.template, false), eq(events.gameDate, gameDate)))
    .limit(1);
  return row ?? null;
}

/** Inserts unless the slugDate is taken (then null): concurrent creates of one day race here. */
export async function insertEvent(db: Db, row: EventInsert): Promise<EventRow | null> {
  const [inserted] = await db.insert(events).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function updateEventRow(db: Db, slugDate: string, patch: EventPatch): Promise<EventRow | null> {
  const [row] = await db
    .update(events)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(events.slugDate, slugDate))
    .returning();
  return row ?? null;
}

/** Snapshots and notifications go with it (foreign keys cascade). */
export async function deleteEventRow(db: Db, slugDate: string): Promise<boolean> {
  const rows = await db.delete(events).where(eq(events.slugDate, slugDate)).returning({ id: events.id });
  return rows.length > 0;
}

/** Raises the stored peak, never lowers it; answers the stored value. */
export async function raisePeak(db: Db, slugDate: string, current: number): Promise<number | null> {
  const [row] = await db
    .update(events)
    .set({ peak: sql`greatest(${events.peak}, ${current})` })
    .where(eq(events.slugDate, slugDate))
    .returning({ peak: events.peak });
  return row?.peak ?? null;
}

export async function snapshotTotals(db: Db, slugDate: string): Promise<{ snapshots: number; shares: number }> {
  const [row] = await db
    .select({
      snapshots: count(),
      shares: sql<string | number | null>`coalesce(sum(${snapshots.sharedCount}), 0)`,
    })
    .from(snapshots)
    .where(eq(snapshots.slugDate, slugDate));
  return { snapshots: Number(row?.snapshots ?? 0), shares: Number(row?.shares ?? 0) };
}
