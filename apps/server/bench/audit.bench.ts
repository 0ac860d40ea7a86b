/**
 * The audit log at scale (issue 32 §1): fills BENCH_ROWS entries (default 1,000,000) over the
 * last 390 days on PostgreSQL, then times pages of GET /api/audit through the HTTP layer
 * (Fastify inject): the first page, a deep page (keyset cursor 90% down), and pages filtered
 * by action, user, event and a one-day range. Target: p95 < 100 ms. Figures go to docs/audit.md.
 *
 *   npm run bench:audit
 *   BENCH_ROWS=100000 npm run bench:audit
 *
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL; the database bench_audit_<rows> is kept
 * (the fill is skipped when it already holds the rows).
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { auditRoutes, toQueryString, AUDIT_ACTIONS } from '@stadiumcam/contract';
import { rowsOf } from '../src/modules/snapshots/snapshots.repository.ts';
import { insertEvent } from '../src/modules/events/events.repository.ts';
import { eventRow } from '../src/test/factories.ts';
import { benchApp, pct } from './seed.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = 200;
const USERS = 50;
const DAY_MS = 24 * 60 * 60_000;
/** A number written into the SQL (typed by PostgreSQL as a literal, not an untyped parameter). */
const n = (x: number) => sql.raw(String(x));
const slugOf = (i: number) => `bench-${String(i).padStart(3, '0')}-2026-01-01`;

async function main() {
  const { app, cookie, close } = await benchApp('postgres', `bench_audit_${ROWS}`, PG_URL);
  try {
    const db = app.deps.db;
    const count = async () =>
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_log`))[0].n;
    if ((await count()) < ROWS) {
      const t0 = performance.now();
      for (let i = 0; i < EVENTS; i++) await insertEvent(db, eventRow(slugOf(i)));
      const actions = sql.raw(`array[${AUDIT_ACTIONS.map((a) => `'${a}'`).join(',')}]`);
      // Newest `g` = 1; one entry every (390 days / ROWS), a slug on two entries in three.
      await db.execute(sql`
        insert into audit_log (at, actor_id, username, action, slug_date, targets, detail, address, result, reason)
        select now() - (interval '1 millisecond' * ${n((390 * DAY_MS) / ROWS)}) * g,
               'user-id-' || (g % ${n(USERS)}), 'user-' || (g % ${n(USERS)}),
               (${actions})[1 + g % ${n(AUDIT_ACTIONS.length)}],
               case when g % 3 = 0 then null else 'bench-' || lpad((g % ${n(EVENTS)})::text, 3, '0') || '-2026-01-01' end,
               jsonb_build_object('ids', jsonb_build_array('photo-' || g)),
               jsonb_build_object('before', jsonb_build_object('favorite', false), 'after', jsonb_build_object('favorite', true)),
               '10.0.0.' || (g % 250), case when g % 20 = 0 then 'refused' else 'done' end,
               case when g % 20 = 0 then 'Insufficient permissions' else null end
        from generate_series(1, ${n(ROWS)}) g`);
      await db.execute(sql`analyze audit_log`);
      console.log(`filled ${ROWS.toLocaleString()} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    console.log(`== postgres: ${(await count()).toLocaleString()} audit entries`);

    // The cursor 90% down, as the service encodes it (ISO instant | id).
    const deep = rowsOf<{ at: string; id: number }>(
      await db.execute(
        sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, id from audit_log order by at desc, id desc offset ${Math.floor(ROWS * 0.9)} limit 1`,
      ),
    )[0];
    const cursor = Buffer.from(`${deep.at}|${deep.id}`).toString('base64url');
    const mid = Date.now() - 200 * DAY_MS;
    const cases: [string, Record<string, unknown>][] = [
      ['first page', {}],
      ['deep page (90% down)', { cursor }],
      ['action filter', { action: 'camera.power' }],
      ['action filter, deep', { action: 'camera.power', cursor }],
      ['user filter', { user: 'user-7' }],
      ['event filter', { slugDate: slugOf(17) }],
      ['one-day range', { from: new Date(mid).toISOString(), to: new Date(mid + DAY_MS).toISOString() }],
      ['refused only', { result: 'refused' }],
    ];
    const lines: string[] = [];
    for (const [name, query] of cases) {
      const url = auditRoutes.list.path + toQueryString(query);
      const once = async () => {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: { cookie } });
        const ms = performance.now() - t0;
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        return { ms, n: (JSON.parse(res.body) as { entries: unknown[] }).entries.length };
      };
      for (let i = 0; i < 3; i++) await once();
      const times: number[] = [];
      let n = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await once();
        times.push(r.ms);
        n = r.n;
      }
      const line = `| ${name} | ${n} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} |`;
      console.log(line);
      lines.push(line);
    }
    console.log(['', '| Page | Entries | p50 ms | p95 ms |', '|---|---|---|---|', ...lines].join('\n'));
  } finally {
    await close();
  }
}

await main();
