import { can, P, SNAPSHOT_FIELDS, type Face, type Snapshot, type UserStats } from '@stadiumcam/contract';
import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { AppError, notFound, ERR } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { toSnapshot, withoutContacts } from './snapshots.mapper.ts';
import { originalOrRaw, sweepOrphanMedia, sweepOrphanOriginals } from './snapshots.media.ts';
import * as repo from './snapshots.repository.ts';
import type { SnapshotRow } from './snapshots.repository.ts';

/*
 * Who may see which photo, and the one-photo reads (a photo, its faces, an attendee's stats,
 * the original file). The album's pages are in paging.service.ts, moderation in
 * moderation.service.ts, archives, export and the e-mail share in export.service.ts.
 */

export const seesMagicshots = (user: AuthUser) => can(user.permissions, P.MAGICSHOTS_READ);

/**
 * The events this user may reach. Every logged-in user sees every event for now; this is the
 * one place a per-event rule would go (an id outside it answers 404, as an unknown id does).
 */
export const mayReachEvent = (_user: AuthUser, _slugDate: string) => true;

export function reachable(user: AuthUser, row: SnapshotRow | undefined): row is SnapshotRow {
  if (!row || !mayReachEvent(user, row.slugDate)) return false;
  return !row.magicshot || seesMagicshots(user);
}

/** Attendees' e-mail addresses are personal data: EventUsers:read (docs/security.md §6). */
export const seesContacts = (user: AuthUser) => can(user.permissions, P.EVENT_USERS_READ);

/** The photo as this user may see it: without the attendees' e-mail addresses unless allowed. */
export function forViewer(user: AuthUser, row: SnapshotRow): Snapshot {
  const snapshot = toSnapshot(row);
  return seesContacts(user) ? snapshot : withoutContacts(snapshot);
}

/** Faces are biometric data: the lightbox vision card or the vision analytics (docs/security.md §6). */
export const seesFaces = (user: AuthUser) =>
  can(user.permissions, [P.VISION_ACCORDITION, P.ANALYTICS_VISION_READ], { or: true });

export async function getSnapshot(
  deps: Deps,
  user: AuthUser,
  id: string,
  fields?: (keyof Snapshot)[],
): Promise<Partial<Snapshot> & { _id: string }> {
  const row = await repo.findSnapshot(deps.db, id);
  if (!reachable(user, row)) throw notFound(ERR.album.snapshotNotFound);
  const full = forViewer(user, row);
  if (!fields?.length) return full;
  const out: Partial<Snapshot> & { _id: string } = { _id: full._id };
  for (const f of fields) if (SNAPSHOT_FIELDS.includes(f)) Object.assign(out, { [f]: full[f] });
  return out;
}

export async function facesData(deps: Deps, user: AuthUser, id: string): Promise<Face[]> {
  const row = await repo.findSnapshot(deps.db, id);
  if (!reachable(user, row)) throw notFound(ERR.album.snapshotNotFound);
  return (row.faces ?? []) as Face[];
}

export async function userStats(deps: Deps, user: AuthUser, userId: string, slugDates?: string[]): Promise<UserStats> {
  const rows = (await repo.userSnapshots(deps.db, userId, slugDates)).filter((r) => reachable(user, r));
  if (rows.length === 0) throw notFound(ERR.album.userHasNoPhotos);
  const seats = new Map<string, UserStats['srsList'][number]>();
  const social = new Map<string, UserStats['socialData'][number]>();
  for (const r of rows) {
    const key = `${r.section}\u0000${r.row}\u0000${r.seat}`;
    const srs = seats.get(key);
    // The latest photo's time marks when the attendee was last at that seat.
    if (srs) {
      srs.snapshots += 1;
      srs.timestamp = r.date.toISOString();
    } else
      seats.set(key, { section: r.section, row: r.row, seat: r.seat, snapshots: 1, timestamp: r.date.toISOString() });
    for (const p of r.postObj) {
      const userEmail = seesContacts(user) ? (p.userEmail ?? null) : null;
      const entry = { socialSource: p.socialSource, userName: r.userId, userEmail };
      social.set(`${entry.socialSource}\u0000${entry.userEmail ?? ''}`, entry);
    }
  }
  return { snapshots: rows.length, srsList: [...seats.values()], socialData: [...social.values()] };
}

/** Loads every id or fails with 404 before anything changes (a deleted photo among them). */
export async function loadAll(deps: Deps, user: AuthUser, ids: string[]): Promise<SnapshotRow[]> {
  const unique = [...new Set(ids)];
  const rows = await repo.findSnapshots(deps.db, unique);
  const missing = unique.filter((id) => !rows.some((r) => r.id === id && reachable(user, r)));
  if (missing.length) throw new AppError(404, ERR.album.snapshotNotFound, { details: missing });
  return rows;
}

export function groupByEvent(rows: SnapshotRow[]): Map<string, SnapshotRow[]> {
  const out = new Map<string, SnapshotRow[]>();
  for (const r of rows) out.set(r.slugDate, [...(out.get(r.slugDate) ?? []), r]);
  return out;
}

/** Removes photo files a crash left without a row (snapshots.media.ts sweepOrphanMedia). */
export async function sweepOrphans(
  deps: Deps,
  olderThan: Date,
): Promise<{ folders: number; temps: number; originals: number }> {
  const known = async (ids: string[]) => new Set((await repo.findSnapshots(deps.db, ids)).map((r) => r.id));
  const media = await sweepOrphanMedia(deps.media, olderThan, known);
  return { ...media, originals: await sweepOrphanOriginals(deps.originals, olderThan, known) };
}

/** The file behind GET /api/snapshots/:id/original (the lightbox's Exif card). */
export async function originalOf(deps: Deps, user: AuthUser, id: string): Promise<Readable> {
  const row = await repo.findSnapshot(deps.db, id);
  if (!reachable(user, row)) throw notFound(ERR.album.snapshotNotFound);
  const file = await originalOrRaw(deps, row);
  if (!file) throw notFound(ERR.album.snapshotNotFound);
  return file;
}
