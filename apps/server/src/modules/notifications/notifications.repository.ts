import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, snapshots } from '../../db/schema/index.ts';

export type NotificationRow = typeof notifications.$inferSelect;

export async function listNotifications(
  db: Db,
  slugDate: string,
  type: string,
  offset: number,
  limit: number,
): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.slugDate, slugDate), eq(notifications.type, type)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .offset(offset)
    .limit(limit);
}

export async function countOpenNotifications(db: Db, slugDate: string, type: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.slugDate, slugDate), eq(notifications.type, type), eq(notifications.addressed, false)));
  return Number(row?.n ?? 0);
}

export async function markAddressed(db: Db, id: string): Promise<NotificationRow | null> {
  const [row] = await db.update(notifications).set({ addressed: true }).where(eq(notifications.id, id)).returning();
  return row ?? null;
}

export async function findOpenForUser(
  db: Db,
  slugDate: string,
  type: string,
  userId: string,
): Promise<NotificationRow | null> {
  const [row] = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.slugDate, slugDate),
        eq(notifications.type, type),
        eq(notifications.userId, userId),
        eq(notifications.addressed, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertNotification(db: Db, row: typeof notifications.$inferInsert): Promise<NotificationRow> {
  return (await db.insert(notifications).values(row).returning())[0];
}

export async function updateNotificationData(db: Db, id: string, data: Record<string, unknown>): Promise<void> {
  await db.update(notifications).set({ data }).where(eq(notifications.id, id));
}

/** A user's photos of one event (operator MagicShots excluded), newest first. */
export async function userPhotos(
  db: Db,
  slugDate: string,
  userId: string,
  limit: number,
): Promise<{ id: string; section: string; row: string; seat: string; date: Date }[]> {
  return db
    .select({
      id: snapshots.id,
      section: snapshots.section,
      row: snapshots.row,
      seat: snapshots.seat,
      date: snapshots.date,
    })
    .from(snapshots)
    .where(and(eq(snapshots.slugDate, slugDate), eq(snapshots.userId, userId), eq(snapshots.magicshot, false)))
    .orderBy(desc(snapshots.date), desc(snapshots.id))
    .limit(limit);
}
