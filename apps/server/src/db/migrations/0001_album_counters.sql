-- Custom migration (drizzle-kit generate --custom): the album's exact per-event tab counts
-- (snapshot_counts) and its change log (snapshot_changes, the last 20000 versions per event), kept
-- by statement-level triggers with transition tables: one aggregate per statement, so a bulk
-- insert of a million photos costs one counter update, and every writer (ingest, moderation,
-- event deletes and renames) is covered without knowing about it. drizzle-kit cannot express
-- triggers; `npm run db:generate` keeps this file (docs/architecture.md "Migrations").
-- A row's membership of each counted tab: a = all, f = favorites, m = magicshots, s = shared,
-- w = the all-with-magicshot list.
create or replace function snapshot_counts_ins() returns trigger language plpgsql as $fn$
  begin 
  with up as (
    insert into snapshot_counts as c (slug_date, all_count, favorite_count, magicshot_count, shared_count, version)
    select slug_date, sum(a), sum(f), sum(m), sum(s), 1 from (select slug_date, (not magicshot)::int as a,
  (favorite and not magicshot)::int as f, magicshot::int as m,
  (shared_count > 0 and not magicshot)::int as s from new_rows) as d group by slug_date
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
    from (select slug_date, date, (not magicshot)::int as a,
  (favorite and not magicshot)::int as f, magicshot::int as m,
  (shared_count > 0 and not magicshot)::int as s, 1 as w from new_rows) as x group by slug_date),
  pruned as (
    delete from snapshot_changes x using up
    where x.slug_date = up.slug_date and up.version % 1000 = 0 and x.version <= up.version - 20000)
  insert into snapshot_changes (slug_date, version, all_from, favorite_from, magicshot_from, shared_from, any_from)
  select up.slug_date, up.version, moved.a, moved.f, moved.m, moved.s, moved.w
  from up left join moved on moved.slug_date = up.slug_date; return null; end $fn$;
--> statement-breakpoint
create or replace function snapshot_counts_del() returns trigger language plpgsql as $fn$
  begin 
  with up as (
    insert into snapshot_counts as c (slug_date, all_count, favorite_count, magicshot_count, shared_count, version)
    select slug_date, sum(a), sum(f), sum(m), sum(s), 1 from (select slug_date, -(not magicshot)::int as a,
  -(favorite and not magicshot)::int as f, -magicshot::int as m,
  -(shared_count > 0 and not magicshot)::int as s from old_rows) as d group by slug_date
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
    from (select slug_date, date, (not magicshot)::int as a,
  (favorite and not magicshot)::int as f, magicshot::int as m,
  (shared_count > 0 and not magicshot)::int as s, 1 as w from old_rows) as x group by slug_date),
  pruned as (
    delete from snapshot_changes x using up
    where x.slug_date = up.slug_date and up.version % 1000 = 0 and x.version <= up.version - 20000)
  insert into snapshot_changes (slug_date, version, all_from, favorite_from, magicshot_from, shared_from, any_from)
  select up.slug_date, up.version, moved.a, moved.f, moved.m, moved.s, moved.w
  from up left join moved on moved.slug_date = up.slug_date; return null; end $fn$;
--> statement-breakpoint
create or replace function snapshot_counts_upd() returns trigger language plpgsql as $fn$
  begin 
  with up as (
    insert into snapshot_counts as c (slug_date, all_count, favorite_count, magicshot_count, shared_count, version)
    select slug_date, sum(a), sum(f), sum(m), sum(s), 1 from (select slug_date, (not magicshot)::int as a,
  (favorite and not magicshot)::int as f, magicshot::int as m,
  (shared_count > 0 and not magicshot)::int as s from new_rows union all select slug_date, -(not magicshot)::int as a,
  -(favorite and not magicshot)::int as f, -magicshot::int as m,
  -(shared_count > 0 and not magicshot)::int as s from old_rows) as d group by slug_date
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
    from (
  select x.* from old_rows o full join new_rows n on n.id = o.id
  cross join lateral (select o.id is null or n.id is null
    or (o.slug_date, o.date) is distinct from (n.slug_date, n.date) as moved) as k
  cross join lateral (
    select o.slug_date, o.date, (not o.magicshot)::int as a,
  (o.favorite and not o.magicshot)::int as f, o.magicshot::int as m,
  (o.shared_count > 0 and not o.magicshot)::int as s, 1 as w where o.id is not null and k.moved
    union all select n.slug_date, n.date, (not n.magicshot)::int as a,
  (n.favorite and not n.magicshot)::int as f, n.magicshot::int as m,
  (n.shared_count > 0 and not n.magicshot)::int as s, 1 as w where n.id is not null and k.moved
    union all select n.slug_date, n.date, (ot.a <> nt.a)::int, (ot.f <> nt.f)::int, (ot.m <> nt.m)::int,
      (ot.s <> nt.s)::int, 0 from (select (not o.magicshot)::int as a,
  (o.favorite and not o.magicshot)::int as f, o.magicshot::int as m,
  (o.shared_count > 0 and not o.magicshot)::int as s) ot, (select (not n.magicshot)::int as a,
  (n.favorite and not n.magicshot)::int as f, n.magicshot::int as m,
  (n.shared_count > 0 and not n.magicshot)::int as s) nt where not k.moved
  ) as x) as x group by slug_date),
  pruned as (
    delete from snapshot_changes x using up
    where x.slug_date = up.slug_date and up.version % 1000 = 0 and x.version <= up.version - 20000)
  insert into snapshot_changes (slug_date, version, all_from, favorite_from, magicshot_from, shared_from, any_from)
  select up.slug_date, up.version, moved.a, moved.f, moved.m, moved.s, moved.w
  from up left join moved on moved.slug_date = up.slug_date; return null; end $fn$;
--> statement-breakpoint
lock table snapshots in share row exclusive mode;
--> statement-breakpoint
drop trigger if exists snapshot_counts_ins on snapshots;
--> statement-breakpoint
create trigger snapshot_counts_ins after insert on snapshots referencing new table as new_rows
  for each statement execute function snapshot_counts_ins();
--> statement-breakpoint
drop trigger if exists snapshot_counts_del on snapshots;
--> statement-breakpoint
create trigger snapshot_counts_del after delete on snapshots referencing old table as old_rows
  for each statement execute function snapshot_counts_del();
--> statement-breakpoint
drop trigger if exists snapshot_counts_upd on snapshots;
--> statement-breakpoint
create trigger snapshot_counts_upd after update on snapshots referencing old table as old_rows new table as new_rows
  for each statement execute function snapshot_counts_upd();
--> statement-breakpoint
delete from snapshot_counts;
--> statement-breakpoint
delete from snapshot_changes;
--> statement-breakpoint
with up as (
    insert into snapshot_counts as c (slug_date, all_count, favorite_count, magicshot_count, shared_count, version)
    select slug_date, sum(a), sum(f), sum(m), sum(s), 1 from (select slug_date, (not magicshot)::int as a,
  (favorite and not magicshot)::int as f, magicshot::int as m,
  (shared_count > 0 and not magicshot)::int as s from snapshots) as d group by slug_date
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
    from (select slug_date, date, (not magicshot)::int as a,
  (favorite and not magicshot)::int as f, magicshot::int as m,
  (shared_count > 0 and not magicshot)::int as s, 1 as w from snapshots) as x group by slug_date),
  pruned as (
    delete from snapshot_changes x using up
    where x.slug_date = up.slug_date and up.version % 1000 = 0 and x.version <= up.version - 20000)
  insert into snapshot_changes (slug_date, version, all_from, favorite_from, magicshot_from, shared_from, any_from)
  select up.slug_date, up.version, moved.a, moved.f, moved.m, moved.s, moved.w
  from up left join moved on moved.slug_date = up.slug_date;
