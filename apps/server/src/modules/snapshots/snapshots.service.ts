import {
  can,
  MSG,
  P,
  SNAPSHOT_FIELDS,
  SnapshotFilterShape,
  type AlbumStats,
  type Face,
  type FilterOptions,
  SHARE_EMAILS_PER_HOUR,
  type ShareSnapshotsEmail,
  type Snapshot,
  type SnapshotList,
  type SnapshotListItem,
  type SnapshotListQuery,
  type SnapshotStatsQuery,
  type UserStats,
} from '@stadiumcam/contract';
import type { Archiver } from 'archiver';
import { DEFAULT_COLORS, renderPhotoEmail } from '@stadiumcam/contract';
import { getEventBySlugDate } from '../events/events.service.ts';
import { photoEmail } from '../attendee/photo-email.service.ts';
import { giveQuotaBack, takeQuota } from '../auth/auth.service.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, forbidden, notFound, unprocessable } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { toSnapshot, withoutContacts } from './snapshots.mapper.ts';
import {
  appendMedia,
  entriesWritten,
  extensionOf,
  moveToNewUrls,
  originalOrRaw,
  removeFiles,
  sweepOrphanMedia,
  sweepOrphanOriginals,
} from './snapshots.media.ts';
import { removeOriginal } from '../../media/media-store.ts';
import * as repo from './snapshots.repository.ts';
import type { AlbumFilter, SnapshotRow } from './snapshots.repository.ts';

const seesMagicshots = (user: AuthUser) => can(user.permissions, P.MAGICSHOTS_READ);

/**
 * The events this user may reach. Every logged-in user sees every event for now; this is the
 * one place a per-event rule would go (an id outside it answers 404, as an unknown id does).
 */
const mayReachEvent = (_user: AuthUser, _slugDate: string) => true;

function reachable(user: AuthUser, row: SnapshotRow | undefined): row is SnapshotRow {
  if (!row || !mayReachEvent(user, row.slugDate)) return false;
  return !row.magicshot || seesMagicshots(user);
}

/** Attendees' e-mail addresses are personal data: EventUsers:read (docs/security.md §6). */
const seesContacts = (user: AuthUser) => can(user.permissions, P.EVENT_USERS_READ);

/** The photo as this user may see it: without the attendees' e-mail addresses unless allowed. */
function forViewer(user: AuthUser, row: SnapshotRow): Snapshot {
  const snapshot = toSnapshot(row);
  return seesContacts(user) ? snapshot : withoutContacts(snapshot);
}

const toListItem = (user: AuthUser, row: SnapshotRow): SnapshotListItem => ({
  ...forViewer(user, row),
  sharedPlatforms: row.shareSources,
  contactInfo: seesContacts(user) ? (row.postObj.find((p) => p.userEmail)?.userEmail ?? null) : null,
});

/** Faces are biometric data: the lightbox vision card or the vision analytics (docs/security.md §6). */
const seesFaces = (user: AuthUser) =>
  can(user.permissions, [P.VISION_ACCORDITION, P.ANALYTICS_VISION_READ], { or: true });

/** Filtering by faces reads face data: refused (403) without the permission. */
function usesFaceFilters(q: SnapshotStatsQuery): boolean {
  return (
    (q.emotion?.length ?? 0) > 0 ||
    [q.ageMin, q.ageMax, q.groupSizeMin, q.groupSizeMax].some((v) => v !== undefined) ||
    (q.gender !== undefined && q.gender !== 'All')
  );
}

/** The filter fields of a list or stats query (paging and sorting are not filters). */
function albumFilter(user: AuthUser, q: SnapshotStatsQuery): AlbumFilter {
  if (!seesFaces(user) && usesFaceFilters(q)) throw forbidden();
  const filter: AlbumFilter = {};
  for (const key of Object.keys(SnapshotFilterShape) as (keyof typeof SnapshotFilterShape)[])
    if (q[key] !== undefined) Object.assign(filter, { [key]: q[key] });
  if (filter.slugDate) filter.slugDate = filter.slugDate.filter((e) => mayReachEvent(user, e));
  return filter;
}

export async function listSnapshots(deps: Deps, user: AuthUser, q: SnapshotListQuery): Promise<SnapshotList> {
  if ((q.type === 'magicshots' || q.type === 'all-with-magicshot') && !seesMagicshots(user)) throw forbidden();
  const filter = albumFilter(user, q);
  if (filter.slugDate && filter.slugDate.length === 0) return { items: [], ...(q.withTotal ? { total: 0 } : {}) };
  const ids = await pageIds(deps, filter, q);
  const items = (await repo.findSnapshots(deps.db, ids)).map((row) => toListItem(user, row));
  if (!q.withTotal) return { items };
  return { items, total: await repo.countSnapshots(deps.db, filter, q.type) };
}

/** Deeper than this, an unfiltered page is placed by the stored count and anchors. */
const ANCHOR_FROM = 1000;

/**
 * A page by offset. Filtered or multi-event pages walk their indexes and skip. A deep page
 * of one event without filters (date order) is placed by the stored count and read from the
 * nearest page anchor (snapshots.anchors.ts).
 */
async function pageIds(deps: Deps, filter: AlbumFilter, q: SnapshotListQuery): Promise<string[]> {
  const offset = (q.page - 1) * q.pageSize;
  const base = { filter, type: q.type, sortField: q.sortField, offset, limit: q.pageSize };
  const event = filter.slugDate?.length === 1 ? filter.slugDate[0] : undefined;
  if (!event || q.sortField !== 'date' || !repo.onlyEvents(filter))
    return repo.pageIds(deps.db, { ...base, sortOrder: q.sortOrder });
  if (offset < ANCHOR_FROM) {
    deps.anchors.warm(event, q.type);
    return repo.pageIds(deps.db, { ...base, sortOrder: q.sortOrder });
  }
  const counters = await repo.counters(deps.db, [event]);
  const total = repo.storedTotal(counters, q.type);
  if (offset >= total) return [];
  const limit = Math.min(q.pageSize, total - offset);
  // Position (from the oldest) of the page's oldest photo.
  const first = q.sortOrder === 'asc' ? offset : total - offset - limit;
  const ascending = await deps.anchors.page(base, event, first, limit, total, counters.version);
  return q.sortOrder === 'asc' ? ascending : ascending.reverse();
}

export async function albumStats(deps: Deps, user: AuthUser, q: SnapshotStatsQuery): Promise<AlbumStats> {
  const filter = albumFilter(user, q);
  if (filter.slugDate && filter.slugDate.length === 0) return { all: 0, favorite: 0, magicshots: 0, shared: 0 };
  return repo.albumCounts(deps.db, filter, seesMagicshots(user));
}

export async function filterOptions(deps: Deps, user: AuthUser, slugDates: string[]): Promise<FilterOptions> {
  const options = await repo.filterOptions(
    deps.db,
    slugDates.filter((e) => mayReachEvent(user, e)),
  );
  // Without face permissions the album shows no face filters (they would answer 403).
  return seesFaces(user) ? options : { ...options, hasFaceData: false };
}

export async function getSnapshot(
  deps: Deps,
  user: AuthUser,
  id: string,
  fields?: (keyof Snapshot)[],
): Promise<Partial<Snapshot> & { _id: string }> {
  const row = await repo.findSnapshot(deps.db, id);
  if (!reachable(user, row)) throw notFound(MSG.album.snapshotNotFound);
  const full = forViewer(user, row);
  if (!fields?.length) return full;
  const out: Partial<Snapshot> & { _id: string } = { _id: full._id };
  for (const f of fields) if (SNAPSHOT_FIELDS.includes(f)) Object.assign(out, { [f]: full[f] });
  return out;
}

export async function facesData(deps: Deps, user: AuthUser, id: string): Promise<Face[]> {
  const row = await repo.findSnapshot(deps.db, id);
  if (!reachable(user, row)) throw notFound(MSG.album.snapshotNotFound);
  return (row.faces ?? []) as Face[];
}

export async function userStats(deps: Deps, user: AuthUser, userId: string, slugDates?: string[]): Promise<UserStats> {
  const rows = (await repo.userSnapshots(deps.db, userId, slugDates)).filter((r) => reachable(user, r));
  if (rows.length === 0) throw notFound(MSG.album.userHasNoPhotos);
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
async function loadAll(deps: Deps, user: AuthUser, ids: string[]): Promise<SnapshotRow[]> {
  const unique = [...new Set(ids)];
  const rows = await repo.findSnapshots(deps.db, unique);
  const missing = unique.filter((id) => !rows.some((r) => r.id === id && reachable(user, r)));
  if (missing.length) throw new AppError(404, MSG.album.snapshotNotFound, { details: missing });
  return rows;
}

function groupByEvent(rows: SnapshotRow[]): Map<string, SnapshotRow[]> {
  const out = new Map<string, SnapshotRow[]>();
  for (const r of rows) out.set(r.slugDate, [...(out.get(r.slugDate) ?? []), r]);
  return out;
}

/** Sets the ban of each photo; a newly banned photo moves to new URLs. */
async function applyBan(deps: Deps, rows: SnapshotRow[], hidden: (r: SnapshotRow) => boolean): Promise<SnapshotRow[]> {
  const out: SnapshotRow[] = [];
  for (const r of rows) {
    const next = hidden(r);
    if (next === r.hidden) {
      out.push(r);
      continue;
    }
    const uris = next ? await moveToNewUrls(deps.config.mediaDir, r) : {};
    out.push(await repo.updateSnapshot(deps.db, r.id, { hidden: next, ...uris }));
  }
  return out;
}

export async function banPhotos(deps: Deps, user: AuthUser, ids: string[], banStatus?: boolean): Promise<Snapshot[]> {
  const rows = await loadAll(deps, user, ids);
  const changed = await applyBan(deps, rows, (r) => banStatus ?? !r.hidden);
  for (const [slugDate, list] of groupByEvent(changed)) {
    for (const hidden of [true, false]) {
      const same = list.filter((r) => r.hidden === hidden).map((r) => r.id);
      if (same.length) deps.realtime.toEvent(slugDate, 'bannedChanged', { slugDate, ids: same, hidden });
    }
  }
  return changed.map((row) => forViewer(user, row));
}

export async function banUser(
  deps: Deps,
  user: AuthUser,
  userId: string,
  banStatus: boolean,
  slugDates?: string[],
): Promise<Snapshot[]> {
  const rows = (await repo.userSnapshots(deps.db, userId, slugDates)).filter((r) => reachable(user, r));
  if (rows.length === 0) throw notFound(MSG.album.userHasNoPhotos);
  const changed = await applyBan(deps, rows, () => banStatus);
  for (const slugDate of groupByEvent(changed).keys())
    deps.realtime.toEvent(slugDate, 'bannedChanged', { slugDate, userId, hidden: banStatus });
  return changed.map((row) => forViewer(user, row));
}

export async function favoritePhotos(
  deps: Deps,
  user: AuthUser,
  ids: string[],
  favorite?: boolean,
): Promise<Snapshot[]> {
  const rows = await loadAll(deps, user, ids);
  const changed: SnapshotRow[] = [];
  for (const r of rows) {
    const next = favorite ?? !r.favorite;
    changed.push(next === r.favorite ? r : await repo.updateSnapshot(deps.db, r.id, { favorite: next }));
  }
  for (const [slugDate, list] of groupByEvent(changed)) {
    for (const fav of [true, false]) {
      const same = list.filter((r) => r.favorite === fav).map((r) => r.id);
      if (same.length)
        deps.realtime.toEvent(slugDate, 'monitor favoritedSnapshots', { slugDate, ids: same, favorite: fav });
    }
  }
  return changed.map((row) => forViewer(user, row));
}

export async function deletePhotos(deps: Deps, user: AuthUser, ids: string[]): Promise<number> {
  await loadAll(deps, user, ids);
  const deleted = await repo.deleteSnapshots(deps.db, [...new Set(ids)]);
  await removeFiles(deps.config.mediaDir, deleted);
  for (const r of deleted) await removeOriginal(deps.config.dataDir, r.id);
  for (const [slugDate, list] of groupByEvent(deleted))
    deps.realtime.toEvent(slugDate, 'snapshotDeleted', { slugDate, ids: list.map((r) => r.id) });
  return deleted.length;
}

const zipName = (r: { slugDate: string; id: string; date: Date }, url: string) =>
  `${r.slugDate}/${r.date.toISOString().replace(/[:.]/g, '-')}_${r.id}${extensionOf(url)}`;

/** What an export will contain; checked (404/422) before the answer starts streaming. */
export async function prepareExport(
  deps: Deps,
  user: AuthUser,
  q: { slugDate?: string[]; id?: string[] },
): Promise<{ slugDates: string[] } | { rows: SnapshotRow[] }> {
  if (q.id) return { rows: await loadAll(deps, user, q.id) };
  const slugDates = [...new Set(q.slugDate ?? [])];
  const found = await repo.findEvents(deps.db, slugDates);
  const missing = slugDates.filter((e) => !found.some((f) => f.slugDate === e) || !mayReachEvent(user, e));
  if (missing.length) throw new AppError(404, MSG.events.eventNotFound, { details: missing });
  if (found.some((f) => f.eventStatus === 'live')) throw unprocessable(MSG.album.exportWhileLive);
  return { slugDates };
}

const EXPORT_BATCH = 500;

/** Streams the photos into the (encrypted) archive a batch at a time, then finalises it. */
export async function fillExport(
  deps: Deps,
  user: AuthUser,
  zip: Archiver,
  plan: Awaited<ReturnType<typeof prepareExport>>,
  aborted: () => boolean,
): Promise<void> {
  const waitFor = entriesWritten(zip);
  let queued = 0;
  const add = async (r: { slugDate: string; id: string; date: Date; rawCroppedUri: string }) => {
    if (await appendMedia(zip, deps.config.mediaDir, r.rawCroppedUri, zipName(r, r.rawCroppedUri))) queued += 1;
    // Keep only a few hundred entries queued: a whole event may hold a million photos.
    await waitFor(queued, EXPORT_BATCH);
  };
  if ('rows' in plan) {
    for (const r of plan.rows) if (!aborted()) await add(r);
  } else {
    let after = '';
    for (;;) {
      if (aborted()) break;
      const batch = await repo.snapshotBatch(deps.db, plan.slugDates, after, EXPORT_BATCH, seesMagicshots(user));
      for (const r of batch) await add(r);
      if (batch.length < EXPORT_BATCH) break;
      after = batch[batch.length - 1].id;
    }
  }
  await zip.finalize();
}

export async function fillArchive(
  deps: Deps,
  user: AuthUser,
  zip: Archiver,
  ids: string[],
  type: 'rawCroppedURI' | 'sharedURI',
): Promise<void> {
  const rows = await loadAll(deps, user, ids);
  for (const r of rows) {
    // A photo nobody put an overlay on has no overlayed image: its raw photo stands in.
    const url = type === 'sharedURI' ? r.sharedUri || r.rawCroppedUri : r.rawCroppedUri;
    await appendMedia(zip, deps.config.mediaDir, url, zipName(r, url));
  }
  await zip.finalize();
}

export async function checkArchive(deps: Deps, user: AuthUser, ids: string[]): Promise<void> {
  await loadAll(deps, user, ids);
}

/** Links in a share mail must be photos of this server: absolute, under its /media. */
function shareLink(publicUrl: string, link: string): string {
  const base = new URL(publicUrl);
  let url: URL;
  try {
    url = new URL(link, base);
  } catch {
    throw badRequest(`Not a link to a photo: ${link}`);
  }
  if (url.origin !== base.origin || !url.pathname.startsWith('/media/') || url.pathname.includes('..'))
    throw badRequest(`Not a link to a photo of this server: ${link}`);
  return url.toString();
}

/**
 * The album's share mail is the one photo e-mail (DESIGN §10): the event's e-mail colours and
 * header image, the operator's subject and text. The event is the one the first photo is of.
 */
export async function shareByEmail(deps: Deps, user: AuthUser, body: ShareSnapshotsEmail): Promise<void> {
  const links = body.snapshots.map((l) => shareLink(deps.config.publicUrl, l));
  // Per user and hour, counted only for mails that go out (docs/security.md §8).
  const quota = `mail:${user._id}`;
  if (!(await takeQuota(deps, quota, SHARE_EMAILS_PER_HOUR, 60 * 60 * 1000)))
    throw new AppError(429, MSG.album.emailRateLimited(SHARE_EMAILS_PER_HOUR), { code: 'album.emailRateLimited' });
  const slugDate = new URL(links[0] ?? '', deps.config.publicUrl).pathname.split('/')[2] ?? '';
  const event = slugDate ? await getEventBySlugDate(deps, decodeURIComponent(slugDate)) : null;
  const text = `${body.emailBodyText}\n\n${links.join('\n')}\n`;
  const html = event
    ? photoEmail(deps, event, links, { subject: body.emailSubject, body: body.emailBodyText }).html
    : renderPhotoEmail({
        colors: DEFAULT_COLORS.emailSettings,
        title: 'StadiumCam',
        heading: body.emailSubject,
        body: body.emailBodyText,
        button: 'Open photo',
        photos: links,
      }).html;
  try {
    await deps.mailer.send({ to: body.emailAddress, subject: body.emailSubject, text, html });
  } catch (err) {
    await giveQuotaBack(deps, quota);
    deps.log.error({ err }, 'share mail failed');
    throw new AppError(500, MSG.album.emailFailed);
  }
}

/** Removes photo files a crash left without a row (snapshots.media.ts sweepOrphanMedia). */
export async function sweepOrphans(
  deps: Deps,
  olderThan: Date,
): Promise<{ folders: number; temps: number; originals: number }> {
  const known = async (ids: string[]) => new Set((await repo.findSnapshots(deps.db, ids)).map((r) => r.id));
  const media = await sweepOrphanMedia(deps.config.mediaDir, olderThan, known);
  return { ...media, originals: await sweepOrphanOriginals(deps.config.dataDir, olderThan, known) };
}

/** The file behind GET /api/snapshots/:id/original (the lightbox's Exif card). */
export async function originalOf(deps: Deps, user: AuthUser, id: string): Promise<string> {
  const row = await repo.findSnapshot(deps.db, id);
  if (!reachable(user, row)) throw notFound(MSG.album.snapshotNotFound);
  const file = await originalOrRaw(deps.config.dataDir, deps.config.mediaDir, row);
  if (!file) throw notFound(MSG.album.snapshotNotFound);
  return file;
}
