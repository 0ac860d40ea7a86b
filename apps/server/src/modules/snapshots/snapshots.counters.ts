import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from './snapshots.repository.ts';

/*
 * Exact per-event tab counts (snapshot_counts) maintained by statement-level triggers with
 * transition tables: one aggregate per statement, so a bulk insert of a million photos costs
 * one counter update, and every writer (ingest, moderation, event deletes and renames) is
 * covered without knowing about it. drizzle-kit cannot express triggers, so they are created
 * here at boot, idempotently, under an advisory lock (several instances may boot at once).
 */

/** A row's membership of each counted tab (all, favorites, magicshots, shared) as 0/1, or -1/0. */
const tabs = (row = '', sign = '') => `${sign}(not ${row}magicshot)::int as a,
  ${sign}(${row}favorite and not ${row}magicshot)::int as f, ${sign}${row}magicshot::int as m,
  ${sign}(${row}shared_count > 0 and not ${row}magicshot)::int as s`;
const CONTRIBUTION = tabs();
const NEGATED = tabs('', '-');

/** Change-log rows kept per event (older anchors than that are rebuilt from scratch). */
export const CHANGE_LOG_KEEP = 20_000;

/**
 * One statement's effect: `parts` gives each touched row's contribution to the counters,
 * `moved` the (slug_date, date) and tabs (a, f, m, s, w) of rows whose place in a tab's date
 * order changed. The counters are bumped and the change log gets the event's new version with
 * the oldest moved date of each tab.
 */
const apply = (parts: string, moved: string) => `
  with up as (
    insert into snapshot_counts as c (slug_date, all_count, favorite_count, magicshot_count, shared_count, version)
    select slug_date, sum(a), sum(f), sum(m), sum(s), 1 from (${parts}) as d group by slug_date
    on conflict (slug_date) do update set
      version = c.version + 1,
      all_count = c.all_count + excluded.all_count,
      favorite_count = c.favorite_count + excluded.favorite_count,
      magicshot_count = c.magicshot_count + excluded.magicshot_count,
      shared_count = c.shared_count + excluded.shared_count
    returning slug_date, version),
  moved as (
    select slug_date, min(date) filter (where a = 1) as a, min(date) filter (where f = 1) as f,
      min(date) filter (where m = 1) as m, min(date) filter (where s = 1) as s, min(date) filter (where w = 1) as w
    from (${moved}) as x group by slug_date),
  pruned as (
    delete from snapshot_changes x using up
    where x.slug_date = up.slug_date and up.version % 1000 = 0 and x.version <= up.version - ${CHANGE_LOG_KEEP})
  insert into snapshot_changes (slug_date, version, all_from, favorite_from, magicshot_from, shared_from, any_from)
  select up.slug_date, up.version, moved.a, moved.f, moved.m, moved.s, moved.w
  from up left join moved on moved.slug_date = up.slug_date`;

/**
 * An update moves a row out of its place in every tab it was and is in when its event, date
 * or id changed; otherwise only in the tabs it joined or left.
 */
const MOVED_BY_UPDATE = `
  select x.* from old_rows o full join new_rows n on n.id = o.id
  cross join lateral (select o.id is null or n.id is null
    or (o.slug_date, o.date) is distinct from (n.slug_date, n.date) as moved) as k
  cross join lateral (
    select o.slug_date, o.date, ${tabs('o.')}, 1 as w where o.id is not null and k.moved
    union all select n.slug_date, n.date, ${tabs('n.')}, 1 as w where n.id is not null and k.moved
    union all select n.slug_date, n.date, (ot.a <> nt.a)::int, (ot.f <> nt.f)::int, (ot.m <> nt.m)::int,
      (ot.s <> nt.s)::int, 0 from (select ${tabs('o.')}) ot, (select ${tabs('n.')}) nt where not k.moved
  ) as x`;

/** Every row of an insert or delete moves in each tab it is in (w: the all-with-magicshot list). */
const MOVED_ROWS = (table: string) => `select slug_date, date, ${CONTRIBUTION}, 1 as w from ${table}`;

const fn = (name: string, body: string) => `
  create or replace function ${name}() returns trigger language plpgsql as $fn$
  begin ${body}; return null; end $fn$`;

const FUNCTIONS = [
  fn('snapshot_counts_ins', apply(`select slug_date, ${CONTRIBUTION} from new_rows`, MOVED_ROWS('new_rows'))),
  fn('snapshot_counts_del', apply(`select slug_date, ${NEGATED} from old_rows`, MOVED_ROWS('old_rows'))),
  fn(
    'snapshot_counts_upd',
    apply(
      `select slug_date, ${CONTRIBUTION} from new_rows union all select slug_date, ${NEGATED} from old_rows`,
      MOVED_BY_UPDATE,
    ),
  ),
];

const TRIGGERS = [
  ['snapshot_counts_ins', 'insert', 'new table as new_rows'],
  ['snapshot_counts_del', 'delete', 'old table as old_rows'],
  ['snapshot_counts_upd', 'update', 'old table as old_rows new table as new_rows'],
] as const;

const LOCK_KEY = 5_081_977;

export async function ensureAlbumCounters(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    for (const f of FUNCTIONS) await tx.execute(sql.raw(f));
    const present = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from pg_trigger
        where tgrelid = 'snapshots'::regclass and tgname like 'snapshot_counts_%' and not tgisinternal`),
    )[0].n;
    if (present === TRIGGERS.length) return;
    // First boot on this database: no photo may slip in between the recount and the triggers.
    await tx.execute(sql`lock table snapshots in share row exclusive mode`);
    for (const [name, event, refs] of TRIGGERS) {
      await tx.execute(sql.raw(`drop trigger if exists ${name} on snapshots`));
      await tx.execute(
        sql.raw(`create trigger ${name} after ${event} on snapshots referencing ${refs}
          for each statement execute function ${name}()`),
      );
    }
    await tx.execute(sql`delete from snapshot_counts`);
    await tx.execute(sql`delete from snapshot_changes`);
    await tx.execute(sql.raw(apply(`select slug_date, ${CONTRIBUTION} from snapshots`, MOVED_ROWS('snapshots'))));
  });
}
