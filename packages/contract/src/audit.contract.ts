import { z } from 'zod';
import { MSG } from './messages.ts';
import { P } from './permissions.ts';
import { defineRoute } from './route.ts';

/**
 * The operator's record (issue 32 §1, docs/audit.md): one append-only entry per action that
 * changes something or lets data leave. No route edits or deletes an entry.
 */
export type AuditAction = keyof typeof MSG.auditActions;
export const AUDIT_ACTIONS = Object.keys(MSG.auditActions) as AuditAction[];
export const isAuditAction = (value: string): value is AuditAction => Object.hasOwn(MSG.auditActions, value);

export const AUDIT_RESULTS = ['done', 'refused'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];

/** Entries per page of the list (and the most a page may ask for). */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 200;

export const AuditEntrySchema = z.object({
  id: z.string(),
  /** ISO instant. */
  at: z.string(),
  /** The console user; null for a failed login or an anonymous call. */
  actorId: z.string().nullable(),
  /** The user name at the time (kept when the user is deleted), or the name a failed login tried. */
  username: z.string().nullable(),
  action: z.string(),
  /** The event acted on, when exactly one. */
  slugDate: z.string().nullable(),
  /** Ids of what was acted on: photo ids, user ids, camera keys, role names... */
  targets: z.record(z.string(), z.unknown()),
  /** What changed (before/after) or what was asked; never a password, token, cookie or image bytes. */
  detail: z.record(z.string(), z.unknown()),
  address: z.string().nullable(),
  result: z.enum(AUDIT_RESULTS),
  /** The error text of a refused action. */
  reason: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const instant = z.iso.datetime({ offset: true });

/** Filters shared by the list and the CSV export. */
export const AuditFilterSchema = z.strictObject({
  user: z.string().trim().min(1).max(200).optional(),
  action: z.enum(AUDIT_ACTIONS as [AuditAction, ...AuditAction[]]).optional(),
  slugDate: z.string().min(1).max(100).optional(),
  result: z.enum(AUDIT_RESULTS).optional(),
  /** ISO instants, inclusive; the console turns the event's (or local) wall times into these. */
  from: instant.optional(),
  to: instant.optional(),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

export const AuditListQuerySchema = AuditFilterSchema.extend({
  /** The `next` of the previous page (keyset paging: as fast on page 1,000 as on page 1). */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** The cursor of the next (older) page; null on the last page. */
  next: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const auditRoutes = {
  /** Newest first, filtered, one page. */
  list: defineRoute({
    method: 'GET',
    path: '/api/audit',
    permission: P.AUDIT_READ,
    query: AuditListQuerySchema,
    response: AuditPageSchema,
  }),
  /** The filtered entries as CSV (cells quoted, formulas neutralised), newest first. */
  exportCsv: defineRoute({
    method: 'GET',
    path: '/api/audit/export',
    permission: P.AUDIT_READ,
    query: AuditFilterSchema,
    response: null,
    audit: 'audit.export',
  }),
};
