/**
 * Realtime at venue scale (issue 4 point 7, issue 15 point 4). Server processes (one, or
 * BENCH_INSTANCES sharing PostgreSQL and Redis) measure their own event-loop lag and memory; a
 * load process plays the venue simulator with 8 cameras at 5 fps (frames replayed from JPEGs
 * rendered at start, so the load is not the bottleneck; BENCH_FRAMES=render renders each one)
 * and about 10 photos/s, and 50 console sockets spread over the instances, each joined to every
 * camera's stream and the event. The load counts frames delivered and the upload-to-console
 * latency of new snapshots (capture time on the host to arrival at a console; one clock).
 * The camera hosts and uploads go to the first instance (BENCH_SPREAD_HOSTS=1: host i to instance
 * i, round the instances). Figures go to docs/bench-realtime.md.
 *
 *   npm run bench:realtime                                   (5 minutes, PGlite, one instance)
 *   BENCH_DB=postgres npm run bench:realtime                 (a fresh database on TEST_DATABASE_URL's server)
 *   BENCH_DB=postgres BENCH_INSTANCES=2 npm run bench:realtime   (+ Redis at 127.0.0.1:6379 or BENCH_REDIS_URL)
 *   BENCH_SECONDS=90 npm run bench:realtime
 *   BENCH_PGLITE=disk npm run bench:realtime                 (PGlite in the data folder, as the product runs it)
 *
 * BENCH_CONSOLES (50), BENCH_CAMERAS (8), BENCH_FPS (5), BENCH_PHOTO_RATE (10 per second),
 * BENCH_ATTENDEE_RATE (fans joining a queue per second; the photo rate unless set); the server
 * takes IMAGE_WORKERS and INGEST_MAX_WAIT_MS as the product does.
 *
 * The soak (issue 30 point 6, docs/bench-realtime.md "Soak"):
 *
 *   BENCH_SECONDS=3600 BENCH_FANS=2000 BENCH_PGLITE=disk npm run bench:realtime
 *
 * BENCH_FANS adds a crowd of fans on the same server(s) (bench/fan-crowd.ts: fan id, event, live
 * stream held and reopened, BENCH_FAN_JOIN_SHARE (0.1) of them joining a queue every 5 minutes),
 * arriving at BENCH_FAN_ARRIVAL_RATE (50/s). Every BENCH_REPORT_SECONDS (300) one line per server
 * and one for the load; at the end a least-squares trend of RSS and heap over the periods after
 * BENCH_TREND_WARMUP_SECONDS (600).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loopLag, loopMonitor } from '../src/modules/ops/ops.metrics.ts';
import { BENCH_TOKEN, startBenchServer, type BenchSetup } from './bench-server.ts';
import { cpuProf } from './cpu-prof.ts';
import { createPgDatabase } from '../src/test/pg-database.ts';
import { startFanCrowd, type CrowdCounters } from './fan-crowd.ts';
import { WireConsole } from './wire-console.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const CONSOLES = Number(process.env.BENCH_CONSOLES ?? 50);
const CAMERAS = Number(process.env.BENCH_CAMERAS ?? 8);
const FPS = Number(process.env.BENCH_FPS ?? 5);
const PHOTO_RATE = Number(process.env.BENCH_PHOTO_RATE ?? 10);
/** Fans arriving per second (default: the photo rate); held apart, it separates the photo path from the crowd. */
const ATTENDEE_RATE = Number(process.env.BENCH_ATTENDEE_RATE ?? PHOTO_RATE);
const INSTANCES = Math.max(1, Number(process.env.BENCH_INSTANCES ?? 1));
const SPREAD_HOSTS = process.env.BENCH_SPREAD_HOSTS === '1';
const DB = process.env.BENCH_DB === 'postgres' || INSTANCES > 1 ? 'postgres' : 'pglite';
/** PGlite in the data folder, as the product runs it (in memory, its files count in the RSS). */
const PGLITE_ON_DISK = DB === 'pglite' && process.env.BENCH_PGLITE === 'disk';
const FRAMES = process.env.BENCH_FRAMES === 'render' ? 'render' : 'replay';
const WARMUP_S = SECONDS >= 30 ? 10 : 3;
const FANS = Number(process.env.BENCH_FANS ?? 0);
const FAN_ARRIVAL_RATE = Number(process.env.BENCH_FAN_ARRIVAL_RATE ?? 50);
const FAN_JOIN_SHARE = Number(process.env.BENCH_FAN_JOIN_SHARE ?? 0.1);
const REPORT_S = Number(process.env.BENCH_REPORT_SECONDS ?? 300);
const TREND_WARMUP_S = Number(process.env.BENCH_TREND_WARMUP_SECONDS ?? 600);
/** "No upward trend": RSS and heap grow by less than this share of their post-warm-up mean per hour. */
const TREND_LIMIT = 0.05;

type LoadReport = {
  seconds: number;
  framesDelivered: number;
  framesPerConsole: number;
  snapshotsSeen: number;
  latencies: number[];
  /** Upload-to-console latency p50 / p99 per minute of the run: growth over time, or spikes? */
  perMinute: { minute: number; p50: number; p99: number; n: number }[];
  uploads: number;
  crowd: Record<string, number>;
  /** The simulator's attendees turned away, by the server's answer. */
  crowdRefusedBy: Record<string, number>;
  /** The load process's own event-loop lag: how late it reads what the servers sent. */
  lag: { p50: number; p99: number; max: number };
  /** CPU time used over the measured window, in cores (1 = one core busy all the time). */
  cores: number;
  fans?: CrowdCounters & {
    failures: number;
    failureSamples: string[];
    answers: Record<string, Record<string, number>>;
  };
};

/** One period of the load (BENCH_REPORT_SECONDS). */
type LoadPeriod = {
  /** Minutes since the measured window began, at the period's end. */
  minute: number;
  seconds: number;
  rss: number;
  heap: number;
  lagP99: number;
  latency: { p50: number; p99: number; n: number };
  photosPerSecond: number;
  streams: number;
  drops: number;
  dropsTotal: number;
  fanPhotos: number;
};
/** One period of a server: memory as the mean of its 5-s samples, lag p99 of the period. */
type ServerPeriod = { rss: number; heap: number; external: number; buffers: number; lagP99: number; streams: number };

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
/** CPU time (user + system, every thread of the process) since `start`, in cores. */
const coresSince = (start: NodeJS.CpuUsage, seconds: number) => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6 / seconds;
};
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const whole = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');

async function runLoad(): Promise<void> {
  const { startVenue } = await import('@stadiumcam/venue-sim');
  const urls = process.env.BENCH_URLS!.split(',');
  const url = urls[0];
  const cookie = process.env.BENCH_COOKIE!;
  const slugDate = process.env.BENCH_SLUGDATE!;
  const cameras = Array.from({ length: CAMERAS }, (_, i) => `cam${i + 1}`);
  let measuring = false;
  let snapshots = 0;
  const latencies: number[] = [];
  const byMinute: number[][] = [];
  let periodLatencies: number[] = [];
  let measureStart = 0;
  const sockets: WireConsole[] = [];
  for (let i = 0; i < CONSOLES; i++) {
    const s = await WireConsole.open(urls[i % urls.length], cookie);
    await s.ask('select events', [slugDate]);
    s.on('monitor newSnapshot', (snap: { date: string }) => {
      if (!measuring) return;
      snapshots++;
      const ms = Date.now() - Date.parse(snap.date);
      latencies.push(ms);
      periodLatencies.push(ms);
      (byMinute[Math.floor((Date.now() - measureStart) / 60_000)] ??= []).push(ms);
    });
    sockets.push(s);
  }
  // The venue starts once every console is in; they join the streams once its cameras are known.
  const announced = new Set<string>();
  const allKnown = new Promise<void>((resolve) =>
    sockets[0].on('monitor socket connected', (p: { cameras: string[] }) => {
      p.cameras.forEach((c) => announced.add(c));
      if (cameras.every((c) => announced.has(c))) resolve();
    }),
  );
  // Cameras of 4 per host, like a venue with several camera computers.
  const perHost = Math.min(4, CAMERAS);
  const venue = await startVenue({
    serverUrl: url,
    // BENCH_SPREAD_HOSTS=1: camera host i uploads to instance i (a loop per instance for the photos).
    ...(SPREAD_HOSTS ? { hostUrls: urls } : {}),
    deviceToken: BENCH_TOKEN,
    seed: 2024,
    hosts: Math.ceil(CAMERAS / perHost),
    camerasPerHost: perHost,
    fps: FPS,
    attendeeRate: ATTENDEE_RATE,
    // Enough camera capacity for the photo rate: each camera does 1 / turn photos per second.
    turnMs: Math.floor((CAMERAS / (PHOTO_RATE * 1.15)) * 1000),
    suspiciousShare: 0.02,
    frames: FRAMES,
  });
  await allKnown;
  for (const s of sockets) {
    for (const camera of cameras) {
      const answer = await s.ask('join monitor livestream', { room: slugDate, camera });
      if (!answer.ok) throw new Error(`join ${camera}: ${answer.error}`);
    }
  }
  const crowd =
    FANS > 0
      ? startFanCrowd(urls, { fans: FANS, arrivalRate: FAN_ARRIVAL_RATE, joinSharePer5Min: FAN_JOIN_SHARE })
      : undefined;
  process.send!({ type: 'ready' });
  await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
  const framesNow = () => sockets.reduce((n, s) => n + s.frames, 0);
  const framesBefore = framesNow();
  measureStart = Date.now();
  measuring = true;
  const uploadsBefore = venue.hosts.reduce((n, h) => n + h.uploads, 0);
  const started = performance.now();
  const loadLag = loopMonitor();
  loadLag.enable();
  const cpuAtStart = process.cpuUsage();
  process.send!({ type: 'measuring' });
  // Every REPORT_S the load's line of the period; the parent then asks the servers for theirs.
  const periodLag = loopMonitor();
  periodLag.enable();
  let periodStart = measureStart;
  let periodUploads = uploadsBefore;
  let periodDrops = 0;
  let periodFanPhotos = 0;
  const period = () => {
    const now = Date.now();
    const seconds = (now - periodStart) / 1000;
    const sorted = periodLatencies.sort((a, b) => a - b);
    const uploads = venue.hosts.reduce((n, h) => n + h.uploads, 0);
    const fans = crowd?.counters();
    const memory = process.memoryUsage();
    const p: LoadPeriod = {
      minute: (now - measureStart) / 60_000,
      seconds,
      rss: memory.rss,
      heap: memory.heapUsed,
      lagP99: loopLag(periodLag).p99,
      latency: { p50: pct(sorted, 50), p99: pct(sorted, 99), n: sorted.length },
      photosPerSecond: (uploads - periodUploads) / seconds,
      streams: fans?.streamsHeld ?? 0,
      drops: (fans?.drops ?? 0) - periodDrops,
      dropsTotal: fans?.drops ?? 0,
      fanPhotos: (fans?.photos ?? 0) - periodFanPhotos,
    };
    process.send!({ type: 'period', period: p });
    periodStart = now;
    periodLatencies = [];
    periodUploads = uploads;
    periodDrops = p.dropsTotal;
    periodFanPhotos = fans?.photos ?? 0;
    periodLag.reset();
  };
  const periods = setInterval(period, REPORT_S * 1000);
  await new Promise((r) => setTimeout(r, (SECONDS - WARMUP_S) * 1000));
  clearInterval(periods);
  // The tail of the run, when it is not a whole period: its own shorter line.
  if (Date.now() - periodStart > 5000) period();
  periodLag.disable();
  measuring = false;
  const frames = framesNow() - framesBefore;
  loadLag.disable();
  const seconds = (performance.now() - started) / 1000;
  const report: LoadReport = {
    seconds,
    framesDelivered: frames,
    framesPerConsole: frames / CONSOLES,
    snapshotsSeen: snapshots / CONSOLES,
    latencies: latencies.sort((a, b) => a - b),
    perMinute: byMinute.map((l, minute) => {
      const sorted = [...l].sort((a, b) => a - b);
      return { minute: minute + 1, p50: pct(sorted, 50), p99: pct(sorted, 99), n: sorted.length };
    }),
    uploads: venue.hosts.reduce((n, h) => n + h.uploads, 0) - uploadsBefore,
    crowd: { ...venue.crowd.stats },
    crowdRefusedBy: Object.fromEntries(venue.crowd.refusedBy),
    lag: loopLag(loadLag),
    cores: coresSince(cpuAtStart, seconds),
    ...(crowd
      ? {
          fans: {
            ...crowd.counters(),
            failures: crowd.tally.failed(),
            failureSamples: [...new Set(crowd.tally.failures)],
            answers: Object.fromEntries([...crowd.tally.byKind].map(([k, m]) => [k, Object.fromEntries(m)])),
          },
        }
      : {}),
  };
  crowd?.stop();
  for (const s of sockets) s.close();
  await venue.stop();
  await new Promise<void>((resolve) => process.send!({ type: 'report', report }, () => resolve()));
}

type ServerStats = {
  framesIn: number;
  /** Capture time on the host to the server's emit of 'monitor newSnapshot' (ms, sorted). */
  emitted: number[];
  lag: { p50: number; p99: number; max: number };
  memory: { t: number; rss: number; heap: number; external: number; buffers: number }[];
  cores: number;
  /** Uploads answered 503 + Retry-After (the photo ceiling's shedding) while measuring. */
  shed: number;
};

/** One server: builds the app, then measures itself between the parent's 'start' and 'stop'. */
async function runServer(): Promise<void> {
  const { app, url, setup } = await startBenchServer({
    // The photo path's settings, read as the product reads them (IMAGE_WORKERS=0|n).
    env: { IMAGE_WORKERS: process.env.IMAGE_WORKERS, INGEST_MAX_WAIT_MS: process.env.INGEST_MAX_WAIT_MS },
    config: {
      // Attendees all come from this machine: lift the per-address limit for the run.
      publicRateLimit: Number(process.env.PUBLIC_RATE_LIMIT) || 1_000_000,
      ...(PGLITE_ON_DISK ? {} : { pgliteDir: 'memory://' }),
    },
  });
  const lag = loopMonitor();
  const periodLag = loopMonitor();
  /** The memory samples of the current period start at this index. */
  let periodFrom = 0;
  const memory: ServerStats['memory'] = [];
  let sampler: NodeJS.Timeout | undefined;
  let framesAtStart = 0;
  let cpuAtStart = process.cpuUsage();
  let measureStart = 0;
  const shedNow = async () => (await app.deps.ops.photosShed.get()).values[0]?.value ?? 0;
  let shedAtStart = 0;
  const hub = app.deps.cameras;
  // The server's part of the latency: a photo's capture time to its emit to the consoles.
  const emitted: number[] = [];
  let measuring = false;
  const realtime = app.deps.realtime;
  const toEvent = realtime.toEvent.bind(realtime);
  realtime.toEvent = (slugDate: string, event: string, ...args: unknown[]) => {
    if (measuring && event === 'monitor newSnapshot')
      emitted.push(Date.now() - Date.parse((args[0] as { date: string }).date));
    return (toEvent as (...a: unknown[]) => void)(slugDate, event, ...args);
  };
  let t0 = 0;
  const sample = () => {
    const u = process.memoryUsage();
    memory.push({
      t: Math.round((performance.now() - t0) / 1000),
      rss: u.rss,
      heap: u.heapUsed,
      external: u.external,
      buffers: u.arrayBuffers,
    });
  };
  process.on('message', (m: { type: string }) => void onMessage(m));
  const onMessage = async (m: { type: string }) => {
    if (m.type === 'start') {
      measuring = true;
      lag.enable();
      periodLag.enable();
      cpuAtStart = process.cpuUsage();
      measureStart = performance.now();
      framesAtStart = hub.counters.framesIn;
      void shedNow().then((n) => (shedAtStart = n));
      t0 = performance.now();
      sample();
      sampler = setInterval(sample, 5000);
    }
    if (m.type === 'period') {
      if (memory.length === periodFrom) sample();
      const samples = memory.slice(periodFrom);
      periodFrom = memory.length;
      const mean = (k: 'rss' | 'heap' | 'external' | 'buffers') =>
        samples.reduce((n, x) => n + x[k], 0) / samples.length;
      const period: ServerPeriod = {
        rss: mean('rss'),
        heap: mean('heap'),
        external: mean('external'),
        buffers: mean('buffers'),
        lagP99: loopLag(periodLag).p99,
        streams: app.deps.attendeeFeed.size(),
      };
      periodLag.reset();
      process.send!({ type: 'period', period });
    }
    if (m.type === 'stop') {
      const shed = (await shedNow()) - shedAtStart;
      measuring = false;
      lag.disable();
      periodLag.disable();
      clearInterval(sampler);
      const stats: ServerStats = {
        framesIn: hub.counters.framesIn - framesAtStart,
        emitted: emitted.sort((a, b) => a - b),
        lag: loopLag(lag),
        memory,
        cores: coresSince(cpuAtStart, (performance.now() - measureStart) / 1000),
        shed,
      };
      process.send!({ type: 'stats', stats }, () => void app.close().then(() => process.exit(0)));
    }
  };
  process.send!({ type: 'listening', url, setup });
}

function waitFor<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    // Both listeners go once answered: a soak asks each server once per period.
    const onExit = (code: number | null) => reject(new Error(`${type}: process exited (${code})`));
    const onMessage = (m: { type: string } & Record<string, unknown>) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Least-squares slope of y against x, and its standard error (how much the points' scatter alone moves it). */
function slope(points: { x: number; y: number }[]): { slope: number; se: number } {
  const mx = points.reduce((n, p) => n + p.x, 0) / points.length;
  const my = points.reduce((n, p) => n + p.y, 0) / points.length;
  const cov = points.reduce((n, p) => n + (p.x - mx) * (p.y - my), 0);
  const v = points.reduce((n, p) => n + (p.x - mx) ** 2, 0);
  const b = v ? cov / v : NaN;
  const residuals = points.reduce((n, p) => n + (p.y - my - b * (p.x - mx)) ** 2, 0);
  return { slope: b, se: Math.sqrt(residuals / Math.max(1, points.length - 2) / v) };
}

/**
 * The soak's verdict: per server, the slope of RSS and of the JS heap (period means) over the
 * periods that start after the warm-up, in MB per hour; "no upward trend" when every slope is
 * under TREND_LIMIT of its post-warm-up mean per hour (docs/bench-realtime.md "Soak").
 */
function judgeTrend(periods: { load: LoadPeriod; servers: ServerPeriod[] }[]): string[] {
  const after = periods.filter((p) => p.load.minute * 60 - p.load.seconds >= TREND_WARMUP_S - 1);
  const head = `\ntrend over the ${after.length} period(s) starting after the first ${TREND_WARMUP_S / 60} min (least squares of the period means; limit ${TREND_LIMIT * 100} % of the mean per hour):`;
  if (after.length < 3) return [head, 'not judged: fewer than 3 periods after the warm-up'];
  const lines = [head];
  let up = false;
  periods[0].servers.forEach((_, i) => {
    for (const [name, key] of [
      ['RSS', 'rss'],
      ['JS heap', 'heap'],
    ] as const) {
      // x: the period's middle in hours (its value is the mean over the period).
      const points = after.map((p) => ({
        x: (p.load.minute - p.load.seconds / 120) / 60,
        y: p.servers[i][key] / 1024 / 1024,
      }));
      const { slope: perHour, se } = slope(points);
      const mean = points.reduce((n, p) => n + p.y, 0) / points.length;
      const limit = mean * TREND_LIMIT;
      const grows = !(perHour < limit);
      up ||= grows;
      lines.push(
        `  instance ${i + 1} ${name}: ${perHour >= 0 ? '+' : ''}${perHour.toFixed(1)} ± ${se.toFixed(1)} MB/h (mean ${mean.toFixed(0)} MB, limit ${limit.toFixed(1)} MB/h): ${grows ? 'UPWARD TREND' : 'no upward trend'}`,
      );
    }
  });
  lines.push(up ? 'verdict: UPWARD TREND (see above)' : 'verdict: no upward trend');
  return lines;
}

async function runParent(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-bench-rt-'));
  let dropDb = async () => {};
  const env: Record<string, string> = { BENCH_ROLE: 'server', BENCH_DATA_DIR: dataDir };
  if (DB === 'postgres') {
    const base =
      process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const db = await createPgDatabase(base, 'bench');
    env.BENCH_DATABASE_URL = db.url;
    dropDb = db.drop;
  }
  if (INSTANCES > 1) {
    env.BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    env.BENCH_REDIS_PREFIX = `bench-${randomBytes(5).toString('hex')}`;
  }
  console.log(
    `realtime bench: ${SECONDS} s (${WARMUP_S} s warm-up), ${CAMERAS} cameras x ${FPS} fps (${FRAMES}), ${PHOTO_RATE} photos/s, ${CONSOLES} consoles, ${PGLITE_ON_DISK ? 'pglite on disk' : DB}, ${INSTANCES} instance(s)` +
      (FANS ? `, ${FANS} fans at ${FAN_ARRIVAL_RATE}/s (${FAN_JOIN_SHARE * 100} % joining a queue per 5 min)` : '') +
      `; a line every ${REPORT_S} s; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const servers: ChildProcess[] = [];
  const urls: string[] = [];
  let setup: BenchSetup | undefined;
  // One after the other: the first runs the migrations and creates the live event.
  for (let i = 0; i < INSTANCES; i++) {
    const child = fork(import.meta.filename, [], {
      env: { ...process.env, ...env, BENCH_FIRST: i === 0 ? '1' : '0' },
      execArgv: ['--import', 'tsx', ...cpuProf(`server-${i + 1}`)],
    });
    servers.push(child);
    const m = await waitFor<{ url: string; setup?: typeof setup }>(child, 'listening');
    urls.push(m.url);
    setup ??= m.setup;
  }
  const load = fork(import.meta.filename, [], {
    env: {
      ...process.env,
      BENCH_ROLE: 'load',
      BENCH_URLS: urls.join(','),
      BENCH_COOKIE: setup!.cookie,
      BENCH_SLUGDATE: setup!.slugDate,
    },
    execArgv: ['--import', 'tsx', ...cpuProf('load')],
  });
  // Each period: the load's line, then every server's (asked when the load's arrives).
  const periods: { load: LoadPeriod; servers: ServerPeriod[] }[] = [];
  let printing = Promise.resolve();
  const printPeriod = async (p: LoadPeriod) => {
    const got = await Promise.all(
      servers.map((s) => {
        const answer = waitFor<{ period: ServerPeriod }>(s, 'period');
        s.send({ type: 'period' });
        return answer.then((a) => a.period);
      }),
    );
    periods.push({ load: p, servers: got });
    if (periods.length === 1)
      console.log(
        '\n| min | process | RSS | JS heap | external / array buffers | lag p99 | upload-to-console p50 / p99 | photos/s | streams | drops (period / total) |\n|---|---|---|---|---|---|---|---|---|---|',
      );
    const min = p.minute.toFixed(1);
    got.forEach((x, i) =>
      console.log(
        `| ${min} | instance ${i + 1} | ${mb(x.rss)} | ${mb(x.heap)} | ${mb(x.external)} / ${mb(x.buffers)} | ${x.lagP99.toFixed(1)} ms | | | ${x.streams} | |`,
      ),
    );
    console.log(
      `| ${min} | load | ${mb(p.rss)} | ${mb(p.heap)} | | ${p.lagP99.toFixed(1)} ms | ${whole(p.latency.p50)} / ${whole(p.latency.p99)} ms | ${p.photosPerSecond.toFixed(2)} (fans' ${p.fanPhotos}) | ${p.streams} | ${p.drops} / ${p.dropsTotal} |`,
    );
  };
  load.on('message', (m: { type: string; period?: LoadPeriod }) => {
    if (m.type === 'ready') console.log('load ready: consoles joined, venue running');
    if (m.type === 'measuring') for (const s of servers) s.send({ type: 'start' });
    if (m.type === 'period') printing = printing.then(() => printPeriod(m.period!));
  });
  const { report } = await waitFor<{ report: LoadReport }>(load, 'report');
  await printing;
  const trendLines = periods.length ? judgeTrend(periods) : [];
  const stats = await Promise.all(
    servers.map((s) => {
      const got = waitFor<{ stats: ServerStats }>(s, 'stats');
      s.send({ type: 'stop' });
      return got.then((m) => m.stats);
    }),
  );

  const s = report.seconds;
  const lat = report.latencies;
  const framesIn = stats.reduce((n, x) => n + x.framesIn, 0);
  const range = (values: number[]) =>
    values.length ? `${mb(Math.min(...values))} / ${mb(Math.max(...values))} / ${mb(values.at(-1)!)}` : '-';
  const rows: [string, string][] = [
    ['measured', `${s.toFixed(0)} s`],
    ['frames from hosts', `${(framesIn / s).toFixed(1)} /s (asked for ${CAMERAS * FPS})`],
    [
      'frames delivered (all consoles)',
      `${(report.framesDelivered / s).toFixed(0)} /s (ideal ${CAMERAS * FPS * CONSOLES})`,
    ],
    ['frames per console', `${(report.framesPerConsole / s).toFixed(1)} /s`],
    ['photos uploaded', `${(report.uploads / s).toFixed(2)} /s`],
    ['uploads shed (503 + Retry-After)', String(stats.reduce((n, x) => n + x.shed, 0))],
    ['new snapshots per console', `${(report.snapshotsSeen / s).toFixed(2)} /s`],
    ['upload-to-console latency p50', `${pct(lat, 50).toFixed(0)} ms`],
    ['upload-to-console latency p99', `${pct(lat, 99).toFixed(0)} ms`],
    // Where the latency is spent: on the way to the server's emit, or after it (socket write,
    // the load process reading 2,000 frames a second on the same two cores).
    ...stats
      .filter((x) => x.emitted.length)
      .map((x): [string, string] => [
        'capture-to-server-emit p50 / p99',
        `${pct(x.emitted, 50).toFixed(0)} / ${pct(x.emitted, 99).toFixed(0)} ms`,
      ]),
    ['CPU, cores busy (load process)', report.cores.toFixed(2)],
    [
      'load process event-loop lag p50 / p99 / max',
      `${report.lag.p50.toFixed(1)} / ${report.lag.p99.toFixed(1)} / ${report.lag.max.toFixed(1)} ms`,
    ],
    ...stats.flatMap((x, i): [string, string][] => [
      [
        `event-loop lag p50 / p99 / max (instance ${i + 1})`,
        `${x.lag.p50.toFixed(1)} / ${x.lag.p99.toFixed(1)} / ${x.lag.max.toFixed(1)} ms`,
      ],
      [`CPU, cores busy (instance ${i + 1})`, x.cores.toFixed(2)],
      [`RSS min / max / end (instance ${i + 1})`, range(x.memory.map((m) => m.rss))],
      [`JS heap min / max / end (instance ${i + 1})`, range(x.memory.map((m) => m.heap))],
      [`Buffers min / max / end (instance ${i + 1})`, range(x.memory.map((m) => m.buffers))],
    ]),
    [
      'attendees (joined / photos found / overlays / shares / refused)',
      `${report.crowd.joined} / ${report.crowd.photos} / ${report.crowd.overlays} / ${report.crowd.shares} / ${report.crowd.refused}`,
    ],
    ...Object.entries(report.crowdRefusedBy).map(([why, n]): [string, string] => [
      `attendees refused: "${why}"`,
      String(n),
    ]),
    ...(report.fans
      ? ((f): [string, string][] => [
          [
            'fans (arrived / streams held at the end / drops / reopened / refused)',
            `${f.arrived} / ${f.streamsHeld} / ${f.drops} / ${f.reopened} / ${f.refused}`,
          ],
          [
            'fans in queues (joined / queue full / photos / still waiting)',
            `${f.joins} / ${f.queueFull} / ${f.photos} / ${f.waiting}`,
          ],
          [
            "fans' failures (5xx, 429, no answer)",
            `${f.failures}${f.failureSamples.length ? ` e.g. ${f.failureSamples.join(', ')}` : ''}`,
          ],
        ])(report.fans)
      : []),
  ];
  console.log('\n| measure | value |\n|---|---|');
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  console.log(
    '\nlatency per minute (p50 / p99 ms):',
    report.perMinute.map((m) => `${m.minute}: ${m.p50} / ${m.p99}`).join(', '),
  );
  // An hour's 5-s samples would be 720 a line: the periods above say it then.
  stats.forEach(
    (x, i) =>
      x.memory.length <= 120 &&
      console.log(
        `\nmemory samples, instance ${i + 1} (s: rss / heap / buffers):`,
        x.memory.map((m) => `${m.t}: ${mb(m.rss)} / ${mb(m.heap)} / ${mb(m.buffers)}`).join(', '),
      ),
  );
  if (report.fans)
    console.log(
      `\nfans' answers by kind and status: ${Object.entries(report.fans.answers)
        .map(
          ([kind, m]) =>
            `${kind}: ${Object.entries(m)
              .map(([st, n]) => `${st} × ${n}`)
              .join(', ')}`,
        )
        .join('; ')}`,
    );
  for (const line of trendLines) console.log(line);
  await dropDb();
  await rm(dataDir, { recursive: true, force: true });
}

if (process.env.BENCH_ROLE === 'load') {
  await runLoad();
  process.exit(0);
} else if (process.env.BENCH_ROLE === 'server') {
  await runServer();
} else {
  await runParent();
  process.exit(0);
}
