import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SnapshotListQuery, SnapshotStatsQuery, SnapshotType } from '@stadiumcam/contract';
import { snapshots } from '../../db/schema/index.ts';

/*
 * The album's queries, built as SQL so the planner sees one shape per page: a walk of one index
 * (see docs/bench-album.md for the plans). Typed from the contract: a filter is the filter
 * fields of the list and stats calls, a tab a SnapshotType. snapshots.repository.ts runs them.
 */

/** The filter fields of a list or stats query (paging and sorting are not filters). */
export type AlbumFilter = SnapshotStatsQuery;
export type SortField = SnapshotListQuery['sortField'];
export type SortOrder = SnapshotListQuery['sortOrder'];

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

export function typeCondition(type: SnapshotType): SQL | undefined {
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
  // A platform implies a share: `shared_count > 0` lets the page walk the shared tab's index and
  // the count stay inside snapshots_event_sources_idx (docs/event-users.md, Speed).
  if (f.sharedPlatform?.length)
    out.push(sql`${s.sharedCount} > 0 and ${s.shareSources} && ${textArray(f.sharedPlatform)}`);
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

const orderBy = (field: SortField, order: SortOrder, prefix = '') =>
  sql.raw(SORT_COLUMNS[field].map((c) => `${prefix}"${c}" ${order}`).join(', '));

export const whereSql = (parts: (SQL | undefined)[]) => {
  const list = parts.filter((p): p is SQL => p !== undefined);
  return list.length ? sql`where ${sql.join(list, sql` and `)}` : sql``;
};

export type PageQuery = {
  filter: AlbumFilter;
  type: SnapshotType;
  sortField: SortField;
  sortOrder: SortOrder;
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

export const eventScope = (slugDates?: string[]) => (slugDates?.length ? inArray(s.slugDate, slugDates) : undefined);

export const countQuery = (filter: AlbumFilter, type: SnapshotType): SQL =>
  sql`select count(*)::int as n from ${s} ${whereSql([
    eventScope(filter.slugDate),
    typeCondition(type),
    ...filterConditions(filter),
  ])}`;

/** Only events named, nothing else: the counters answer (see db/migrations/0001_album_counters.sql). */
export const onlyEvents = (f: AlbumFilter): f is AlbumFilter & { slugDate: string[] } =>
  !!f.slugDate?.length &&
  Object.entries(f).every(([k, v]) => k === 'slugDate' || v === undefined || (Array.isArray(v) && v.length === 0));

/** Only events and share platforms named: countable per share-source list (platformCountQuery). */
export const onlyPlatforms = (
  f: AlbumFilter,
  type: SnapshotType,
): f is AlbumFilter & { slugDate: string[]; sharedPlatform: string[] } =>
  !!f.sharedPlatform?.length && type !== 'favorites' && onlyEvents({ ...f, sharedPlatform: undefined });

/**
 * The photos of one event with any of these share platforms, counted by equality: a loose
 * scan of snapshots_event_sources_idx finds the event's distinct share-source lists (a
 * handful), and each list that names a platform is an index-only range count of its own
 * entries. An overlap condition instead reads every shared photo's list of the event
 * (~300,000 at 1M photos; docs/event-users.md, Speed).
 */
export function platformCountQuery(slugDate: string, platforms: string[], type: SnapshotType): SQL {
  const scope = sql`${s.slugDate} = ${slugDate} and ${s.sharedCount} > 0`;
  return sql`with recursive l(v) as (
      (select ${s.shareSources} from ${s} where ${scope} and ${s.shareSources} is not null
        order by ${s.shareSources} limit 1)
      union all
      select (select ${s.shareSources} from ${s} where ${scope} and ${s.shareSources} > l.v
        order by ${s.shareSources} limit 1)
      from l where l.v is not null)
    select coalesce(sum((select count(*) from ${s}
      ${whereSql([scope, sql`${s.shareSources} = l.v`, typeCondition(type)])})), 0)::int as n
    from l where l.v is not null and l.v && ${textArray(platforms)}`;
}

/**
 * Every `every`-th position of one tab of one event, oldest first, over the next
 * `steps` × `every` entries from `from` (inclusive; the tab's start without it): one
 * index-only walk of that stretch. The anchor after the stretch comes last when the tab goes
 * on, to start the next stretch from.
 */
export function pageAnchorsQuery(
  slugDate: string,
  type: SnapshotType,
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

/**
 * The four tab counts of a filtered selection in one pass: the filter picks the index (the
 * seat and camera indexes carry the tab columns, so the pass stays inside the index).
 */
export function albumCountsQuery(filter: AlbumFilter, withMagicshots: boolean): SQL {
  const where = whereSql([eventScope(filter.slugDate), ...filterConditions(filter)]);
  const count = (type: SnapshotType) => sql`(count(*) filter (where ${typeCondition(type)}))::int`;
  return sql`select ${count('all')} as "all", ${count('favorites')} as "favorite",
    ${withMagicshots ? count('magicshots') : sql`0`} as "magicshots", ${count('shared')} as "shared"
    from ${s} ${where}`;
}

/** Option lists of the album's filters: [answer key, column, seat type the column is read for]. */
export const OPTION_COLUMNS = [
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
export type OptionKey = (typeof OPTION_COLUMNS)[number][0];

/**
 * Every option list of one event in one statement, each by a loose index scan: one index
 * probe per distinct value instead of reading the event's photos (a million at most).
 * Share platforms walk the distinct share-source lists of shared photos (a handful).
 */
export function eventOptionsQuery(slugDate: string): SQL {
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
