/**
 * Event users and analytics at scale (issue 14): seeds BENCH_ROWS photos (default 1,000,000)
 * into one event and 1% into the next day's event, then times the event users table's calls
 * and every analytics call through the HTTP layer (Fastify inject). Results go to
 * docs/analytics.md and docs/event-users.md by hand.
 *
 *   npm run bench:analytics
 *   BENCH_ROWS=100000 BENCH_DB=pglite npm run bench:analytics
 *
 * BENCH_CASES=heat times only the calls whose name contains it (the seeding is the same).
 * BENCH_DB: postgres (default) | pglite | both. PostgreSQL: BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; the database bench_analytics_<rows> is kept when BENCH_KEEP=1.
 */
import { performance } from 'node:perf_hooks';
import { inArray, sql } from 'drizzle-orm';
import { analyticsRoutes, buildPath, snapshotsRoutes, toQueryString } from '@stadiumcam/contract';
import { snapshots } from '../src/db/schema/index.ts';
import { insertSnapshot, rowsOf } from '../src/modules/snapshots/snapshots.repository.ts';
import type { App } from '../src/app.ts';
import { benchApp, pct, seed } from './seed.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WHICH = process.env.BENCH_DB ?? 'postgres';
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENT = 'stadiumcam-2031-06-01';
const NEXT_EVENT = 'stadiumcam-2031-06-02';
const SMALL_ROWS = Math.max(1000, Math.round(ROWS / 100));
const ONLY = process.env.BENCH_CASES;

type Case = { name: string; url: string; before?: (i: number) => Promise<unknown>; after?: () => Promise<unknown> };

async function time(app: App, cookie: string, c: Case) {
  let answer = '';
  let calls = 0;
  const once = async () => {
    await c.before?.(calls++);
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: c.url, headers: { cookie } });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${c.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    answer = res.body.startsWith('{"items"')
      ? `${(JSON.parse(res.body) as { items: unknown[]; total?: number }).items.length} items, total ${(JSON.parse(res.body) as { total?: number }).total}`
      : res.body.slice(0, 90);
    return ms;
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once());
  await c.after?.();
  return { p50: pct(times, 50), p95: pct(times, 95), answer };
}

async function runOn(kind: 'postgres' | 'pglite'): Promise<string> {
  const { app, cookie, close } = await benchApp(kind, `bench_analytics_${ROWS}`, PG_URL);
  const out: string[] = [];
  try {
    console.log(`\n== ${kind}: ${ROWS.toLocaleString()} photos`);
    const n = rowsOf<{ n: number }>(
      await app.deps.db.execute(sql`select count(*)::int as n from snapshots where slug_date = ${EVENT}`),
    )[0].n;
    if (n !== ROWS) {
      const t0 = performance.now();
      await app.deps.db.execute(sql`delete from snapshots where slug_date in (${EVENT}, ${NEXT_EVENT})`);
      await seed(app, EVENT, ROWS, 0);
      await seed(app, NEXT_EVENT, SMALL_ROWS, ROWS);
      // A queue join for every attendee photo (the seat heat map's joins), through its trigger.
      await app.deps.db.execute(sql`insert into queue_joins (slug_date, seat_type, section, "row", seat, date)
        select slug_date, seat_type, section, "row", seat, date from snapshots
        where slug_date in (${EVENT}, ${NEXT_EVENT}) and not magicshot`);
      await app.deps.db.execute(sql`vacuum analyze`);
      console.log(`  seeded and vacuumed in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    } else console.log('  reusing the seeded database');
    // A few days of page views of the event's attendee app (counts per day and value).
    await app.deps.db.execute(sql`insert into page_view_counts (slug_date, day, dimension, key, n)
      select ${EVENT}, date '2031-06-01' + d, dim, dim || '-' || v, 1 + (d * 37 + v * 11) % 500
      from generate_series(0, 2) d, unnest(array['device','language','country','screen','page']) dim,
        generate_series(1, 30) v
      on conflict do nothing`);

    const users = (q: Record<string, unknown>) =>
      `${snapshotsRoutes.list.path}${toQueryString({ slugDate: [EVENT], pageSize: 50, withTotal: true, ...q })}`;
    const an = (route: { path: string }, slugDate = EVENT) => buildPath(route.path, { slugDate });
    const cases: Case[] = [
      { name: 'event users page 1 (50, with total)', url: users({}) },
      { name: 'event users page 10,000', url: users({ page: 10_000 }) },
      { name: 'event users banned only', url: users({ hidden: true }) },
      { name: 'event users not banned, page 2', url: users({ hidden: false, page: 2 }) },
      {
        name: 'event users date range (1 hour)',
        url: users({ dateFrom: '2031-06-02T00:00:00Z', dateTo: '2031-06-02T01:00:00Z' }),
      },
      { name: 'event users share platform Email', url: users({ sharedPlatform: ['Email'] }) },
      { name: 'event users section + row', url: users({ section: ['120'], row: ['C'] }) },
      { name: 'event users sorted by section', url: users({ sortField: 'section', sortOrder: 'asc' }) },
      { name: 'share platforms', url: `${snapshotsRoutes.sharedPlatforms.path}?slugDate[]=${EVENT}` },
      { name: 'analytics basic', url: an(analyticsRoutes.basic) },
      { name: 'analytics awsVision', url: an(analyticsRoutes.vision) },
      { name: 'analytics google (first-party)', url: an(analyticsRoutes.google) },
      { name: 'analytics pastEventData (1% event vs the 1M one)', url: an(analyticsRoutes.pastEventData, NEXT_EVENT) },
      { name: 'analytics export (CSV)', url: an(analyticsRoutes.export) },
      { name: 'heat map photos, every section', url: `${an(analyticsRoutes.heatmap)}?metric=photos` },
      {
        name: 'heat map joins, one section with its seats',
        url: `${an(analyticsRoutes.heatmap)}?metric=joins&section=120`,
      },
      {
        name: 'heat map shares, the 1% event compared with the 1M one, a section with its seats',
        url: `${an(analyticsRoutes.heatmap, NEXT_EVENT)}?metric=shares&compare=${EVENT}&section=120`,
      },
    ];
    // Live: a photo arrives before every call (removed afterwards).
    const arrived: string[] = [];
    cases.push({
      name: 'analytics basic, a new photo arriving before each call',
      url: an(analyticsRoutes.basic),
      before: async (i) => {
        const id = `bench-live-${i}`;
        arrived.push(id);
        await insertSnapshot(app.deps.db, {
          id,
          slug: 'stadiumcam',
          slugDate: EVENT,
          userId: `u-live-${i}`,
          camera: 'cam1',
          section: '101',
          row: 'A',
          seat: '1',
          date: new Date(Date.parse('2031-06-02T04:00:00Z') + i * 1000),
          faces: [],
        });
      },
      after: () => app.deps.db.delete(snapshots).where(inArray(snapshots.id, arrived)),
    });
    out.push(
      `### ${kind} (${ROWS.toLocaleString()} photos in one event, ${SMALL_ROWS.toLocaleString()} in the next; ${RUNS} runs each)\n`,
    );
    out.push('| call | p50 ms | p95 ms | answer |', '|---|---:|---:|---|');
    for (const c of cases.filter((x) => !ONLY || x.name.includes(ONLY))) {
      const r = await time(app, cookie, c);
      const line = `| ${c.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.answer.replace(/\|/g, '/')} |`;
      console.log(line);
      out.push(line);
    }
    const sizes = rowsOf<{ counts: number; users: number; seats: number }>(
      await app.deps.db
        .execute(sql`select (select count(*)::int from analytics_counts where slug_date = ${EVENT}) as counts,
        (select count(*)::int from event_users where slug_date = ${EVENT}) as users,
        (select count(*)::int from seat_counts where slug_date = ${EVENT}) as seats`),
    )[0];
    const note = `Roll-up rows of the 1M event: ${sizes.counts} in analytics_counts, ${sizes.users} in event_users, ${sizes.seats} in seat_counts.`;
    console.log(note);
    out.push('', note);
  } finally {
    await close();
  }
  return out.join('\n');
}

const reports: string[] = [];
if (WHICH === 'both' || WHICH === 'postgres') reports.push(await runOn('postgres'));
if (WHICH === 'both' || WHICH === 'pglite') reports.push(await runOn('pglite'));
console.log(`\n${reports.join('\n\n')}`);
