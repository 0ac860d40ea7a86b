import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, users } from '../../db/schema/index.ts';

export type RoleRow = typeof roles.$inferSelect;

export const listRoles = async (db: Db): Promise<RoleRow[]> => db.select().from(roles).orderBy(asc(roles.name));

/** Role names are unique regardless of case. */
export const findRoleByNameInsensitive = async (db: Db, name: string): Promise<RoleRow | undefined> =>
  (
    await db
      .select()
      .from(roles)
      .where(sql`lower(${roles.name}) = ${name.toLowerCase()}`)
      .limit(1)
  )[0];

export const findRoleByName = async (db: Db, name: string): Promise<RoleRow | undefined> =>
  (await db.select().from(roles).where(eq(roles.name, name)).limit(1))[0];

/** Which of these names exist as roles (exact spelling). */
export const existingRoleNames = async (db: Db, names: string[]): Promise<Set<string>> => {
  if (names.length === 0) return new Set();
  const rows = await db.select({ name: roles.name }).from(roles).where(inArray(roles.name, names));
  return new Set(rows.map((r) => r.name));
};

/** The permission lists of these roles (unknown names are skipped). */
export const permissionsOfRoles = async (db: Db, names: string[]): Promise<string[]> => {
  if (names.length === 0) return [];
  const rows = await db.select({ permissions: roles.permissions }).from(roles).where(inArray(roles.name, names));
  return rows.flatMap((r) => r.permissions);
};

/** Inserts a role; undefined when the name (in any case) is taken. */
export const insertRole = async (db: Db, name: string, permissions: string[]): Promise<RoleRow | undefined> =>
  (await db.insert(roles).values({ name, permissions }).onConflictDoNothing().returning())[0];

export const updateRolePermissions = async (
  db: Db,
  name: string,
  permissions: string[],
): Promise<RoleRow | undefined> =>
  (await db.update(roles).set({ permissions }).where(eq(roles.name, name)).returning())[0];

/** Deletes the role and takes it off every user holding it, together. */
export const deleteRoleEverywhere = async (db: Db, name: string): Promise<boolean> =>
  db.transaction(async (tx) => {
    const gone = await tx.delete(roles).where(eq(roles.name, name)).returning({ name: roles.name });
    if (gone.length === 0) return false;
    await tx
      .update(users)
      .set({ roles: sql`array_remove(${users.roles}, ${name})` })
      .where(sql`${name} = ANY(${users.roles})`);
    return true;
  });

export const upsertReadonlyRole = async (db: Db, name: string, permissions: string[]): Promise<void> => {
  await db
    .insert(roles)
    .values({ name, permissions, readonly: true })
    .onConflictDoUpdate({ target: roles.name, set: { permissions, readonly: true } });
};
