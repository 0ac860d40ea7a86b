import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { serverSecrets, snapshots } from '../../db/schema/index.ts';
import type { ShareRecord } from '../../db/schema/snapshots.ts';
import type { SnapshotRow } from '../snapshots/index.ts';

export async function findSnapshotRow(db: Db, id: string): Promise<SnapshotRow | null> {
  const [row] = await db.select().from(snapshots).where(eq(snapshots.id, id)).limit(1);
  return row ?? null;
}

/** An attendee's visible photos of one event, newest first. */
export async function listUserSnapshotRows(
  db: Db,
  slugDate: string,
  userId: string,
  limit: number,
): Promise<SnapshotRow[]> {
  return db
    .select()
    .from(snapshots)
    .where(and(eq(snapshots.slugDate, slugDate), eq(snapshots.userId, userId), eq(snapshots.hidden, false)))
    .orderBy(desc(snapshots.date), desc(snapshots.id))
    .limit(limit);
}

export async function setSnapshotOverlay(
  db: Db,
  id: string,
  overlay: string | null,
  sharedUri: string,
): Promise<SnapshotRow | null> {
  const [row] = await db.update(snapshots).set({ overlay, sharedUri }).where(eq(snapshots.id, id)).returning();
  return row ?? null;
}

/** Appends one share record in one statement, so concurrent shares all count. */
export async function appendShare(db: Db, id: string, record: ShareRecord): Promise<SnapshotRow | null> {
  const source = record.socialSource;
  const [row] = await db
    .update(snapshots)
    .set({
      postObj: sql`${snapshots.postObj} || ${JSON.stringify([record])}::jsonb`,
      sharedCount: sql`${snapshots.sharedCount} + 1`,
      shareSources: sql`case when ${source}::text = any(${snapshots.shareSources}) then ${snapshots.shareSources} else array_append(${snapshots.shareSources}, ${source}::text) end`,
    })
    .where(eq(snapshots.id, id))
    .returning();
  return row ?? null;
}

/**
 * The shared secret `name`: the one stored, or `candidate` when none is yet (the first instance
 * to ask writes it; the others read that one).
 */
export async function sharedSecret(db: Db, name: string, candidate: string): Promise<string> {
  await db.insert(serverSecrets).values({ name, value: candidate }).onConflictDoNothing();
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name));
  return row.value;
}
