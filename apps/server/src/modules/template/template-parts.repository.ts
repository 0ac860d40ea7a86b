import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';
import type { EventRow } from '../events/events.repository.ts';

export async function findEventRows(db: Db, slugDates: string[]): Promise<EventRow[]> {
  return db.select().from(events).where(inArray(events.slugDate, slugDates));
}

/** By `_id`: the `eventIds` of the template screens' calls. */
export async function findEventRowsById(db: Db, ids: string[]): Promise<EventRow[]> {
  return db.select().from(events).where(inArray(events.id, ids));
}

/**
 * Merges configuration parts into every listed event in one transaction: all or none. A part
 * set to undefined is removed. Answers the rows after the change.
 */
export async function mergeConfigs(
  db: Db,
  changes: { id: string; parts: Record<string, unknown> }[],
): Promise<EventRow[]> {
  return db.transaction(async (tx) => {
    const out: EventRow[] = [];
    for (const { id, parts } of changes) {
      const [row] = await tx
        .update(events)
        .set({ config: sql`${events.config} || ${JSON.stringify(parts)}::jsonb`, updatedAt: new Date() })
        .where(eq(events.id, id))
        .returning();
      if (!row) throw new Error(`event ${id} vanished during the save`);
      out.push(row);
    }
    return out;
  });
}
