import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { snapshots } from '../../db/schema/index.ts';

/** The cameras among `cameras` with a photo of the event since `since` (the event-camera index). */
export async function camerasWithPhotoSince(
  db: Db,
  slugDate: string,
  cameras: string[],
  since: Date,
): Promise<string[]> {
  if (!cameras.length) return [];
  const rows = await db
    .selectDistinct({ camera: snapshots.camera })
    .from(snapshots)
    .where(and(eq(snapshots.slugDate, slugDate), inArray(snapshots.camera, cameras), gt(snapshots.date, since)))
    .orderBy(sql`1`);
  return rows.map((r) => r.camera);
}
