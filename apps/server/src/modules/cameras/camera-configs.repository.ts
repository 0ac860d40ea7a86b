import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cameras } from '../../db/schema/index.ts';

export type CameraConfigRow = Pick<
  typeof cameras.$inferSelect,
  'cameraKey' | 'configs' | 'cameraSettings' | 'hostInfo'
>;

export async function listCameraConfigs(db: Db, keys?: string[]): Promise<CameraConfigRow[]> {
  const q = db
    .select({
      cameraKey: cameras.cameraKey,
      configs: cameras.configs,
      cameraSettings: cameras.cameraSettings,
      hostInfo: cameras.hostInfo,
    })
    .from(cameras);
  return (keys ? q.where(inArray(cameras.cameraKey, keys)) : q).orderBy(asc(cameras.cameraKey));
}

export async function setCameraConfigs(db: Db, cameraKey: string, configs: unknown[]): Promise<void> {
  await db.update(cameras).set({ configs }).where(eq(cameras.cameraKey, cameraKey));
}
