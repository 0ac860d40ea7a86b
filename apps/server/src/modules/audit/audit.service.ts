import {
  AUDIT_PAGE_SIZE,
  MSG,
  type AuditEntry,
  type AuditFilter,
  type AuditListQuery,
  type AuditPage,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import type { AuditRecord } from '../../audit-context.ts';
import { badRequest, ERR, notFound } from '../../errors.ts';
import { toCsv } from '../../csv.ts';
import { getEventBySlugDate } from '../events/index.ts';
import {
  deleteAuditEntriesBefore,
  insertAuditEntry,
  listAuditEntries,
  type AuditKey,
  type AuditRow,
  type AuditWhere,
} from './audit.repository.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Rows read per query while a CSV export streams. */
const EXPORT_CHUNK = 2_000;

export async function recordAudit(deps: Deps, entry: AuditRecord): Promise<void> {
  await insertAuditEntry(deps.db, entry);
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: String(row.id),
  at: row.at.toISOString(),
  actorId: row.actorId,
  username: row.username,
  action: row.action,
  slugDate: row.slugDate,
  targets: row.targets,
  detail: row.detail,
  address: row.address,
  result: row.result,
  reason: row.reason,
});

const encodeCursor = (row: AuditRow) => Buffer.from(`${row.at.toISOString()}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): AuditKey {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const key = { at: new Date(at ?? ''), id: Number(id) };
  if (Number.isNaN(key.at.getTime()) || !Number.isSafeInteger(key.id)) throw badRequest(ERR.audit.badCursor);
  return key;
}

/** The filters checked: an impossible range is a 400, an unknown event a 404 (issue 32, bad input). */
async function resolveFilter(deps: Deps, filter: AuditFilter): Promise<AuditWhere> {
  const from = filter.from ? new Date(filter.from) : undefined;
  const to = filter.to ? new Date(filter.to) : undefined;
  if (from && to && from > to) throw badRequest(ERR.audit.badRange);
  if (filter.slugDate && !(await getEventBySlugDate(deps, filter.slugDate))) {
    throw notFound(ERR.audit.unknownEvent(filter.slugDate));
  }
  return { user: filter.user, action: filter.action, slugDate: filter.slugDate, result: filter.result, from, to };
}

export async function listAudit(deps: Deps, query: AuditListQuery): Promise<AuditPage> {
  const where = await resolveFilter(deps, query);
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  // One row more than the page: whether there is a next page, without a count.
  const rows = await listAuditEntries(deps.db, where, limit + 1, after);
  const page = rows.slice(0, limit);
  return { entries: page.map(toEntry), next: rows.length > limit ? encodeCursor(page.at(-1)!) : null };
}

const CSV_HEADER = ['Time (UTC)', 'User', 'Action', 'Event', 'Targets', 'Result', 'Reason', 'Address', 'Detail'];

const csvRow = (row: AuditRow) => [
  row.at.toISOString(),
  row.username,
  MSG.auditActions[row.action as keyof typeof MSG.auditActions] ?? row.action,
  row.slugDate,
  JSON.stringify(row.targets),
  row.result,
  row.reason,
  row.address,
  JSON.stringify(row.detail),
];

/**
 * The filtered entries as CSV, newest first, read in keyset chunks so a million rows never sit
 * in memory; every cell quoted and formulas neutralised (csv.ts).
 */
export async function exportAuditCsv(deps: Deps, filter: AuditFilter): Promise<AsyncGenerator<string>> {
  const where = await resolveFilter(deps, filter);
  return (async function* () {
    yield toCsv([CSV_HEADER]);
    let after: AuditKey | undefined;
    for (;;) {
      const rows = await listAuditEntries(deps.db, where, EXPORT_CHUNK, after);
      if (rows.length) yield toCsv(rows.map(csvRow));
      if (rows.length < EXPORT_CHUNK) return;
      const last = rows.at(-1)!;
      after = { at: last.at, id: last.id };
    }
  })();
}

/** Removes the entries older than AUDIT_RETENTION_DAYS; the server runs it at boot and daily. */
export async function applyAuditRetention(deps: Deps, now = new Date()): Promise<number> {
  const removed = await deleteAuditEntriesBefore(
    deps.db,
    new Date(now.getTime() - deps.config.auditRetentionDays * DAY_MS),
  );
  if (removed) deps.log.info({ removed, days: deps.config.auditRetentionDays }, 'audit retention');
  return removed;
}
