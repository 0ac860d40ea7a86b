import { and, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';
import type { AuditRecord } from '../../audit-context.ts';

export type AuditRow = typeof auditLog.$inferSelect;

/** The filters as the service resolved them (instants parsed, the event known). */
export type AuditWhere = {
  user?: string;
  action?: string;
  slugDate?: string;
  result?: 'done' | 'refused';
  from?: Date;
  to?: Date;
};

/** The last row of a page: the next page starts strictly after it, newest first. */
export type AuditKey = { at: Date; id: number };

export async function insertAuditEntry(db: Db, entry: AuditRecord): Promise<void> {
  await db.insert(auditLog).values(entry);
}

function conditions(where: AuditWhere, after?: AuditKey): SQL | undefined {
  return and(
    where.user !== undefined ? eq(auditLog.username, where.user) : undefined,
    where.action !== undefined ? eq(auditLog.action, where.action) : undefined,
    where.slugDate !== undefined ? eq(auditLog.slugDate, where.slugDate) : undefined,
    where.result !== undefined ? eq(auditLog.result, where.result) : undefined,
    where.from ? gte(auditLog.at, where.from) : undefined,
    where.to ? lte(auditLog.at, where.to) : undefined,
    // A row comparison: one index range scan on (…, at DESC, id DESC), however deep the page.
    after ? sql`(${auditLog.at}, ${auditLog.id}) < (${after.at.toISOString()}::timestamptz, ${after.id})` : undefined,
  );
}

/** One page newest first (keyset paging; no OFFSET, so page 20,000 costs what page 1 does). */
export async function listAuditEntries(
  db: Db,
  where: AuditWhere,
  limit: number,
  after?: AuditKey,
): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(conditions(where, after))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
}

/** Retention: the rows older than the cut-off, removed by the server only (no route deletes). */
export async function deleteAuditEntriesBefore(db: Db, cutoff: Date): Promise<number> {
  const rows = await db.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
  return rows.length;
}
