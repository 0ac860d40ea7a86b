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
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { inArray, sql } from 'drizzle-orm';
import { snapshots } from '../src/db/schema/index.ts';
import { snapshotsRoutes, toQueryString } from '@stadiumcam/contract';
import { buildApp, type App } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { pageAnchors } from '../src/modules/snapshots/snapshots.service.ts';
import {
  albumCountsQuery,
  insertSnapshot,
  pageAnchorsQuery,
  pageIdsQuery,
  rowsOf,
  type AlbumFilter,
  type PageQuery,
} from '../src/modules/snapshots/snapshots.repository.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WHICH = process.env.BENCH_DB ?? 'both';
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENT = 'stadiumcam-2031-06-01';
const SMALL_EVENT = 'stadiumcam-2031-06-02';
const SMALL_ROWS = Math.max(1000, Math.round(ROWS / 100));
const PASSWORD = 'bench-admin-password';

/** 3 filters the album offers together: three sections, two cameras, one share platform. */
const FILTERS = { section: ['110', '125', '140'], camera: ['cam2', 'cam5'], sharedPlatform: ['Email'] };

async function seed(app: App, slugDate: string, rows: number, offset: number): Promise<void> {
  const db = app.deps.db;
  await db.execute(sql`insert into events (id, slug, slug_date, title, event_status, game_date, timezone)
    values (${slugDate}, 'stadiumcam', ${slugDate}, ${slugDate}, 'post', ${slugDate.slice(-10)}, 'America/Winnipeg')
    on conflict do nothing`);
  const start = Date.parse(`${slugDate.slice(-10)}T23:00:00Z`);
  const batch = 50_000;
  for (let from = 1; from <= rows; from += batch) {
    const to = Math.min(rows, from + batch - 1);
    // Deterministic spread: h is a cheap hash of g so neighbours differ in seat, camera, ...
    await db.execute(
      sql.raw(`
      insert into snapshots (id, slug, slug_date, user_id, camera, seat_type, section, "row", seat, date,
        thumb_uri, small_uri, raw_cropped_uri, shared_uri, media_type, favorite, hidden, magicshot, overlay,
        post_obj, shared_count, share_sources, faces, group_size, age_min, age_max, genders, emotions)
      select id, 'stadiumcam', '${slugDate}', 'u' || ((h * 31) % ${Math.max(1, Math.round(rows / 4))}),
        'cam' || (1 + (h / 11) % 8),
        case when h % 50 = 0 then 'box' when h % 97 = 0 then 'suite' else 'section' end,
        case when h % 50 = 0 then 'B' || (h % 24) when h % 97 = 0 then 'S' || (h % 12) else (100 + (h / 3) % 60)::text end,
        chr((65 + (h / 7) % 26)::int), (1 + (h / 5) % 30)::text,
        to_timestamp(${start / 1000} + (g::float8 / ${rows}) * 5 * 3600 + (h % 1000) / 1000.0),
        '/media/b/' || id || '-thumb.jpg', '/media/b/' || id || '-small.jpg', '/media/b/' || id || '-raw.jpg',
        case when h % 10 < 3 then '/media/b/' || id || '-shared.jpg' else '' end,
        case when h % 40 = 0 then 'video/mp4' else 'image' end,
        h % 100 = 0, h % 500 = 0, h % 200 = 7,
        case when h % 3 = 0 then null else 'overlay' || (h % 5) end,
        case when h % 10 < 3 then jsonb_build_array(jsonb_build_object('socialSource',
          (array['Download','Email','print','Share'])[1 + (h / 17) % 4], 'imgURL', 'x', 'date', '2031-06-01T23:00:00Z'))
          else '[]'::jsonb end,
        case when h % 10 < 3 then 1 else 0 end,
        case when h % 10 < 3 then array[(array['Download','Email','print','Share'])[1 + (h / 17) % 4]] else '{}'::text[] end,
        case when h % 100 = 1 then '[{"AgeRange":{"Low":20,"High":28}}]'::jsonb end,
        case when h % 5 < 3 then 1 + h % 6 end,
        case when h % 5 < 3 then 10 + h % 50 end,
        case when h % 5 < 3 then 18 + h % 50 end,
        case when h % 5 < 3 then (array['Female','Male','Both'])[1 + h % 3] end,
        case when h % 5 < 3 then array[(array['angry','surprised','fear','confused','sad','happy','calm'])[1 + h % 7]]
          else '{}'::text[] end
      from (select g, '${slugDate.slice(-5)}-' || lpad((g + ${offset})::text, 9, '0') as id,
                   (g * 2654435761::bigint) % 1000003 as h
            from generate_series(${from}, ${to}) as g) as s`),
    );
    process.stdout.write(`\r  seeded ${to.toLocaleString()} / ${rows.toLocaleString()} photos of ${slugDate}`);
  }
  process.stdout.write('\n');
}

async function count(app: App, slugDate: string): Promise<number> {
  const res = await app.deps.db.execute(sql`select count(*)::int as n from snapshots where slug_date = ${slugDate}`);
  return rowsOf<{ n: number }>(res)[0].n;
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

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
  await pageAnchors(app.deps).settled();
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
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-album-'));
  let databaseUrl: string | undefined;
  const dbName = `bench_album_${ROWS}`;
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const config: AppConfig = {
    dataDir,
    databaseUrl,
    pgliteDir: path.join(dataDir, 'pglite'),
    mediaDir: path.join(dataDir, 'media'),
    outboxDir: path.join(dataDir, 'outbox'),
    adminPassword: PASSWORD,
    deviceToken: 'bench',
    publicUrl: 'http://127.0.0.1:8080',
    webDist: path.join(dataDir, 'no-web'),
    logLevel: 'silent',
    trustProxy: false,
  };
  const app = await buildApp(config, { logger: false });
  await app.ready();
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

    const login = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: 'localhost', origin: 'http://localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const sid = login.cookies.find((c) => c.name === 'sid');
    if (!sid) throw new Error(`login failed: ${login.body}`);
    const cookie = `sid=${sid.value}`;

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
    await pageAnchors(app.deps).settled();
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
    const anchors = (await pageAnchors(app.deps).current(EVENT, 'all'))!.anchors;
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
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
    if (kind === 'postgres' && process.env.BENCH_KEEP !== '1') {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
  return out.join('\n');
}

const reports: string[] = [];
if (WHICH === 'both' || WHICH === 'postgres') reports.push(await runOn('postgres'));
if (WHICH === 'both' || WHICH === 'pglite') reports.push(await runOn('pglite'));
console.log(`\n${reports.join('\n\n')}`);
