import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';
import type { EventRow } from '../events/index.ts';

export async function findEventRows(db: Db, slugDates: string[]): Promise<EventRow[]> {
  return db.select().from(events).where(inArray(events.slugDate, slugDates));
}

/** By `_id`: the `eventIds` of the template screens' calls. */
export async function findEventRowsById(db: Db, ids: string[]): Promise<EventRow[]> {
  return db.select().from(events).where(inArray(events.id, ids));
}
