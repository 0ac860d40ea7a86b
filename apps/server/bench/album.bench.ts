/**
 * Album at scale (issue 5, point 5): seeds BENCH_ROWS photos (default 1,000,000) into one
 * event and times the album's calls through the HTTP layer (Fastify inject: validation,
 * queries, serialisation), on PGlite and on PostgreSQL, and prints the plans of the main
 * queries. Results go to docs/bench-album.md by hand.
 *
 *   npm run bench:album
 *   BENCH_ROWS=100000 BENCH_DB=postgres npm run bench:album
 *
 * BENCH_DB: both (default) | postgres | pglite. PostgreSQL: BENCH_DATABASE_URL or
 * TEST_DATABASE_URL (a server; the bench creates the database bench_album_<rows> there and
 * keeps it for the next run when BENCH_KEEP=1). BENCH_RUNS: timed runs per case (30).
 */
import { performance } from 'node:perf_hooks';
import { inArray, sql } from 'drizzle-orm';
import { snapshots } from '../src/db/schema/index.ts';
import { snapshotsRoutes, toQueryString } from '@stadiumcam/contract';
import type { App } from '../src/app.ts';
import { benchApp, pct, seed } from './seed.ts';
import { insertSnapshot, rowsOf } from '../src/modules/snapshots/snapshots.repository.ts';
import {
  albumCountsQuery,
  pageAnchorsQuery,
  pageIdsQuery,
  type AlbumFilter,
  type PageQuery,
} from '../src/modules/snapshots/album-query.repository.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WHICH = process.env.BENCH_DB ?? 'both';
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENT = 'stadiumcam-2031-06-01';
const SMALL_EVENT = 'stadiumcam-2031-06-02';
const SMALL_ROWS = Math.max(1000, Math.round(ROWS / 100));

/** 3 filters the album offers together: three sections, two cameras, one share platform. */
const FILTERS = {
  section: ['110', '125', '140'],
  camera: ['cam2', 'cam5'],
  sharedPlatform: ['Email'],
} satisfies AlbumFilter;

async function count(app: App, slugDate: string): Promise<number> {
  const res = await app.deps.db.execute(sql`select count(*)::int as n from snapshots where slug_date = ${slugDate}`);
  return rowsOf<{ n: number }>(res)[0].n;
}

/** `before` runs ahead of every call, untimed (a write the call then has to cope with). */
type Case = { name: string; url: string; before?: (i: number) => Promise<unknown>; after?: () => Promise<unknown> };

async function time(app: App, cookie: string, c: Case): Promise<{ p50: number; p95: number; items: string }> {
  let items = '';
  let calls = 0;
  const once = async () => {
    await c.before?.(calls++);
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: c.url, headers: { cookie } });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${c.name}: ${res.statusCode} ${res.body}`);
    const body = JSON.parse(res.body) as { items?: unknown[] };
    items = Array.isArray(body.items) ? `${body.items.length} items` : res.body.slice(0, 70);
    return ms;
  };
  for (let i = 0; i < 3; i++) await once();
  // Steady state: the anchors a deep page asked for are built (the cold call is its own case).
  await app.deps.anchors.settled();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once());
  await c.after?.();
  return { p50: pct(times, 50), p95: pct(times, 95), items };
}

async function explain(app: App, title: string, query: ReturnType<typeof sql>): Promise<string> {
  const kind = app.deps.dbKind;
  const res = await app.deps.db.execute(
    sql`explain (analyze, costs off${sql.raw(kind === 'postgres' ? ', buffers' : '')}) ${query}`,
  );
  const lines = rowsOf<{ 'QUERY PLAN': string }>(res).map((r) => r['QUERY PLAN']);
  return `#### ${title}\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`;
}

async function runOn(kind: 'postgres' | 'pglite'): Promise<string> {
  const dbName = `bench_album_${ROWS}`;
  const { app, cookie, close } = await benchApp(kind, dbName, PG_URL);
  const out: string[] = [];
  try {
    console.log(`\n== ${kind}: ${ROWS.toLocaleString()} photos`);
    const t0 = performance.now();
    if ((await count(app, EVENT)) !== ROWS) {
      await app.deps.db.execute(sql`delete from snapshots where slug_date in (${EVENT}, ${SMALL_EVENT})`);
      await seed(app, EVENT, ROWS, 0);
      await seed(app, SMALL_EVENT, SMALL_ROWS, ROWS);
      await app.deps.db.execute(sql`vacuum analyze snapshots`);
      console.log(`  seeded and vacuumed in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    } else console.log('  reusing the seeded database');

    const all = rowsOf<{ n: number }>(
      await app.deps.db.execute(
        sql`select count(*)::int as n from snapshots where slug_date = ${EVENT} and not magicshot`,
      ),
    )[0].n;
    const lastPage = Math.ceil(all / 100);
    const filtered = rowsOf<{ n: number }>(
      await app.deps.db.execute(
        sql`select count(*)::int as n from snapshots where slug_date = ${EVENT} and magicshot = false
          and seat_type = 'section' and section in ('110','125','140') and camera in ('cam2','cam5')
          and share_sources && array['Email']`,
      ),
    )[0].n;
    const filteredLast = Math.max(1, Math.ceil(filtered / 100));
    const tabs = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `${snapshotsRoutes.stats.path}?slugDate[]=${EVENT}`,
          headers: { cookie },
        })
      ).body,
    ) as { favorite: number; shared: number };
    const favLast = Math.max(1, Math.ceil(tabs.favorite / 100));
    const sharedMiddle = Math.max(1, Math.ceil(tabs.shared / 200));
    const list = (q: Record<string, unknown>) =>
      `${snapshotsRoutes.list.path}${toQueryString({ slugDate: [EVENT], ...q })}`;
    const cases: Case[] = [
      { name: 'page 1, no filter', url: list({}) },
      { name: `middle page ${Math.ceil(lastPage / 2)}, no filter`, url: list({ page: Math.ceil(lastPage / 2) }) },
      { name: `last page ${lastPage}, no filter`, url: list({ page: lastPage }) },
      { name: 'page 1, 3 filters', url: list(FILTERS) },
      {
        name: `last page ${filteredLast}, 3 filters (${filtered} photos)`,
        url: list({ ...FILTERS, page: filteredLast }),
      },
      { name: 'favorites page 1', url: list({ type: 'favorites' }) },
      { name: `favorites last page ${favLast}`, url: list({ type: 'favorites', page: favLast }) },
      { name: `shared middle page ${sharedMiddle}`, url: list({ type: 'shared', page: sharedMiddle }) },
      { name: 'page 1, emotion + age 20-40', url: list({ emotion: ['happy'], ageMin: 20, ageMax: 40 }) },
      { name: 'page 1, sort by section', url: list({ sortField: 'section', sortOrder: 'asc' }) },
      {
        name: 'keyset page (dateVal + cursorId) in the middle',
        url: list({ dateVal: '2031-06-02T01:30:00.000Z', dateComparator: 'lt', cursorId: 'zzzz' }),
      },
      {
        name: 'two events, page 1',
        url: `${snapshotsRoutes.list.path}${toQueryString({ slugDate: [EVENT, SMALL_EVENT] })}`,
      },
      { name: 'user filter (all events)', url: `${snapshotsRoutes.list.path}${toQueryString({ userId: 'u42' })}` },
      { name: 'stats, no filter', url: `${snapshotsRoutes.stats.path}${toQueryString({ slugDate: [EVENT] })}` },
      {
        name: 'stats, 3 filters',
        url: `${snapshotsRoutes.stats.path}${toQueryString({ slugDate: [EVENT], ...FILTERS })}`,
      },
      { name: 'filter options', url: `${snapshotsRoutes.filterOptions.path}${toQueryString({ slugDate: [EVENT] })}` },
    ];
    // The first deep page after a start: no anchors yet, the page walks from the nearer end
    // while they are built in the background; then how long that build took.
    const middleUrl = list({ page: Math.ceil(lastPage / 2) });
    const c0 = performance.now();
    await app.inject({ method: 'GET', url: middleUrl, headers: { cookie } });
    const coldMs = performance.now() - c0;
    await app.deps.anchors.settled();
    const buildMs = performance.now() - c0;
    // Live: a photo arrives at the newest end before every call (removed afterwards).
    const arrived: string[] = [];
    const newest = Date.parse(`${EVENT.slice(-10)}T23:00:00Z`) + 6 * 3600_000;
    cases.push({
      name: `middle page, a new photo arriving before each call`,
      url: middleUrl,
      before: async (i) => {
        const id = `bench-live-${i}`;
        arrived.push(id);
        await insertSnapshot(app.deps.db, {
          id,
          slug: 'stadiumcam',
          slugDate: EVENT,
          userId: 'u-live',
          camera: 'cam1',
          section: '101',
          row: 'A',
          seat: '1',
          date: new Date(newest + i * 1000),
        });
      },
      after: () => app.deps.db.delete(snapshots).where(inArray(snapshots.id, arrived)),
    });
    // Moderation deep in the event (a quarter from the oldest) before each call: anchors after
    // that photo are stale again at every call, so the page walks from the last exact one.
    const oldId = `${EVENT.slice(-5)}-${String(Math.round(ROWS / 4)).padStart(9, '0')}`;
    let toggled = 0;
    const toggle = async () => {
      toggled++;
      await app.deps.db.execute(sql`update snapshots set favorite = not favorite where id = ${oldId}`);
    };
    cases.push({
      name: 'middle page, an old photo favourited or not before each call',
      url: middleUrl,
      before: toggle,
      after: async () => {
        if (toggled % 2 === 1) await toggle();
      },
    });
    // The worst case: an old photo changes its place in every tab (as a delete would), so the
    // All tab's anchors after it are stale at every call and the page walks from the last exact one.
    let nudged = 0;
    const nudge = async () => {
      const step = nudged++ % 2 === 0 ? '1 microsecond' : '-1 microsecond';
      await app.deps.db.execute(sql`update snapshots set date = date + ${step}::interval where id = ${oldId}`);
    };
    cases.push({
      name: "middle page, an old photo's place changed before each call",
      url: middleUrl,
      before: nudge,
      after: async () => {
        if (nudged % 2 === 1) await nudge();
      },
    });
    out.push(
      `### ${kind} (${ROWS.toLocaleString()} photos in one event, ${SMALL_ROWS.toLocaleString()} in a second; ${RUNS} runs each)\n`,
    );
    out.push('| call | p50 ms | p95 ms | answer |', '|---|---:|---:|---|');
    for (const c of cases) {
      const r = await time(app, cookie, c);
      const line = `| ${c.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.items.replace(/\|/g, '/')} |`;
      console.log(line);
      out.push(line);
    }
    const cold = `First deep page after a start: ${coldMs.toFixed(1)} ms (walked from the nearer end); its anchors were built in the background in ${buildMs.toFixed(0)} ms.`;
    console.log(cold);
    out.push('', cold, '');

    const page = (p: Partial<PageQuery> & { filter?: AlbumFilter }): PageQuery => ({
      type: 'all',
      sortField: 'date',
      sortOrder: 'desc',
      offset: 0,
      limit: 100,
      filter: { slugDate: [EVENT] },
      ...p,
    });
    out.push(await explain(app, 'page 1, no filter', pageIdsQuery(page({}))));
    const middle = Math.ceil(lastPage / 2);
    out.push(
      await explain(
        app,
        `middle page ${middle}, plain offset walk (what an unfiltered page would cost without anchors)`,
        pageIdsQuery(page({ offset: (middle - 1) * 100 })),
      ),
    );
    // What the service runs for a deep unfiltered page: a walk from the nearest cached anchor.
    const anchors = (await app.deps.anchors.current(EVENT, 'all'))!.anchors;
    const first = all - (middle - 1) * 100 - 100;
    const k = Math.floor(first / 1000);
    out.push(
      await explain(
        app,
        `middle page ${middle}, as run: from anchor ${k} of ${anchors.length}`,
        pageIdsQuery(page({ sortOrder: 'asc', from: anchors[k], offset: first - k * 1000 })),
      ),
    );
    out.push(
      await explain(
        app,
        'one stretch of an anchor build (50 anchors, 50,001 entries)',
        pageAnchorsQuery(EVENT, 'all', 1000, anchors[10], 50),
      ),
    );
    out.push(
      await explain(app, 'page 1, 3 filters', pageIdsQuery(page({ filter: { slugDate: [EVENT], ...FILTERS } }))),
    );
    out.push(
      await explain(
        app,
        'last page, 3 filters',
        pageIdsQuery(page({ filter: { slugDate: [EVENT], ...FILTERS }, offset: (filteredLast - 1) * 100 })),
      ),
    );
    out.push(
      await explain(app, 'two events, page 1', pageIdsQuery(page({ filter: { slugDate: [EVENT, SMALL_EVENT] } }))),
    );
    out.push(
      await explain(
        app,
        'stats, no filter (stored counters, what the service runs)',
        sql`select coalesce(sum(all_count), 0)::int, coalesce(sum(favorite_count), 0)::int,
          coalesce(sum(magicshot_count), 0)::int, coalesce(sum(shared_count), 0)::int
          from snapshot_counts where slug_date in (${EVENT})`,
      ),
    );
    out.push(await explain(app, 'stats, no filter, if counted instead', albumCountsQuery({ slugDate: [EVENT] }, true)));
    out.push(await explain(app, 'stats, 3 filters', albumCountsQuery({ slugDate: [EVENT], ...FILTERS }, true)));
  } finally {
    await close();
  }
  return out.join('\n');
}

const reports: string[] = [];
if (WHICH === 'both' || WHICH === 'postgres') reports.push(await runOn('postgres'));
if (WHICH === 'both' || WHICH === 'pglite') reports.push(await runOn('pglite'));
console.log(`\n${reports.join('\n\n')}`);
