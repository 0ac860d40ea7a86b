import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

export const findUserByUsername = async (db: Db, username: string): Promise<UserRow | undefined> =>
  (await db.select().from(users).where(eq(users.username, username)).limit(1))[0];

export const insertUser = async (db: Db, row: typeof users.$inferInsert): Promise<UserRow> =>
  (await db.insert(users).values(row).returning())[0];

export const touchLastLogin = async (db: Db, id: string): Promise<void> => {
  await db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, id));
};

export const upsertReadonlyRole = async (db: Db, name: string, permissions: string[]): Promise<void> => {
  await db
    .insert(roles)
    .values({ name, permissions, readonly: true })
    .onConflictDoUpdate({ target: roles.name, set: { permissions, readonly: true } });
};
