import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { FACE_CONFIDENCE_THRESHOLD } from '@stadiumcam/contract';
import { ANALYTICS_EMOTIONS } from '@stadiumcam/contract';
import { rowsOf } from '../snapshots/index.ts';

/*
 * The analytics roll-ups (analytics_counts, event_users, seat_counts) maintained by statement-level
 * triggers on snapshots (on event_users for the attendees per bucket, on queue_joins for the joins per seat), like the album counters (db/migrations/0001_album_counters.sql): one aggregate per
 * statement, every writer covered (ingest, shares, overlays, moderation, event deletes and
 * renames). A statement adds its new rows' contributions and subtracts its old rows', so an
 * update that changes nothing counted (a favourite, a ban) writes nothing. Magicshots are the
 * operators' photos, not attendees': they count nowhere. docs/analytics.md.
 */

/** Buckets of 15 minutes from a UTC origin: every time zone's offset is a multiple of 15 min. */
export const BUCKET_MINUTES = 15;
const bucketOf = (column: string) =>
  `date_bin('${BUCKET_MINUTES} minutes', ${column}, timestamptz '2000-01-01 00:00:00+00')`;

const num = (e: string) => `(case when jsonb_typeof(${e}) = 'number' then (${e})::numeric end)`;
const bool = (e: string) => `(case when jsonb_typeof(${e}) = 'boolean' then (${e})::boolean end)`;
const confident = (e: string) => `${num(e)} > ${FACE_CONFIDENCE_THRESHOLD}`;
const quoted = (list: readonly string[]) => list.map((v) => `'${v}'`).join(', ');

/** spec name -> Rekognition field. */
const TRAITS = [
  ['beard', 'Beard'],
  ['eyeglasses', 'Eyeglasses'],
  ['eyesOpen', 'EyesOpen'],
  ['moustache', 'Mustache'],
  ['mouthOpen', 'MouthOpen'],
  ['smile', 'Smile'],
  ['sunglasses', 'Sunglasses'],
] as const;

const mid = `((${num("f->'AgeRange'->'Low'")} + ${num("f->'AgeRange'->'High'")}) / 2)`;
const AGE_GROUP = `case when ${mid} < 18 then '0-17' when ${mid} < 25 then '18-24' when ${mid} < 35 then '25-34'
  when ${mid} < 45 then '35-44' when ${mid} < 55 then '45-54' when ${mid} < 65 then '55-64' else '65+' end`;

/** What one face counts: itself, its age group, gender, emotions and traits above confidence 60. */
const FACE_METRICS = `
  select 'faces', '', 1
  union all select 'age', ${AGE_GROUP}, 1 where ${mid} is not null
  union all select 'gender', f->'Gender'->>'Value', 1
    where f->'Gender'->>'Value' in ('Female', 'Male') and ${confident("f->'Gender'->'Confidence'")}
  union all select 'emotion', lower(e->>'Type'), 1
    from jsonb_array_elements(case when jsonb_typeof(f->'Emotions') = 'array' then f->'Emotions' else '[]' end) e
    where lower(e->>'Type') in (${quoted(ANALYTICS_EMOTIONS)}) and ${confident("e->'Confidence'")}
  union all select 'trait:' || t.name, case when ${bool("f->t.src->'Value'")} then 'yes' else 'no' end, 1
    from (values ${TRAITS.map(([n, s]) => `('${n}', '${s}')`).join(', ')}) t(name, src)
    where ${bool("f->t.src->'Value'")} is not null and ${confident("f->t.src->'Confidence'")}`;

/** Each attendee photo's contributions (slug_date, bucket, metric, key, n), times `sign`. */
const contributions = (table: string, sign: number) => `
  select r.slug_date, ${bucketOf('r.date')} as bucket, m.metric, m.key, m.n * ${sign} as n
  from ${table} r cross join lateral (
    select 'snapshots', '', 1
    union all select 'sharedPhotos', '', 1 where r.shared_count > 0
    union all select 'shares', '', r.shared_count where r.shared_count > 0
    union all select 'overlay', coalesce(r.overlay, ''), 1
    union all select 'section', r.section, 1
    union all select 'row', r.row, 1
    union all select 'groupSize', r.group_size::text, 1 where r.group_size is not null
    union all select 'source', p->>'socialSource', 1 from jsonb_array_elements(r.post_obj) p
    union all select v.* from jsonb_array_elements(case when jsonb_typeof(r.faces) = 'array' then r.faces else '[]' end) f
      cross join lateral (${FACE_METRICS}) v
  ) as m(metric, key, n)
  where not r.magicshot`;

const addCounts = (parts: string) => `
  insert into analytics_counts as c (slug_date, bucket, metric, key, n)
  select slug_date, bucket, metric, key, sum(n) from (${parts}) as d
  group by slug_date, bucket, metric, key having sum(n) <> 0
  on conflict (slug_date, metric, key, bucket) do update set n = c.n + excluded.n`;

/** Per attendee: photos (+1/-1), shared photos, and the first photo's date (new rows only). */
const userRows = (table: string, sign: number) =>
  `select slug_date, user_id, ${sign} as s, (shared_count > 0)::int as sh, date from ${table} where not magicshot`;
const addUsers = (parts: string) => `
  insert into event_users as e (slug_date, user_id, photos, shared_photos, first_date)
  select slug_date, user_id, sum(s), sum(s * sh), coalesce(min(date) filter (where s > 0), min(date))
  from (${parts}) as d group by slug_date, user_id having sum(s) <> 0 or sum(s * sh) <> 0
  on conflict (slug_date, user_id) do update set photos = e.photos + excluded.photos,
    shared_photos = e.shared_photos + excluded.shared_photos, first_date = least(e.first_date, excluded.first_date)`;
/**
 * Each attendee's contributions to `users` and `sharers` in the bucket of their first photo,
 * kept by triggers on event_users: the timeline reads a few rows per bucket instead of grouping
 * every attendee of the event (~100 ms at 250,000 attendees, docs/analytics.md).
 */
const userContributions = (table: string, sign: number) => `
  select r.slug_date, ${bucketOf('r.first_date')} as bucket, m.metric, '' as key, ${sign} as n
  from ${table} r cross join lateral (
    select 'users' union all select 'sharers' where r.shared_photos > 0
  ) as m(metric)`;
const dropGone = `
  delete from event_users e using (select distinct slug_date, user_id from old_rows) o
  where e.slug_date = o.slug_date and e.user_id = o.user_id and e.photos <= 0`;
const dropZeros = `
  delete from analytics_counts c using (select distinct slug_date from old_rows) o
  where c.slug_date = o.slug_date and c.n = 0`;

/*
 * The seat heat map's roll-ups (seat_counts, section_counts): per event and seat (and section), queue joins (rows of
 * queue_joins), attendee photos and their share records. Same scheme: new rows add, old rows
 * subtract, and a seat left with nothing counted is removed (only the seats the statement
 * touched are looked at, so a share does not scan the event's seats).
 */
const SEAT = `slug_date, seat_type, section, "row", seat`;
const seatPhotoRows = (table: string, sign: number) => `
  select ${SEAT}, 0 as joins, ${sign} as photos, ${sign} * shared_count as shares
  from ${table} where not magicshot and section <> ''`;
const seatJoinRows = (table: string, sign: number) =>
  `select ${SEAT}, ${sign} as joins, 0 as photos, 0 as shares from ${table}`;
/** Adds the rows' counts per seat and per section (the bowl reads ~100 section rows, not every seat). */
const addSeats = (parts: string) => `
  with d as (${parts}),
  seats as (
    insert into seat_counts as c (${SEAT}, joins, photos, shares)
    select ${SEAT}, sum(joins), sum(photos), sum(shares) from d
    group by ${SEAT} having sum(joins) <> 0 or sum(photos) <> 0 or sum(shares) <> 0
    on conflict (${SEAT}) do update
      set joins = c.joins + excluded.joins, photos = c.photos + excluded.photos, shares = c.shares + excluded.shares)
  insert into section_counts as c (slug_date, seat_type, section, joins, photos, shares)
  select slug_date, seat_type, section, sum(joins), sum(photos), sum(shares) from d
  group by slug_date, seat_type, section having sum(joins) <> 0 or sum(photos) <> 0 or sum(shares) <> 0
  on conflict (slug_date, seat_type, section) do update
    set joins = c.joins + excluded.joins, photos = c.photos + excluded.photos, shares = c.shares + excluded.shares`;
const dropEmptySeats = `
  delete from seat_counts c using (select distinct ${SEAT} from old_rows) o
  where (c.slug_date, c.seat_type, c.section, c."row", c.seat) = (o.slug_date, o.seat_type, o.section, o."row", o.seat)
    and c.joins = 0 and c.photos = 0 and c.shares = 0;
  delete from section_counts c using (select distinct slug_date, seat_type, section from old_rows) o
  where (c.slug_date, c.seat_type, c.section) = (o.slug_date, o.seat_type, o.section)
    and c.joins = 0 and c.photos = 0 and c.shares = 0`;

const fn = (name: string, statements: string[]) => `
  create or replace function ${name}() returns trigger language plpgsql as $fn$
  begin ${statements.join(';\n')}; return null; end $fn$`;

const both = (f: (t: string, s: number) => string) => `${f('new_rows', 1)} union all ${f('old_rows', -1)}`;
const FUNCTIONS = [
  fn('analytics_ins', [
    addCounts(contributions('new_rows', 1)),
    addUsers(userRows('new_rows', 1)),
    addSeats(seatPhotoRows('new_rows', 1)),
  ]),
  fn('analytics_del', [
    addCounts(contributions('old_rows', -1)),
    addUsers(userRows('old_rows', -1)),
    addSeats(seatPhotoRows('old_rows', -1)),
    dropGone,
    dropZeros,
    dropEmptySeats,
  ]),
  fn('analytics_upd', [
    addCounts(both(contributions)),
    addUsers(both(userRows)),
    addSeats(both(seatPhotoRows)),
    dropGone,
    dropEmptySeats,
  ]),
  fn('analytics_users_ins', [addCounts(userContributions('new_rows', 1))]),
  fn('analytics_users_del', [addCounts(userContributions('old_rows', -1)), dropZeros]),
  fn('analytics_users_upd', [addCounts(both(userContributions))]),
  fn('analytics_joins_ins', [addSeats(seatJoinRows('new_rows', 1))]),
  fn('analytics_joins_del', [addSeats(seatJoinRows('old_rows', -1)), dropEmptySeats]),
  fn('analytics_joins_upd', [addSeats(both(seatJoinRows)), dropEmptySeats]),
];

const TRIGGERS = [
  ['snapshots', 'analytics_ins', 'insert', 'new table as new_rows'],
  ['snapshots', 'analytics_del', 'delete', 'old table as old_rows'],
  ['snapshots', 'analytics_upd', 'update', 'old table as old_rows new table as new_rows'],
  ['event_users', 'analytics_users_ins', 'insert', 'new table as new_rows'],
  ['event_users', 'analytics_users_del', 'delete', 'old table as old_rows'],
  ['event_users', 'analytics_users_upd', 'update', 'old table as old_rows new table as new_rows'],
  ['queue_joins', 'analytics_joins_ins', 'insert', 'new table as new_rows'],
  ['queue_joins', 'analytics_joins_del', 'delete', 'old table as old_rows'],
  ['queue_joins', 'analytics_joins_upd', 'update', 'old table as old_rows new table as new_rows'],
] as const;

const LOCK_KEY = 5_081_978;

/** Creates the functions and triggers (idempotent); the first boot on a database counts once. */
export async function ensureAnalyticsRollup(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    for (const f of FUNCTIONS) await tx.execute(sql.raw(f));
    const present = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from pg_trigger
        where tgrelid in ('snapshots'::regclass, 'event_users'::regclass, 'queue_joins'::regclass)
          and tgname like 'analytics_%' and not tgisinternal`),
    )[0].n;
    if (present === TRIGGERS.length) return;
    await tx.execute(sql`lock table snapshots, event_users, queue_joins in share row exclusive mode`);
    for (const [table, name, event, refs] of TRIGGERS) {
      await tx.execute(sql.raw(`drop trigger if exists ${name} on ${table}`));
      await tx.execute(
        sql.raw(`create trigger ${name} after ${event} on ${table} referencing ${refs}
          for each statement execute function ${name}()`),
      );
    }
    // Counted again from the photos; the event_users triggers count the attendees meanwhile.
    await tx.execute(sql`delete from analytics_counts`);
    await tx.execute(sql`delete from event_users`);
    await tx.execute(sql`delete from seat_counts`);
    await tx.execute(sql`delete from section_counts`);
    await tx.execute(sql.raw(addCounts(contributions('snapshots', 1))));
    await tx.execute(sql.raw(addUsers(userRows('snapshots', 1))));
    await tx.execute(sql.raw(addSeats(`${seatPhotoRows('snapshots', 1)} union all ${seatJoinRows('queue_joins', 1)}`)));
  });
}
