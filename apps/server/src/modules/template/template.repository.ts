import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';
import type { EventRow } from '../events/events.repository.ts';

/**
 * Merges `fields` into the configuration of every event in `ids`, in one transaction: when an
 * id is unknown nothing is written and the answer is null.
 */
export async function patchEventConfigs(
  db: Db,
  ids: string[],
  fields: Record<string, unknown>,
): Promise<EventRow[] | null> {
  const unique = [...new Set(ids)];
  const missing = new Error('unknown event id');
  try {
    return await db.transaction(async (tx) => {
      const rows = await tx
        .update(events)
        .set({ config: sql`${events.config} || ${JSON.stringify(fields)}::jsonb`, updatedAt: new Date() })
        .where(inArray(events.id, unique))
        .returning();
      // Rolling back is the transaction's job: throwing undoes the update above.
      if (rows.length !== unique.length) throw missing;
      return rows;
    });
  } catch (err) {
    if (err === missing) return null;
    throw err;
  }
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
