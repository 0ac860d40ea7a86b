import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { snapshots as s } from '../../db/schema/index.ts';

/** The event's favourites shown on a venue screen: not banned, newest first (the favorites index). */
export async function favouriteSlides(db: Db, slugDate: string, limit: number) {
  return db
    .select({ id: s.id, sharedUri: s.sharedUri, smallUri: s.smallUri, rawCroppedUri: s.rawCroppedUri })
    .from(s)
    .where(and(eq(s.slugDate, slugDate), sql`${s.favorite} = true and ${s.magicshot} = false`, eq(s.hidden, false)))
    .orderBy(desc(s.date), desc(s.id))
    .limit(limit);
}
