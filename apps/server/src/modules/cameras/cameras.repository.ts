import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cameras } from '../../db/schema/index.ts';

export type KnownCamera = { cameraKey: string; hostId: string; hostInfo: Record<string, unknown> };

export async function listKnownCameras(db: Db): Promise<KnownCamera[]> {
  return db
    .select({ cameraKey: cameras.cameraKey, hostId: cameras.hostId, hostInfo: cameras.hostInfo })
    .from(cameras)
    .orderBy(cameras.cameraKey);
}

/** Records that `hostId` serves these cameras now. */
export async function upsertHostCameras(
  db: Db,
  hostId: string,
  hostInfo: Record<string, unknown>,
  keys: string[],
): Promise<void> {
  if (!keys.length) return;
  await db
    .insert(cameras)
    .values(keys.map((cameraKey) => ({ cameraKey, hostId, hostInfo, lastSeen: new Date() })))
    .onConflictDoUpdate({
      target: cameras.cameraKey,
      set: { hostId, hostInfo, lastSeen: sql`now()` },
    });
}
