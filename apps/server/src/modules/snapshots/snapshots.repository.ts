import type { Db } from '../../db/client.ts';
import { snapshots } from '../../db/schema/index.ts';

export type SnapshotRow = typeof snapshots.$inferSelect;
export type SnapshotInsert = typeof snapshots.$inferInsert;

/** The one way a photo enters the album (ingest path and seeding both use it). */
export async function insertSnapshot(db: Db, row: SnapshotInsert): Promise<SnapshotRow> {
  return (await db.insert(snapshots).values(row).returning())[0];
}
