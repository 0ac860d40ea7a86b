import { asc, eq } from 'drizzle-orm';
import type { SeatMap } from '@stadiumcam/contract';
import type { Db } from '../../db/client.ts';
import { cameras, configFiles, seatMaps } from '../../db/schema/index.ts';

export type ConfigFileRow = typeof configFiles.$inferSelect;
export type NewConfigFile = { name: string; data: Buffer; uploadedBy: string };

export async function listConfigFiles(db: Db): Promise<Omit<ConfigFileRow, 'data'>[]> {
  return db
    .select({
      name: configFiles.name,
      size: configFiles.size,
      uploadedBy: configFiles.uploadedBy,
      uploadedAt: configFiles.uploadedAt,
    })
    .from(configFiles)
    .orderBy(asc(configFiles.name));
}

export async function readConfigFile(db: Db, name: string): Promise<ConfigFileRow | undefined> {
  const [row] = await db.select().from(configFiles).where(eq(configFiles.name, name));
  return row;
}

/** Every map file and the row dictionary (not the images), for building the seat map. */
export async function readSeatMapFiles(db: Db): Promise<ConfigFileRow[]> {
  const rows = await db.select().from(configFiles).orderBy(asc(configFiles.name));
  return rows.filter((r) => !r.name.startsWith('shots/'));
}

export async function putConfigFiles(db: Db, files: NewConfigFile[]): Promise<void> {
  if (!files.length) return;
  await db.transaction(async (tx) => {
    for (const f of files) {
      const values = {
        name: f.name,
        data: f.data,
        size: f.data.length,
        uploadedBy: f.uploadedBy,
        uploadedAt: new Date(),
      };
      await tx.insert(configFiles).values(values).onConflictDoUpdate({ target: configFiles.name, set: values });
    }
  });
}

export async function deleteConfigFile(db: Db, name: string): Promise<boolean> {
  const gone = await db.delete(configFiles).where(eq(configFiles.name, name)).returning({ name: configFiles.name });
  return gone.length > 0;
}

export async function loadStoredSeatMap(db: Db): Promise<SeatMap | undefined> {
  const [row] = await db.select().from(seatMaps).where(eq(seatMaps.id, 1));
  return row?.model;
}

export async function storeSeatMap(db: Db, model: SeatMap): Promise<void> {
  const values = { id: 1, model, loadedAt: new Date() };
  await db.insert(seatMaps).values(values).onConflictDoUpdate({ target: seatMaps.id, set: values });
}

/**
 * A map file changed by the mapping tool, stored and made the running seat map in one
 * transaction: both change or neither does.
 */
export async function putFileAndSeatMap(db: Db, file: NewConfigFile, model: SeatMap): Promise<void> {
  await db.transaction(async (tx) => {
    const values = {
      name: file.name,
      data: file.data,
      size: file.data.length,
      uploadedBy: file.uploadedBy,
      uploadedAt: new Date(),
    };
    await tx.insert(configFiles).values(values).onConflictDoUpdate({ target: configFiles.name, set: values });
    const map = { id: 1, model, loadedAt: new Date() };
    await tx.insert(seatMaps).values(map).onConflictDoUpdate({ target: seatMaps.id, set: map });
  });
}

/** Camera keys hosts have ever announced. */
export async function knownCameraKeys(db: Db): Promise<Set<string>> {
  const rows = await db.select({ key: cameras.cameraKey }).from(cameras);
  return new Set(rows.map((r) => r.key));
}
