import { and, eq, inArray, sql } from 'drizzle-orm';
import { naturalSort, type SnapshotType } from '@stadiumcam/contract';
import type { Db } from '../../db/client.ts';
import { events, snapshotChanges, snapshotCounts, snapshots } from '../../db/schema/index.ts';
import {
  albumCountsQuery,
  countQuery,
  eventOptionsQuery,
  eventScope,
  onlyEvents,
  onlyPlatforms,
  platformCountQuery,
  OPTION_COLUMNS,
  pageAnchorsQuery,
  pageIdsQuery,
  type AlbumFilter,
  type Anchor,
  type OptionKey,
  type PageQuery,
} from './album-query.repository.ts';
import { shareColumns, summariseFaces } from './snapshots.faces.ts';

/*
 * Photos' plain reads and writes, and the runners of the album's queries (built in
 * album-query.repository.ts); derived columns come from snapshots.faces.ts.
 */

export type SnapshotRow = typeof snapshots.$inferSelect;
export type SnapshotInsert = typeof snapshots.$inferInsert;

const s = snapshots;

/**
 * The one way a photo enters the album (ingest path and seeding both use it). The derived
 * columns (share counts, face summary) are filled from postObj and faces when not given.
 */
export async function insertSnapshot(db: Db, row: SnapshotInsert): Promise<SnapshotRow> {
  const values: SnapshotInsert = {
    ...(row.postObj ? shareColumns(row.postObj) : {}),
    ...(row.faces !== undefined && row.groupSize === undefined ? summariseFaces(row.faces) : {}),
    ...row,
  };
  return (await db.insert(snapshots).values(values).returning())[0];
}

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? (result as T[]);
}

export async function pageIds(db: Db, q: PageQuery): Promise<string[]> {
  return rowsOf<{ id: string }>(await db.execute(pageIdsQuery(q))).map((r) => r.id);
}

/** Rows for these ids, in the order of the ids. */
export async function findSnapshots(db: Db, ids: string[]): Promise<SnapshotRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(s).where(inArray(s.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is SnapshotRow => r !== undefined);
}

export async function findSnapshot(db: Db, id: string): Promise<SnapshotRow | undefined> {
  return (await db.select().from(s).where(eq(s.id, id)).limit(1))[0];
}

export async function pageAnchors(db: Db, ...args: Parameters<typeof pageAnchorsQuery>): Promise<Anchor[]> {
  return rowsOf<{ d: string; id: string; us: string }>(await db.execute(pageAnchorsQuery(...args))).map((r) => ({
    d: r.d,
    id: r.id,
    us: Number(r.us),
  }));
}

const CHANGED_FROM = {
  all: snapshotChanges.allFrom,
  favorites: snapshotChanges.favoriteFrom,
  magicshots: snapshotChanges.magicshotFrom,
  shared: snapshotChanges.sharedFrom,
  'all-with-magicshot': snapshotChanges.anyFrom,
} as const;

/**
 * What changed in one tab of an event after `version`: the versions logged (`first`..`last`,
 * `n` rows) and the oldest date moved in the tab, in epoch microseconds (null: none).
 */
export async function changesSince(db: Db, slugDate: string, type: SnapshotType, version: number) {
  const c = snapshotChanges;
  const query = sql`select min(${c.version})::int as first, max(${c.version})::int as last, count(*)::int as n,
      (extract(epoch from min(${CHANGED_FROM[type]})) * 1000000)::bigint::text as us
    from ${c} where ${c.slugDate} = ${slugDate} and ${c.version} > ${version}`;
  const row = rowsOf<{ first: number | null; last: number | null; n: number; us: string | null }>(
    await db.execute(query),
  )[0];
  return { ...row, us: row.us === null ? null : Number(row.us) };
}

type Counters = { all: number; favorite: number; magicshots: number; shared: number; version: number };

/** The stored counts of these events (summed), with the version that any write bumps. */
export async function counters(db: Db, slugDates: string[]): Promise<Counters> {
  const [row] = await db
    .select({
      version: sql<number>`coalesce(sum(${snapshotCounts.version}), 0)::int`,
      all: sql<number>`coalesce(sum(${snapshotCounts.all}), 0)::int`,
      favorite: sql<number>`coalesce(sum(${snapshotCounts.favorite}), 0)::int`,
      magicshots: sql<number>`coalesce(sum(${snapshotCounts.magicshots}), 0)::int`,
      shared: sql<number>`coalesce(sum(${snapshotCounts.shared}), 0)::int`,
    })
    .from(snapshotCounts)
    .where(inArray(snapshotCounts.slugDate, slugDates));
  return row;
}

export function storedTotal(c: Counters, type: SnapshotType): number {
  const byType: Record<SnapshotType, number> = {
    all: c.all,
    favorites: c.favorite,
    shared: c.shared,
    magicshots: c.magicshots,
    'all-with-magicshot': c.all + c.magicshots,
  };
  return byType[type];
}

export async function countSnapshots(db: Db, filter: AlbumFilter, type: SnapshotType): Promise<number> {
  // Not banned = all minus banned: the stored or index count, less the few banned photos
  // (snapshots_banned_idx), instead of counting nearly every photo through the table.
  if (filter.hidden === false)
    return (
      (await countSnapshots(db, { ...filter, hidden: undefined }, type)) -
      (await countSnapshots(db, { ...filter, hidden: true }, type))
    );
  if (onlyEvents(filter)) return storedTotal(await counters(db, filter.slugDate), type);
  if (onlyPlatforms(filter, type)) {
    let n = 0;
    for (const e of filter.slugDate)
      n += rowsOf<{ n: number }>(await db.execute(platformCountQuery(e, filter.sharedPlatform, type)))[0].n;
    return n;
  }
  return rowsOf<{ n: number }>(await db.execute(countQuery(filter, type)))[0].n;
}

export async function albumCounts(db: Db, filter: AlbumFilter, withMagicshots: boolean) {
  if (onlyEvents(filter)) {
    const c = await counters(db, filter.slugDate);
    return { all: c.all, favorite: c.favorite, shared: c.shared, magicshots: withMagicshots ? c.magicshots : 0 };
  }
  const query = albumCountsQuery(filter, withMagicshots);
  const row = rowsOf<{ all: number; favorite: number; magicshots: number; shared: number }>(await db.execute(query))[0];
  return { all: row.all, favorite: row.favorite, magicshots: row.magicshots, shared: row.shared };
}

export async function hasFaceData(db: Db, slugDates: string[]): Promise<boolean> {
  const query = sql`select exists (select 1 from ${s} where ${inArray(s.slugDate, slugDates)} and ${s.groupSize} is not null) as x`;
  return rowsOf<{ x: boolean }>(await db.execute(query))[0].x;
}

export async function filterOptions(db: Db, slugDates: string[]) {
  const sets = Object.fromEntries(OPTION_COLUMNS.map(([key]) => [key, new Set<string>()])) as Record<
    OptionKey,
    Set<string>
  >;
  for (const e of slugDates) {
    const row = rowsOf<Record<OptionKey, string[]>>(await db.execute(eventOptionsQuery(e)))[0];
    for (const [key] of OPTION_COLUMNS) for (const v of row[key]) sets[key].add(v);
  }
  const sorted = (set: Set<string>) => [...set].sort(naturalSort);
  const lists = Object.fromEntries(OPTION_COLUMNS.map(([key]) => [key, sorted(sets[key])])) as Record<
    OptionKey,
    string[]
  >;
  return { ...lists, hasFaceData: await hasFaceData(db, slugDates) };
}

export async function userSnapshots(db: Db, userId: string, slugDates?: string[]): Promise<SnapshotRow[]> {
  return db
    .select()
    .from(s)
    .where(and(eq(s.userId, userId), eventScope(slugDates)))
    .orderBy(s.date);
}

/** Sets columns of one photo. */
export async function updateSnapshot(db: Db, id: string, values: Partial<SnapshotInsert>): Promise<SnapshotRow> {
  return (await db.update(s).set(values).where(eq(s.id, id)).returning())[0];
}

export async function deleteSnapshots(db: Db, ids: string[]): Promise<SnapshotRow[]> {
  return db.delete(s).where(inArray(s.id, ids)).returning();
}

export async function findEvents(db: Db, slugDates: string[]) {
  return db
    .select({ slugDate: events.slugDate, eventStatus: events.eventStatus })
    .from(events)
    .where(inArray(events.slugDate, slugDates));
}

/** Photos of these events in id order, a batch at a time (exports of whole events). */
export async function snapshotBatch(
  db: Db,
  slugDates: string[],
  afterId: string,
  limit: number,
  withMagicshots: boolean,
) {
  return db
    .select({ id: s.id, slugDate: s.slugDate, rawCroppedUri: s.rawCroppedUri, date: s.date })
    .from(s)
    .where(
      and(
        inArray(s.slugDate, slugDates),
        sql`${s.id} > ${afterId}`,
        withMagicshots ? undefined : eq(s.magicshot, false),
      ),
    )
    .orderBy(s.id)
    .limit(limit);
}

export const inTransaction = <T>(db: Db, work: (tx: Db) => Promise<T>) =>
  db.transaction((tx) => work(tx as unknown as Db));
