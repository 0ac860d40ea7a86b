import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

// Kept here for the test harness, which creates roles alongside users.
export { upsertReadonlyRole } from './roles.repository.ts';

export const listUsers = async (db: Db): Promise<UserRow[]> => db.select().from(users).orderBy(asc(users.username));

export const findUserById = async (db: Db, id: string): Promise<UserRow | undefined> =>
  (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];

export const findUserByUsername = async (db: Db, username: string): Promise<UserRow | undefined> =>
  (await db.select().from(users).where(eq(users.username, username)).limit(1))[0];

/** E-mail addresses are matched case-insensitively; several users may share one. */
export const findUsersByEmail = async (db: Db, email: string): Promise<UserRow[]> =>
  db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);

export const insertUser = async (db: Db, row: typeof users.$inferInsert): Promise<UserRow> =>
  (await db.insert(users).values(row).returning())[0];

/** Inserts a user; undefined when the username is already taken. */
export const insertUserIfFree = async (db: Db, row: typeof users.$inferInsert): Promise<UserRow | undefined> =>
  (await db.insert(users).values(row).onConflictDoNothing().returning())[0];

/**
 * `whileRoles`: write only while the user still holds exactly these roles (the ones a rule was
 * checked against); undefined (or false) when they changed in between, or the user is gone.
 */
const stillHolds = (id: string, whileRoles?: readonly string[]) =>
  whileRoles
    ? and(
        eq(users.id, id),
        sql`${users.roles} = array[${sql.join(
          whileRoles.map((r) => sql`${r}`),
          sql`, `,
        )}]::text[]`,
      )
    : eq(users.id, id);

export const updateUser = async (
  db: Db,
  id: string,
  set: Partial<Pick<UserRow, 'email' | 'passwordHash' | 'roles'>>,
  whileRoles?: readonly string[],
): Promise<UserRow | undefined> => (await db.update(users).set(set).where(stillHolds(id, whileRoles)).returning())[0];

/** Sessions and reset tokens go with the user (foreign keys cascade). */
export const deleteUser = async (db: Db, id: string, whileRoles?: readonly string[]): Promise<boolean> =>
  (await db.delete(users).where(stillHolds(id, whileRoles)).returning({ id: users.id })).length > 0;

export const touchLastLogin = async (db: Db, id: string, at: Date): Promise<void> => {
  await db.update(users).set({ lastLogin: at }).where(eq(users.id, id));
};
