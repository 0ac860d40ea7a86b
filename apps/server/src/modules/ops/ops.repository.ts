import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The cheapest question the database must answer to be of use. */
export const pingDatabase = (db: Db) => db.execute(sql`select 1`);
