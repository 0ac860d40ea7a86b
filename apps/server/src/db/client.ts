import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Database = { db: Db; kind: 'pglite' | 'postgres'; close: () => Promise<void> };

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/** Opens PostgreSQL when a URL is given, else embedded PGlite, and runs the migrations. */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // A server that does not answer fails a request in 3 s (503, plugins/errors.ts), not never.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, connectionTimeoutMillis: 3_000 });
    // An idle client cut off by the server (restart, DROP DATABASE in tests) must not crash the process.
    pool.on('error', (err) => console.warn('postgres pool:', err.message));
    // Nor one cut off while checked out (a query or a transaction in flight): the pool listens
    // only to idle clients, and an 'error' nobody listens to is an uncaught exception. The
    // query itself fails, and the request answers 503 (plugins/errors.ts).
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = await PGlite.create(opts.pgliteDir);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
