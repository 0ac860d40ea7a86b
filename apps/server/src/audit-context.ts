import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditAction, AuditResult } from '@stadiumcam/contract';

/**
 * The audit log's request-scoped part (docs/audit.md). `registerRoute` and the monitor socket
 * open one `AuditScope` per audited call and record it when the answer is known; services add
 * what only they know (the before/after of a change, a finer action) with `auditNote`, without
 * a request in their hands. A root file so that plugins/ and every module may use it.
 */
export type AuditScope = {
  /** A finer kind than the route's (an event update that is a status change). */
  action?: AuditAction;
  /** The user acting when the session does not say it yet (login) or no longer (logout). */
  actor?: { id: string; username: string };
  /** The name a failed login tried. */
  username?: string;
  slugDate?: string | null;
  targets: Record<string, unknown>;
  detail: Record<string, unknown>;
};

/** One entry as the audit area writes it. */
export type AuditRecord = {
  action: AuditAction;
  actorId: string | null;
  username: string | null;
  slugDate: string | null;
  targets: Record<string, unknown>;
  detail: Record<string, unknown>;
  address: string | null;
  result: AuditResult;
  reason: string | null;
};

const storage = new AsyncLocalStorage<AuditScope>();

export const newAuditScope = (): AuditScope => ({ targets: {}, detail: {} });

export const runInAuditScope = <T>(scope: AuditScope, fn: () => T): T => storage.run(scope, fn);

/** Adds to the entry of the audited call under way; a no-op outside one (boot tasks, tests). */
export function auditNote(note: {
  action?: AuditAction;
  actor?: { id: string; username: string };
  username?: string;
  slugDate?: string | null;
  targets?: Record<string, unknown>;
  /** Merged into the detail: `{ before, after }` of what changed, or what was asked. */
  detail?: Record<string, unknown>;
}): void {
  const scope = storage.getStore();
  if (!scope) return;
  if (note.action) scope.action = note.action;
  if (note.actor) scope.actor = note.actor;
  if (note.username !== undefined) scope.username = note.username;
  if (note.slugDate !== undefined) scope.slugDate = note.slugDate;
  if (note.targets) Object.assign(scope.targets, note.targets);
  if (note.detail) Object.assign(scope.detail, note.detail);
}

/** Keys whose values never reach an entry: credentials of any kind (docs/security.md). */
const SECRET_KEY =
  /(^sid$|password|passwd|secret|token|cookie|authori[sz]ation|api[-_]?key|credentials?|signature|hash)$/i;
const MAX_TEXT = 300;
const MAX_ITEMS = 50;
const MAX_DEPTH = 6;

/**
 * What an entry may hold of a value: secrets dropped by key, bytes and data URLs (photos,
 * images) replaced by a mark, long texts and lists cut. Every value recorded passes here.
 */
export function auditSafe(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') {
    if (/^data:/i.test(value)) return '[data URL]';
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (${value.length} characters)` : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return '[bytes]';
  if (typeof value !== 'object' || depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => auditSafe(v, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… (${value.length} items)`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_KEY.test(k) || v === undefined) continue;
    out[k] = auditSafe(v, depth + 1);
  }
  return out;
}

export const auditSafeObject = (value: unknown): Record<string, unknown> => {
  const safe = auditSafe(value);
  return safe && typeof safe === 'object' && !Array.isArray(safe) ? (safe as Record<string, unknown>) : {};
};

/** Fields of a request that name what it acts on: the entry's target ids. */
const TARGET_KEYS = new Set([
  'id',
  'ids',
  '_id',
  'userId',
  'username',
  'name',
  'key',
  'camera',
  'type',
  'section',
  'index',
  'language',
  'eventIds',
  'slugDate',
  'slugDates',
  'snapshotIds',
  'snapshots',
]);

/** Target ids and the one event of a request, read from its params, query and body. */
export function targetsOf(...sources: unknown[]): { targets: Record<string, unknown>; slugDate: string | null } {
  const targets: Record<string, unknown> = {};
  for (const source of sources) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [k, v] of Object.entries(source)) {
      if (TARGET_KEYS.has(k) && v !== undefined && !SECRET_KEY.test(k)) targets[k] = auditSafe(v);
    }
  }
  const one = (v: unknown) =>
    typeof v === 'string' ? v : Array.isArray(v) && v.length === 1 && typeof v[0] === 'string' ? v[0] : null;
  // `eventIds` are event ids, not slug dates: the template area notes the slug dates it wrote.
  const slugDate = one(targets.slugDate) ?? one(targets.slugDates);
  return { targets, slugDate };
}
