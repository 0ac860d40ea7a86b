import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, snapshotChanges, snapshotCounts, snapshots } from '../../db/schema/index.ts';
import { FACE_CONFIDENCE_THRESHOLD } from '@stadiumcam/contract';

export type SnapshotRow = typeof snapshots.$inferSelect;
export type SnapshotInsert = typeof snapshots.$inferInsert;

type FaceLike = {
  AgeRange?: { Low?: number; High?: number };
  Gender?: { Value?: string; Confidence?: number };
  Emotions?: { Type?: string; Confidence?: number }[];
};

/** Emotions count for a photo only above the spec's confidence threshold (spec 1 §5). */
/** The plain columns the album filters on, derived from the whole face list. */
export function summariseFaces(faces: unknown[] | null | undefined) {
  // No face data: unknown. An empty list: analysed, nobody in the picture (group size 0).
  if (!faces) return { groupSize: null, ageMin: null, ageMax: null, genders: null, emotions: [] };
  const list = faces as FaceLike[];
  const confident = (c: number | undefined) => (c ?? 0) > FACE_CONFIDENCE_THRESHOLD;
  const lows = list.map((f) => f.AgeRange?.Low).filter((n): n is number => typeof n === 'number');
  const highs = list.map((f) => f.AgeRange?.High).filter((n): n is number => typeof n === 'number');
  const genders = new Set(
    list
      .filter((f) => confident(f.Gender?.Confidence))
      .map((f) => f.Gender?.Value)
      .filter((g) => g === 'Female' || g === 'Male'),
  );
  const emotions = new Set<string>();
  for (const f of list)
    for (const e of f.Emotions ?? []) if (e.Type && confident(e.Confidence)) emotions.add(e.Type.toLowerCase());
  return {
    groupSize: list.length,
    ageMin: lows.length ? Math.min(...lows) : null,
    ageMax: highs.length ? Math.max(...highs) : null,
    genders: genders.size === 2 ? 'Both' : genders.size === 1 ? [...genders][0] : null,
    emotions: [...emotions].sort(),
  };
}

/** Share columns kept in step with postObj so the shared tab and platform filter use indexes. */
export function shareColumns(postObj: { socialSource: string }[]) {
  return {
    sharedCount: postObj.length,
    shareSources: [...new Set(postObj.map((p) => p.socialSource))].sort(),
  };
}

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

// ---------------------------------------------------------------------------------------
// Album queries. Built as SQL so the planner sees one shape per page: a walk of one index
// (see docs/bench-album.md for the plans).

export type TypeFilter = 'all' | 'shared' | 'favorites' | 'magicshots' | 'all-with-magicshot';
export type SortField = 'date' | 'section' | 'row' | 'seat' | 'userId';

export type AlbumFilter = {
  slugDate?: string[];
  userId?: string[];
  camera?: string[];
  seatType?: string[];
  section?: string[];
  box?: string[];
  suite?: string[];
  customType1?: string[];
  customType2?: string[];
  customType3?: string[];
  row?: string[];
  seat?: string[];
  overlay?: string[];
  emotion?: string[];
  sharedPlatform?: string[];
  ageMin?: number;
  ageMax?: number;
  groupSizeMin?: number;
  groupSizeMax?: number;
  gender?: 'All' | 'Female' | 'Male' | 'Both';
  timeSince?: number;
  timeUntil?: number;
  hidden?: boolean;
  dateFrom?: string;
  dateTo?: string;
  dateVal?: string;
  dateComparator?: 'gt' | 'gte' | 'lt' | 'lte';
  cursorId?: string;
};

const s = snapshots;
const textArray = (values: string[]) =>
  sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/** Seat-type lists of the filter: each names areas (kept in `section`) of one seat type. */
const LOCATION_FILTERS = [
  ['section', 'section'],
  ['box', 'box'],
  ['suite', 'suite'],
  ['customType1', 'custom_type_1'],
  ['customType2', 'custom_type_2'],
  ['customType3', 'custom_type_3'],
] as const;

export function typeCondition(type: TypeFilter): SQL | undefined {
  switch (type) {
    case 'all':
      return sql`${s.magicshot} = false`;
    case 'favorites':
      return sql`${s.favorite} = true and ${s.magicshot} = false`;
    case 'shared':
      return sql`${s.sharedCount} > 0 and ${s.magicshot} = false`;
    case 'magicshots':
      return sql`${s.magicshot} = true`;
    case 'all-with-magicshot':
      return undefined;
  }
}

const minuteOfDay = sql`((extract(epoch from ${s.date})::bigint % 86400) / 60)`;

/** Every filter field except the events (slugDate is handled by the callers). */
export function filterConditions(f: AlbumFilter): SQL[] {
  const out: SQL[] = [];
  if (f.userId?.length) out.push(inArray(s.userId, f.userId));
  if (f.camera?.length) out.push(inArray(s.camera, f.camera));
  if (f.seatType?.length) out.push(inArray(s.seatType, f.seatType));
  const places = LOCATION_FILTERS.filter(([key]) => f[key]?.length).map(
    ([key, seatType]) => sql`(${s.seatType} = ${seatType} and ${inArray(s.section, f[key]!)})`,
  );
  if (places.length) out.push(sql`(${sql.join(places, sql` or `)})`);
  if (f.row?.length) out.push(inArray(s.row, f.row));
  if (f.seat?.length) out.push(inArray(s.seat, f.seat));
  if (f.overlay?.length) out.push(inArray(s.overlay, f.overlay));
  if (f.emotion?.length) out.push(sql`${s.emotions} && ${textArray(f.emotion)}`);
  if (f.sharedPlatform?.length) out.push(sql`${s.shareSources} && ${textArray(f.sharedPlatform)}`);
  // A photo matches an age range when one of its faces' ranges overlaps it.
  if (f.ageMin !== undefined) out.push(sql`${s.ageMax} >= ${f.ageMin}`);
  if (f.ageMax !== undefined) out.push(sql`${s.ageMin} <= ${f.ageMax}`);
  if (f.groupSizeMin !== undefined) out.push(sql`${s.groupSize} >= ${f.groupSizeMin}`);
  if (f.groupSizeMax !== undefined) out.push(sql`${s.groupSize} <= ${f.groupSizeMax}`);
  if (f.gender === 'Female' || f.gender === 'Male') out.push(inArray(s.genders, [f.gender, 'Both']));
  if (f.gender === 'Both') out.push(eq(s.genders, 'Both'));
  if (f.timeSince !== undefined || f.timeUntil !== undefined) {
    const since = f.timeSince ?? 0;
    const until = f.timeUntil ?? 1440;
    out.push(
      since <= until
        ? sql`${minuteOfDay} between ${since} and ${until}`
        : sql`(${minuteOfDay} >= ${since} or ${minuteOfDay} <= ${until})`,
    );
  }
  if (f.hidden !== undefined) out.push(eq(s.hidden, f.hidden));
  if (f.dateFrom) out.push(sql`${s.date} >= ${new Date(f.dateFrom).toISOString()}::timestamptz`);
  if (f.dateTo) out.push(sql`${s.date} <= ${new Date(f.dateTo).toISOString()}::timestamptz`);
  if (f.dateVal && f.dateComparator) {
    const op = sql.raw({ gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.dateComparator]);
    const at = new Date(f.dateVal).toISOString();
    // Keyset: (date, id) compared as a row walks the same index as the page order.
    if (f.cursorId && (f.dateComparator === 'gt' || f.dateComparator === 'lt'))
      out.push(sql`(${s.date}, ${s.id}) ${op} (${at}::timestamptz, ${f.cursorId})`);
    else out.push(sql`${s.date} ${op} ${at}::timestamptz`);
  }
  return out;
}

const SORT_COLUMNS: Record<SortField, string[]> = {
  date: ['date', 'id'],
  section: ['seat_type', 'section', 'row', 'seat', 'date', 'id'],
  row: ['row', 'seat', 'date', 'id'],
  seat: ['seat', 'date', 'id'],
  userId: ['user_id', 'date', 'id'],
};

const orderBy = (field: SortField, order: 'asc' | 'desc', prefix = '') =>
  sql.raw(SORT_COLUMNS[field].map((c) => `${prefix}"${c}" ${order}`).join(', '));

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? (result as T[]);
}

const whereSql = (parts: (SQL | undefined)[]) => {
  const list = parts.filter((p): p is SQL => p !== undefined);
  return list.length ? sql`where ${sql.join(list, sql` and `)}` : sql``;
};

export type PageQuery = {
  filter: AlbumFilter;
  type: TypeFilter;
  sortField: SortField;
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
  /** Start the walk at this (date, id), inclusive, in ascending order (a page anchor). */
  from?: Anchor;
};

/**
 * A position in an event's date order: the date as PostgreSQL's own text (microseconds kept,
 * for the query) and as epoch microseconds (to compare with the change log).
 */
export type Anchor = { d: string; id: string; us: number };

/**
 * One page of photo ids. Only the index columns are read (an index-only walk, skipping
 * `offset` entries); the rows themselves are then fetched by id. Several events are merged
 * from one walk per event (Merge Append), so no event's photos are ever sorted in memory.
 */
export function pageIdsQuery(q: PageQuery): SQL {
  const conds = [typeCondition(q.type), ...filterConditions(q.filter)];
  if (q.from) conds.push(sql`(${s.date}, ${s.id}) >= (${q.from.d}::timestamptz, ${q.from.id})`);
  const events = q.filter.slugDate;
  const cols = sql.raw(SORT_COLUMNS[q.sortField].map((c) => `"${c}"`).join(', '));
  let query: SQL;
  if (!events || events.length <= 1) {
    const scope = events?.length ? [eq(s.slugDate, events[0])] : [];
    query = sql`select ${s.id} from ${s} ${whereSql([...scope, ...conds])}
      order by ${orderBy(q.sortField, q.sortOrder)} limit ${q.limit} offset ${q.offset}`;
  } else {
    const branches = events.map(
      (e) => sql`(select ${cols} from ${s} ${whereSql([eq(s.slugDate, e), ...conds])}
        order by ${orderBy(q.sortField, q.sortOrder)} limit ${q.offset + q.limit})`,
    );
    query = sql`select "id" from (${sql.join(branches, sql` union all `)}) as u
      order by ${orderBy(q.sortField, q.sortOrder)} limit ${q.limit} offset ${q.offset}`;
  }
  return query;
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

const eventScope = (slugDates?: string[]) => (slugDates?.length ? inArray(s.slugDate, slugDates) : undefined);

export const countQuery = (filter: AlbumFilter, type: TypeFilter): SQL =>
  sql`select count(*)::int as n from ${s} ${whereSql([
    eventScope(filter.slugDate),
    typeCondition(type),
    ...filterConditions(filter),
  ])}`;

/** Only events named, nothing else: the counters answer (see db/migrations/0001_album_counters.sql). */
export const onlyEvents = (f: AlbumFilter): f is AlbumFilter & { slugDate: string[] } =>
  !!f.slugDate?.length &&
  Object.entries(f).every(([k, v]) => k === 'slugDate' || v === undefined || (Array.isArray(v) && v.length === 0));

/**
 * Every `every`-th position of one tab of one event, oldest first, over the next
 * `steps` × `every` entries from `from` (inclusive; the tab's start without it): one
 * index-only walk of that stretch. The anchor after the stretch comes last when the tab goes
 * on, to start the next stretch from.
 */
export function pageAnchorsQuery(
  slugDate: string,
  type: TypeFilter,
  every: number,
  from: Anchor | undefined,
  steps: number,
): SQL {
  const start = from ? sql`(${s.date}, ${s.id}) >= (${from.d}::timestamptz, ${from.id})` : undefined;
  return sql`select r.date::text as d, r.id, (extract(epoch from r.date) * 1000000)::bigint::text as us
    from (
      select w.date, w.id, row_number() over (order by w.date, w.id) - 1 as rn
      from (select ${s.date}, ${s.id} from ${s} ${whereSql([eq(s.slugDate, slugDate), typeCondition(type), start])}
        order by ${s.date}, ${s.id} limit ${steps * every + 1}) as w
    ) as r where r.rn % ${every} = 0 order by r.rn`;
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
export async function changesSince(db: Db, slugDate: string, type: TypeFilter, version: number) {
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

export function storedTotal(c: Counters, type: TypeFilter): number {
  const byType: Record<TypeFilter, number> = {
    all: c.all,
    favorites: c.favorite,
    shared: c.shared,
    magicshots: c.magicshots,
    'all-with-magicshot': c.all + c.magicshots,
  };
  return byType[type];
}

export async function countSnapshots(db: Db, filter: AlbumFilter, type: TypeFilter): Promise<number> {
  if (onlyEvents(filter)) return storedTotal(await counters(db, filter.slugDate), type);
  return rowsOf<{ n: number }>(await db.execute(countQuery(filter, type)))[0].n;
}

/**
 * The four tab counts of a filtered selection in one pass: the filter picks the index (the
 * seat and camera indexes carry the tab columns, so the pass stays inside the index).
 */
export function albumCountsQuery(filter: AlbumFilter, withMagicshots: boolean): SQL {
  const where = whereSql([eventScope(filter.slugDate), ...filterConditions(filter)]);
  const count = (type: TypeFilter) => sql`(count(*) filter (where ${typeCondition(type)}))::int`;
  return sql`select ${count('all')} as "all", ${count('favorites')} as "favorite",
    ${withMagicshots ? count('magicshots') : sql`0`} as "magicshots", ${count('shared')} as "shared"
    from ${s} ${where}`;
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

/** Option lists of the album's filters: [answer key, column, seat type the column is read for]. */
const OPTION_COLUMNS = [
  ['seatTypes', 'seat_type', undefined],
  ['sections', 'section', 'section'],
  ['boxes', 'section', 'box'],
  ['suites', 'section', 'suite'],
  ['customType1', 'section', 'custom_type_1'],
  ['customType2', 'section', 'custom_type_2'],
  ['customType3', 'section', 'custom_type_3'],
  ['rows', 'row', undefined],
  ['seats', 'seat', undefined],
  ['cameras', 'camera', undefined],
  ['overlays', 'overlay', undefined],
  ['sharePlatforms', 'share_sources', undefined],
] as const;
type OptionKey = (typeof OPTION_COLUMNS)[number][0];

/**
 * Every option list of one event in one statement, each by a loose index scan: one index
 * probe per distinct value instead of reading the event's photos (a million at most).
 * Share platforms walk the distinct share-source lists of shared photos (a handful).
 */
function eventOptionsQuery(slugDate: string): SQL {
  const ctes = OPTION_COLUMNS.map(([, column, seatType], i) => {
    const col = sql.raw(`"${column}"`);
    const name = sql.raw(`o${i}`);
    const scope = sql.join(
      [
        sql`"slug_date" = ${slugDate}`,
        ...(seatType ? [sql`"seat_type" = ${seatType}`] : []),
        ...(column === 'share_sources' ? [sql`"shared_count" > 0`] : []),
      ],
      sql` and `,
    );
    return sql`${name}(v) as (
      (select ${col} from ${s} where ${scope} and ${col} is not null order by ${col} limit 1)
      union all
      select (select ${col} from ${s} where ${scope} and ${col} > ${name}.v order by ${col} limit 1)
      from ${name} where ${name}.v is not null)`;
  });
  const lists = OPTION_COLUMNS.map(([key, column], i) => {
    const from = sql.raw(`o${i}`);
    const values =
      column === 'share_sources' ? sql`select distinct unnest(v) from ${from}` : sql`select v from ${from}`;
    return sql`array(${values} where v is not null) as ${sql.raw(`"${key}"`)}`;
  });
  return sql`with recursive ${sql.join(ctes, sql`, `)} select ${sql.join(lists, sql`, `)}`;
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
  const sorted = (set: Set<string>) => [...set].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
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
