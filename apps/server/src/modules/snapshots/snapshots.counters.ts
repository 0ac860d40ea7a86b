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

const CONTRIBUTION = `(not magicshot)::int as a, (favorite and not magicshot)::int as f,
  magicshot::int as m, (shared_count > 0 and not magicshot)::int as s`;
const NEGATED = `-(not magicshot)::int as a, -(favorite and not magicshot)::int as f,
  -magicshot::int as m, -(shared_count > 0 and not magicshot)::int as s`;

const apply = (parts: string) => `
  insert into snapshot_counts as c (slug_date, all_count, favorite_count, magicshot_count, shared_count, version)
  select slug_date, sum(a), sum(f), sum(m), sum(s), 1 from (${parts}) as d group by slug_date
  on conflict (slug_date) do update set
    version = c.version + 1,
    all_count = c.all_count + excluded.all_count,
    favorite_count = c.favorite_count + excluded.favorite_count,
    magicshot_count = c.magicshot_count + excluded.magicshot_count,
    shared_count = c.shared_count + excluded.shared_count`;

const fn = (name: string, body: string) => `
  create or replace function ${name}() returns trigger language plpgsql as $fn$
  begin ${body}; return null; end $fn$`;

const FUNCTIONS = [
  fn('snapshot_counts_ins', apply(`select slug_date, ${CONTRIBUTION} from new_rows`)),
  fn('snapshot_counts_del', apply(`select slug_date, ${NEGATED} from old_rows`)),
  fn(
    'snapshot_counts_upd',
    apply(`select slug_date, ${CONTRIBUTION} from new_rows union all select slug_date, ${NEGATED} from old_rows`),
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
    await tx.execute(sql.raw(apply(`select slug_date, ${CONTRIBUTION} from snapshots`)));
  });
}
