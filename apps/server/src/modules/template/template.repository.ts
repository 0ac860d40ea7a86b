import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';
import type { EventInsert, EventRow } from '../events/index.ts';

/**
 * The only writes of `events.config` (docs/architecture.md, "One writer"): in one transaction
 * the listed events are locked, `edit` answers the fields to merge into each one's
 * configuration (null: leave it), and the changed rows are answered. An unknown id writes
 * nothing and answers null; `edit` throwing rolls everything back.
 */
export async function updateEventConfigs(
  db: Db,
  ids: string[],
  edit: (row: EventRow) => Record<string, unknown> | null,
): Promise<EventRow[] | null> {
  const unique = [...new Set(ids)];
  const missing = new Error('unknown event id');
  try {
    return await db.transaction(async (tx) => {
      // In id order, so two writers locking the same events never wait on each other in a circle.
      const rows = await tx
        .select()
        .from(events)
        .where(inArray(events.id, unique))
        .orderBy(asc(events.id))
        .for('update');
      if (rows.length !== unique.length) throw missing;
      const out: EventRow[] = [];
      for (const row of rows) {
        const fields = edit(row);
        if (!fields) continue;
        const [updated] = await tx
          .update(events)
          .set({ config: sql`${events.config} || ${JSON.stringify(fields)}::jsonb`, updatedAt: new Date() })
          .where(eq(events.id, row.id))
          .returning();
        out.push(updated);
      }
      return out;
    });
  } catch (err) {
    if (err === missing) return null;
    throw err;
  }
}

/** A new event with its whole configuration, in one statement; null when its slugDate is taken. */
export async function insertEventWithConfig(db: Db, row: EventInsert): Promise<EventRow | null> {
  const [inserted] = await db.insert(events).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

/** The master template's row (the demo overlays' target). */
export async function findTemplateRow(db: Db): Promise<EventRow | null> {
  const [row] = await db.select().from(events).where(eq(events.template, true)).orderBy(asc(events.createdAt)).limit(1);
  return row ?? null;
}

/** Events whose configuration mentions this media URL (an image still in use is kept). */
export async function countEventsUsing(db: Db, needle: string): Promise<number> {
  const rows = await db
    .select({ id: events.id })
    .from(events)
    .where(sql`strpos(${events.config}::text, ${needle}) > 0`)
    .limit(1);
  return rows.length;
}
