import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The operator's record (docs/audit.md): append-only, written by `modules/audit` only; no route
 * edits or deletes a row, the retention sweep removes rows older than AUDIT_RETENTION_DAYS.
 * No foreign keys: an entry outlives its user and event (the username is a snapshot).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Milliseconds, as JavaScript reads them back: the page cursor is exact. */
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    actorId: text('actor_id'),
    username: text('username'),
    action: text('action').notNull(),
    slugDate: text('slug_date'),
    targets: jsonb('targets').$type<Record<string, unknown>>().notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    address: text('address'),
    result: text('result').$type<'done' | 'refused'>().notNull(),
    reason: text('reason'),
  },
  // Keyset paging newest first, alone or after one equality filter (docs/audit.md, bench).
  (t) => [
    index('audit_log_at_idx').on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_action_idx').on(t.action, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_user_idx').on(t.username, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_log_event_idx').on(t.slugDate, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
