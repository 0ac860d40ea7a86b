import {
  SnapshotFilterShape,
  type AlbumStats,
  type FilterOptions,
  type SnapshotList,
  type SnapshotListItem,
  type SnapshotListQuery,
  type SnapshotStatsQuery,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { forbidden } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { eventBySlugDate } from '../events/index.ts';
import * as repo from './snapshots.repository.ts';
import type { SnapshotRow } from './snapshots.repository.ts';
import { onlyEvents, type AlbumFilter } from './album-query.repository.ts';
import { forViewer, mayReachEvent, seesContacts, seesFaces, seesMagicshots } from './snapshots.service.ts';

/* The album's pages: the list (offset pages, deep pages by anchors), tab counts and filter options. */

const toListItem = (user: AuthUser, row: SnapshotRow): SnapshotListItem => ({
  ...forViewer(user, row),
  sharedPlatforms: row.shareSources,
  contactInfo: seesContacts(user) ? (row.postObj.find((p) => p.userEmail)?.userEmail ?? null) : null,
});

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
  if (!event || q.sortField !== 'date' || !onlyEvents(filter))
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
  const reachable = slugDates.filter((e) => mayReachEvent(user, e));
  const [options, overlays] = await Promise.all([
    repo.filterOptions(deps.db, reachable),
    enabledOverlays(deps, reachable),
  ]);
  // Without face permissions the album shows no face filters (they would answer 403).
  return { ...options, overlays, ...(seesFaces(user) ? {} : { hasFaceData: false }) };
}

/** The overlay filter offers the events' enabled overlays (spec 2 §4), by storage key, in their order. */
async function enabledOverlays(deps: Deps, slugDates: string[]): Promise<string[]> {
  const events = await Promise.all(slugDates.map((slugDate) => eventBySlugDate(deps, slugDate)));
  const keys = events.flatMap((event) =>
    ((event?.overlays ?? []) as { storageKey?: string; disabled?: boolean; deleted?: boolean }[])
      .filter((o) => o.storageKey && !o.disabled && !o.deleted)
      .map((o) => o.storageKey!),
  );
  return [...new Set(keys)];
}
