import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../src/app.ts';
import { configFromEnv, type AppConfig } from '../src/config.ts';

const PASSWORD = 'bench-admin-password';

/**
 * A server on PGlite or on a PostgreSQL database `dbName` (created when missing, dropped on
 * close unless BENCH_KEEP=1), with an admin session cookie.
 */
export async function benchApp(kind: 'postgres' | 'pglite', dbName: string, pgUrl: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-'));
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const config: AppConfig = {
    ...configFromEnv({}),
    dataDir,
    databaseUrl,
    pgliteDir: path.join(dataDir, 'pglite'),
    mediaDir: path.join(dataDir, 'media'),
    outboxDir: path.join(dataDir, 'outbox'),
    adminPassword: PASSWORD,
    deviceToken: 'bench',
    publicUrl: 'http://127.0.0.1:8080',
    webDist: path.join(dataDir, 'no-web'),
    attendeeDist: path.join(dataDir, 'no-attendee'),
    logLevel: 'silent',
    trustProxy: false,
  };
  const app = await buildApp(config, { logger: false });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: 'localhost', origin: 'http://localhost', 'content-type': 'application/json' },
    payload: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const sid = login.cookies.find((c) => c.name === 'sid');
  if (!sid) throw new Error(`login failed: ${login.body}`);
  const close = async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
    if (kind === 'postgres' && process.env.BENCH_KEEP !== '1') {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  };
  return { app, cookie: `sid=${sid.value}`, close };
}

/**
 * The benchmarks' data (album, event users, analytics): `rows` photos of one event, spread
 * deterministically by a cheap hash h of the row number (seats, cameras, shares, overlays,
 * faces). 60% carry face data in Rekognition's format (1-6 faces, every trait, one emotion),
 * with the summary columns the album filters on. One `insert ... select` per 50,000 rows,
 * through every trigger (album counters, analytics roll-ups).
 */
export async function seed(app: App, slugDate: string, rows: number, offset: number): Promise<void> {
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
        case when h % 5 < 3 then (select jsonb_agg(jsonb_build_object(
          'AgeRange', jsonb_build_object('Low', 10 + (h + k * 7) % 50, 'High', 18 + (h + k * 7) % 50),
          'Gender', jsonb_build_object('Value', (array['Female','Male'])[1 + (h + k) % 2], 'Confidence', 50 + (h + k) % 50),
          'Emotions', jsonb_build_array(jsonb_build_object('Type',
            (array['ANGRY','CALM','CONFUSED','DISGUSTED','FEAR','HAPPY','SAD','SURPRISED'])[1 + (h + k) % 8],
            'Confidence', 40 + (h * k) % 60)),
          'Smile', jsonb_build_object('Value', (h + k) % 3 = 0, 'Confidence', 55 + (h + k) % 45),
          'Beard', jsonb_build_object('Value', (h + k) % 7 = 0, 'Confidence', 70),
          'Mustache', jsonb_build_object('Value', (h + k) % 9 = 0, 'Confidence', 65),
          'Eyeglasses', jsonb_build_object('Value', (h + k) % 4 = 0, 'Confidence', 90),
          'Sunglasses', jsonb_build_object('Value', (h + k) % 11 = 0, 'Confidence', 80),
          'EyesOpen', jsonb_build_object('Value', (h + k) % 5 > 0, 'Confidence', 95),
          'MouthOpen', jsonb_build_object('Value', (h + k) % 2 = 0, 'Confidence', 61)))
          from generate_series(1, 1 + h % 6) as k) end,
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

/** The p-th percentile of a list of timings. */
export const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
