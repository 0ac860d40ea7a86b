import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, snapshots } from '../../db/schema/index.ts';
import type { ShareRecord } from '../../db/schema/snapshots.ts';
import type { SnapshotRow } from '../snapshots/snapshots.repository.ts';

export async function findSnapshotRow(db: Db, id: string): Promise<SnapshotRow | null> {
  const [row] = await db.select().from(snapshots).where(eq(snapshots.id, id)).limit(1);
  return row ?? null;
}

/** An attendee's visible photos of one event, newest first. */
export async function listUserSnapshotRows(
  db: Db,
  slugDate: string,
  userId: string,
  limit: number,
): Promise<SnapshotRow[]> {
  return db
    .select()
    .from(snapshots)
    .where(and(eq(snapshots.slugDate, slugDate), eq(snapshots.userId, userId), eq(snapshots.hidden, false)))
    .orderBy(desc(snapshots.date), desc(snapshots.id))
    .limit(limit);
}

export async function setSnapshotOverlay(
  db: Db,
  id: string,
  overlay: string | null,
  sharedUri: string,
): Promise<SnapshotRow | null> {
  const [row] = await db.update(snapshots).set({ overlay, sharedUri }).where(eq(snapshots.id, id)).returning();
  return row ?? null;
}

/** Appends one share record in one statement, so concurrent shares all count. */
export async function appendShare(db: Db, id: string, record: ShareRecord): Promise<SnapshotRow | null> {
  const source = record.socialSource;
  const [row] = await db
    .update(snapshots)
    .set({
      postObj: sql`${snapshots.postObj} || ${JSON.stringify([record])}::jsonb`,
      sharedCount: sql`${snapshots.sharedCount} + 1`,
      shareSources: sql`case when ${source}::text = any(${snapshots.shareSources}) then ${snapshots.shareSources} else array_append(${snapshots.shareSources}, ${source}::text) end`,
    })
    .where(eq(snapshots.id, id))
    .returning();
  return row ?? null;
}

/** Sets the template's overlays only while it has none (first start); true when it did. */
export async function setTemplateOverlaysIfEmpty(db: Db, overlays: Record<string, unknown>[]): Promise<boolean> {
  const rows = await db
    .update(events)
    .set({ config: sql`jsonb_set(${events.config}, '{overlays}', ${JSON.stringify(overlays)}::jsonb, true)` })
    .where(
      and(
        eq(events.template, true),
        sql`coalesce(jsonb_array_length(case when jsonb_typeof(${events.config}->'overlays') = 'array' then ${events.config}->'overlays' end), 0) = 0`,
      ),
    )
    .returning({ id: events.id });
  return rows.length > 0;
}

export async function templateHasOverlays(db: Db): Promise<boolean> {
  const [row] = await db
    .select({
      n: sql<number>`coalesce(jsonb_array_length(case when jsonb_typeof(${events.config}->'overlays') = 'array' then ${events.config}->'overlays' end), 0)`,
    })
    .from(events)
    .where(eq(events.template, true))
    .limit(1);
  return Number(row?.n ?? 0) > 0;
}
