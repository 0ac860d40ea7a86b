/**
 * A stadium's phones (issue 30 points 1 and 2). Server processes (one on PGlite by default, or
 * BENCH_INSTANCES on PostgreSQL + Redis) measure their own event-loop lag, CPU and memory per
 * phase; a load process plays BENCH_FANS phones from one client address (venue Wi-Fi), each
 * through the app's real HTTP path and rhythm (apps/attendee/src: api.ts, live.ts, screens/):
 *
 *   arrival   the page and its files as a first visit loads them (then the service worker's
 *             install: the page again, conditional requests for the files it already has), its
 *             fan id (POST /api/public/fan), the event with the fan token, the live stream (SSE,
 *             held open to the end), the 'welcome' page view;
 *   save      an operator saves the colours (PATCH /api/events/colors): time until each open
 *             stream has the `template` event;
 *   burst     BENCH_JOIN_RATE phones a second for BENCH_BURST_SECONDS go to the seat screen, use
 *             the seat pickers (sections, rows, seats), join; a second save halfway through;
 *   after     queued phones wait for their photo as the app's queue screen does (the queue
 *             position and photo-ready pushes on their stream when the server sends them, else
 *             the screen's poll: photos + position every 3 s, every second once the turn is
 *             near), open it (photo screen: photos, the picture) and 45 % share it (download).
 *
 * The venue simulator's hosts (BENCH_CAMERAS cameras, BENCH_PHOTO_RATE photos/s) take the photos;
 * its own crowd is off. The server runs with the product's public limits (only QUEUE_MAX is raised
 * to hold the burst; PUBLIC_* / STREAMS_* / MAX_STREAMS / QUEUE_MAX from the environment win).
 * Any 5xx, any 429 and any request that fails is a failure. Figures go to docs/bench-fans.md.
 *
 *   npm run bench:fans                                          (10,000 phones, PGlite)
 *   BENCH_FANS=2000 npm run bench:fans
 *   BENCH_DB=postgres BENCH_INSTANCES=2 npm run bench:fans       (+ Redis; phones spread over both)
 *
 * BENCH_ARRIVAL_RATE (45 phones/s: the default anonymous ceiling is 3,000 fan ids a minute per
 * address), BENCH_JOIN_RATE (200), BENCH_BURST_SECONDS (10), BENCH_AFTER_SECONDS (60),
 * BENCH_CAMERAS (8), BENCH_PHOTO_RATE (10), BENCH_RETURNING (0: share of phones that already have the
 * app, so only its page is fetched), BENCH_ABUSERS (1: phones in a loop during the burst), BENCH_CPU_PROF (a folder: each process writes a V8 CPU
 * profile there). Needs the built app (`npm run build`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_COLORS, type PublicEvent, type PublicSnapshot } from '@stadiumcam/contract';
import { loopLag, loopMonitor } from '../src/modules/ops/ops.metrics.ts';
import { BENCH_PASSWORD, BENCH_TOKEN, startBenchServer, type BenchSetup } from './bench-server.ts';
import { cpuProf } from './cpu-prof.ts';
import { createPgDatabase } from '../src/test/pg-database.ts';
import {
  Client,
  fanApi,
  myPhotosPath,
  pickSeat,
  Stream,
  Tally,
  waitForPhoto,
  type Fan,
  type FanPhone,
} from './fan-client.ts';

const FANS = Number(process.env.BENCH_FANS ?? 10_000);
const ARRIVAL_RATE = Number(process.env.BENCH_ARRIVAL_RATE ?? 45);
const JOIN_RATE = Number(process.env.BENCH_JOIN_RATE ?? 200);
const BURST_S = Number(process.env.BENCH_BURST_SECONDS ?? 10);
const AFTER_S = Number(process.env.BENCH_AFTER_SECONDS ?? 60);
const CAMERAS = Number(process.env.BENCH_CAMERAS ?? 8);
const PHOTO_RATE = Number(process.env.BENCH_PHOTO_RATE ?? 10);
const INSTANCES = Math.max(1, Number(process.env.BENCH_INSTANCES ?? 1));
const DB =
  process.env.BENCH_DB === 'postgres' || process.env.BENCH_DB === 'pg' || INSTANCES > 1 ? 'postgres' : 'pglite';
const JOINS = Math.min(FANS, Math.round(JOIN_RATE * BURST_S));
/** Every join of the burst finds a place (the product's 60 per camera would refuse most of them by design). */
const QUEUE_MAX = process.env.QUEUE_MAX ?? String(Math.ceil(JOINS / CAMERAS) + 20);
const SHARE_RATE = 0.45;
/**
 * Phones in a loop among the crowd during the burst (issue 30, bad input under load): each, every
 * 50 ms, opens another stream with its fan id, joins with a made-up id and sends a 1 MB body.
 * Their answers are counted apart; the crowd's failures must stay 0.
 */
const ABUSERS = Number(process.env.BENCH_ABUSERS ?? 1);
const ABUSE_EVERY_MS = 50;
const ABUSE_SEAT = { seatType: 'section', section: '101', row: 'A', seat: '1' };
/** Share of phones that had the app already (its service worker serves the files; the page still comes from the network). */
const RETURNING = Math.min(1, Math.max(0, Number(process.env.BENCH_RETURNING ?? 0)));
const ATTENDEE_DIST = path.resolve(import.meta.dirname, '../../attendee/dist');
const LIMIT_ENV = [
  'PUBLIC_RATE_LIMIT',
  'PUBLIC_FAN_RATE_LIMIT',
  'PUBLIC_ADDRESS_RATE_LIMIT',
  'STREAMS_PER_FAN',
  'STREAMS_PER_ADDRESS',
  'MAX_STREAMS',
];

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)} ms` : '-');
/** How many files this process may open (the streams and sockets of the load count against it). */
function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3]) || 1024;
}

/* ---------------------------------------------------------------- the load process */

type Phase = 'arrival' | 'hold' | 'burst' | 'after';
type PhoneState = FanPhone & { saveSeen: number };

type LoadReport = {
  phones: number;
  arrived: number;
  arrivalSeconds: number;
  streamsHeld: number;
  streamsAtEnd: number;
  streamsDropped: number;
  saves: { label: string; streams: number; got: number; p50: number; p99: number; max: number; answerMs: number }[];
  /** `unanswered`: joins sent in the burst with no answer by the end of the run (counted as failures). */
  joins: { n: number; p50: number; p99: number; max: number; seconds: number; queueFull: number; unanswered: number };
  photoWait: { n: number; p50: number; p99: number };
  photos: number;
  shares: number;
  stillWaiting: number;
  pushes: Record<string, number>;
  answers: Record<string, Record<string, number>>;
  failures: number;
  failureSamples: string[];
  /** The abusive phones' answers by kind and status; their streams held at the end. */
  abuse: { answers: Record<string, Record<string, number>>; streams: number };
  assetBytes: number;
  cores: number;
  lag: { p50: number; p99: number; max: number };
};

async function runLoad(): Promise<void> {
  const { startVenue } = await import('@stadiumcam/venue-sim');
  const urls = process.env.BENCH_URLS!.split(',');
  const cookie = process.env.BENCH_COOKIE!;
  const eventId = process.env.BENCH_EVENT_ID!;
  const tally = new Tally();
  const clients = urls.map((u) => new Client(u, tally));
  const loadLag = loopMonitor();
  loadLag.enable();
  const cpuAtStart = process.cpuUsage();
  const t0 = performance.now();
  const phase = (name: Phase) => process.send!({ type: 'phase', phase: name });

  const perHost = Math.min(4, CAMERAS);
  const venue = await startVenue({
    serverUrl: urls[0],
    deviceToken: BENCH_TOKEN,
    seed: 30,
    hosts: Math.ceil(CAMERAS / perHost),
    camerasPerHost: perHost,
    fps: 2,
    attendeeRate: 0,
    turnMs: Math.floor((CAMERAS / PHOTO_RATE) * 1000),
    suspiciousShare: 0,
    frames: 'replay',
    technician: { username: 'admin', password: BENCH_PASSWORD },
  });

  // The app's files, as its page names them and its service worker precaches them.
  const page0 = await clients[0].request('page', 'GET', '/app/', { decode: true });
  if (page0.status !== 200) throw new Error(`/app/ answered ${page0.status}: run npm run build first`);
  const html = page0.body.toString('utf8');
  const named = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], 'http://x/app/').pathname);
  const files = [...new Set(named)];
  const sw = (await clients[0].request('sw', 'GET', '/app/sw.js', { decode: true })).body.toString('utf8');
  const precache = (JSON.parse(/"precache":(\[[^\]]*\])/.exec(sw)?.[1] ?? '[]') as string[])
    .map((p) => new URL(p, 'http://x/app/').pathname)
    .filter((p) => p !== '/app/');
  let assetBytes = 0;

  const phones: PhoneState[] = [];
  let streamsHeld = 0;
  let streamsDropped = 0;
  let save: { seq: number; start: number; got: number[] } | null = null;
  let saveSeq = 0;
  const pushes: Record<string, number> = {};
  let event: PublicEvent | undefined;

  /** First visit: the page, then every file it names at once (a browser's six sockets), then the service worker. */
  const loadApp = async (c: Client, returning: boolean) => {
    await c.request('page', 'GET', '/app/');
    if (returning) return;
    const etags = new Map<string, string>();
    // Files the server gave a fresh lifetime (hashed assets, `max-age=…, immutable`) come from the
    // phone's HTTP cache at the worker's install (cache.addAll's default mode): no request.
    const fresh = new Set<string>();
    await Promise.all(
      files.map(async (f) => {
        const a = await c.request('asset', 'GET', f);
        assetBytes += Number(a.headers['content-length'] ?? 0);
        if (typeof a.headers.etag === 'string') etags.set(f, a.headers.etag);
        if (/max-age=[1-9]/.test(String(a.headers['cache-control'] ?? ''))) fresh.add(f);
      }),
    );
    await c.request('sw', 'GET', '/app/sw.js', { headers: { 'service-worker': 'script' } });
    // The worker's install: the page from the network, its files from the HTTP cache while fresh,
    // else revalidated (the phone has them) or fetched.
    await c.request('page', 'GET', '/app/');
    await Promise.all(
      precache
        .filter((f) => !fresh.has(f))
        .map((f) => {
          const etag = etags.get(f);
          return c.request(etag ? 'asset (revalidate)' : 'asset', 'GET', f, {
            headers: etag ? { 'if-none-match': etag } : {},
          });
        }),
    );
  };

  const api = fanApi;
  const view = (phone: PhoneState, page: string) =>
    void api(phone, 'pageView', 'POST', 'pageView', {
      slugDate: event!.slugDate,
      page,
      device: 'mobile',
      language: 'en-CA',
      country: 'CA',
      screen: { width: 390, height: 844 },
    }).catch(() => undefined);

  const onStreamEvent = (phone: PhoneState) => (name: string, data: string | null) => {
    if (name === 'template') {
      if (save && phone.saveSeen !== save.seq) {
        phone.saveSeen = save.seq;
        save.got.push(performance.now() - save.start);
      }
      return;
    }
    pushes[name] = (pushes[name] ?? 0) + 1;
    if (name === 'queue') {
      phone.pushes = true;
      phone.lastQueue = data;
    }
    phone.pushed?.(name, data);
  };
  const openStream = async (phone: PhoneState) => {
    const q = new URLSearchParams({ slugDate: event!.slugDate, fan: phone.fan!.fanToken });
    try {
      const s = await Stream.open(
        phone.client.base,
        `/api/public/event/stream?${q.toString()}`,
        onStreamEvent(phone),
        () => {
          streamsHeld--;
          streamsDropped++;
        },
      );
      tally.count('stream', s.status);
      if (s.status === 200) {
        phone.stream = s;
        streamsHeld++;
      }
    } catch (err) {
      tally.count('stream', `error ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };

  const arrive = async (phone: PhoneState) => {
    try {
      await loadApp(phone.client, (phone.i * 7) % 100 < RETURNING * 100);
      phone.fan = await api<Fan>(phone, 'fan', 'POST', 'fan');
      event = await api<PublicEvent>(phone, 'event', 'GET', 'event');
      await openStream(phone);
      view(phone, 'welcome');
    } catch {
      /* counted by kind and status */
    }
  };

  /* arrival: BENCH_ARRIVAL_RATE phones a second */
  phase('arrival');
  const arrivalStart = performance.now();
  const arriving: Promise<void>[] = [];
  for (let i = 0; i < FANS; i++) {
    const due = arrivalStart + (i / ARRIVAL_RATE) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const phone: PhoneState = { i, client: clients[i % clients.length], saveSeen: 0 };
    phones.push(phone);
    arriving.push(arrive(phone));
    if (i % 1000 === 999) console.log(`  ${i + 1} phones arrived, ${streamsHeld} streams open`);
  }
  await Promise.all(arriving);
  const arrivalSeconds = (performance.now() - arrivalStart) / 1000;
  phase('hold');
  await sleep(5000);

  const saves: LoadReport['saves'] = [];
  let colour = 0;
  const saveTemplate = async (label: string) => {
    const streams = streamsHeld;
    const seq = ++saveSeq;
    save = { seq, start: performance.now(), got: [] };
    const colors = {
      ...DEFAULT_COLORS,
      theme: { ...DEFAULT_COLORS.theme, backgroundColor: colour++ % 2 ? '#0b1f3a' : '#0b1f3b' },
    };
    const a = await clients[0].request('save (console)', 'PATCH', '/api/events/colors', {
      headers: { cookie },
      body: { eventIds: [eventId], colors },
      decode: true,
    });
    const answerMs = performance.now() - save.start;
    const current = save;
    const until = performance.now() + 15_000;
    while (current.got.length < streams && performance.now() < until) await sleep(50);
    const got = [...current.got].sort((a, b) => a - b);
    if (save === current) save = null;
    if (a.status !== 200) console.log(`  save answered ${a.status}: ${a.body.toString('utf8').slice(0, 300)}`);
    saves.push({
      label,
      streams,
      got: got.length,
      p50: pct(got, 50),
      p99: pct(got, 99),
      max: got.at(-1) ?? NaN,
      answerMs,
    });
  };
  await saveTemplate('quiet (all phones holding their stream)');
  await sleep(3000);

  /* burst: the half-time joins */
  phase('burst');
  const joinTimes: number[] = [];
  const photoWaits: number[] = [];
  let queueFull = 0;
  let photos = 0;
  let shares = 0;
  let waiting = 0;
  let stopping = false;
  const mine = (phone: PhoneState) => myPhotosPath(event!.slugDate, phone);

  const fanVisit = async (phone: PhoneState) => {
    try {
      view(phone, 'seat');
      const seat = await pickSeat(phone);
      const joinedAt = new Date().toISOString();
      const t = performance.now();
      const joined = await phone.client.request('join', 'POST', '/api/public/queue', {
        body: { slugDate: event!.slugDate, userId: phone.fan!.userId, seat },
        headers: { accept: 'application/json', 'x-fan-token': phone.fan!.fanToken },
      });
      joinTimes.push(performance.now() - t);
      if (joined.status === 409) queueFull++;
      if (joined.status !== 200) return;
      view(phone, 'queue');
      if (event!.triviaEnabled)
        void api(phone, 'trivia', 'GET', `trivia/${event!.slugDate}/english`).catch(() => undefined);
      waiting++;
      const id = await waitForPhoto(phone, event!.slugDate, joinedAt, () => stopping);
      waiting--;
      if (!id) return;
      photoWaits.push(performance.now() - t);
      photos++;
      // The photo screen: the fan's photos, the picture (with the watermark when the event has one).
      view(phone, 'photo');
      const list = await api<PublicSnapshot[]>(phone, 'snapshots (photo)', 'GET', mine(phone));
      const photo = list.find((p) => p._id === id);
      if (!photo) return void tally.count("photo missing from the fan's list", 'error');
      await phone.client.request('photo file', 'GET', photo.sharedURI || photo.smallURI);
      if (event!.images.watermarkUrl) await phone.client.request('photo file', 'GET', event!.images.watermarkUrl);
      if ((phone.i * 7919) % 100 < SHARE_RATE * 100) {
        view(phone, 'share');
        await api(phone, 'snapshots (share)', 'GET', mine(phone));
        await phone.client.request('photo file', 'GET', photo.sharedURI || photo.rawCroppedURI);
        await api(phone, 'share', 'POST', `snapshots/${encodeURIComponent(photo._id)}/share`, {
          userId: phone.fan!.userId,
          socialSource: 'Download',
        });
        shares++;
      }
    } catch {
      /* counted by kind and status */
    }
  };

  const abuseTally = new Tally();
  const abuseStreams: Stream[] = [];
  let burstOver = false;
  const abuse = async (n: number) => {
    const client = new Client(urls[0], abuseTally);
    const given = await client.request('abuse: fan id', 'POST', '/api/public/fan', { decode: true });
    const fan = JSON.parse(given.body.toString('utf8')) as Fan;
    const huge = { slugDate: event!.slugDate, userId: fan.userId, seat: ABUSE_SEAT, pad: 'x'.repeat(1024 * 1024) };
    const q = new URLSearchParams({ slugDate: event!.slugDate, fan: fan.fanToken });
    const loops: Promise<unknown>[] = [];
    for (let k = 0; !burstOver; k++) {
      loops.push(
        Stream.open(
          client.base,
          `/api/public/event/stream?${q.toString()}`,
          () => undefined,
          () => undefined,
        ).then(
          (s) => {
            abuseTally.count('abuse: stream in a loop', s.status);
            if (s.status === 200) abuseStreams.push(s);
          },
          () => abuseTally.count('abuse: stream in a loop', 'error'),
        ),
        client
          .request('abuse: join with a made-up id', 'POST', '/api/public/queue', {
            body: { slugDate: event!.slugDate, userId: `fan-made-up-${n}-${k}`, seat: ABUSE_SEAT },
          })
          .catch(() => undefined),
        client
          .request('abuse: 1 MB body', 'POST', '/api/public/queue', {
            body: huge,
            headers: { 'x-fan-token': fan.fanToken },
          })
          .catch(() => undefined),
      );
      await sleep(ABUSE_EVERY_MS);
    }
    await Promise.all(loops);
    client.close();
  };
  const abusing = Array.from({ length: ABUSERS }, (_, n) => abuse(n));

  const burstStart = performance.now();
  const visits: Promise<void>[] = [];
  const joiners = phones.filter((p) => p.fan && p.stream).slice(0, JOINS);
  let midSave: Promise<void> | undefined;
  for (let k = 0; k < joiners.length; k++) {
    const due = burstStart + (k / JOIN_RATE) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    visits.push(fanVisit(joiners[k]));
    if (k === Math.floor(joiners.length / 2)) midSave = saveTemplate('during the join burst');
  }
  const burstSeconds = (performance.now() - burstStart) / 1000;
  burstOver = true;
  await midSave;
  phase('after');
  await sleep(AFTER_S * 1000);
  stopping = true;
  await Promise.race([Promise.all([...visits, ...abusing]), sleep(10_000)]);

  const report: LoadReport = {
    phones: FANS,
    arrived: phones.filter((p) => p.fan).length,
    arrivalSeconds,
    streamsHeld: saves[0]?.streams ?? streamsHeld,
    streamsAtEnd: streamsHeld,
    streamsDropped,
    saves,
    joins: (() => {
      const s = [...joinTimes].sort((a, b) => a - b);
      const unanswered = joiners.length - s.length;
      return {
        n: s.length,
        p50: pct(s, 50),
        p99: pct(s, 99),
        max: s.at(-1) ?? NaN,
        seconds: burstSeconds,
        queueFull,
        unanswered,
      };
    })(),
    photoWait: (() => {
      const s = [...photoWaits].sort((a, b) => a - b);
      return { n: s.length, p50: pct(s, 50), p99: pct(s, 99) };
    })(),
    photos,
    shares,
    stillWaiting: waiting,
    pushes,
    answers: Object.fromEntries([...tally.byKind].map(([k, m]) => [k, Object.fromEntries(m)])),
    failures: tally.failed() + joiners.length - joinTimes.length,
    failureSamples: [...tally.failures],
    abuse: {
      answers: Object.fromEntries([...abuseTally.byKind].map(([k, m]) => [k, Object.fromEntries(m)])),
      streams: abuseStreams.length,
    },
    assetBytes,
    cores: (() => {
      const d = process.cpuUsage(cpuAtStart);
      return (d.user + d.system) / 1e6 / ((performance.now() - t0) / 1000);
    })(),
    lag: loopLag(loadLag),
  };
  tally.closed = true;
  for (const s of abuseStreams) s.close();
  for (const p of phones) p.stream?.close();
  for (const c of clients) c.close();
  await venue.stop();
  await new Promise<void>((resolve) => process.send!({ type: 'report', report }, () => resolve()));
}

/* ---------------------------------------------------------------- the servers */

type PhaseStats = {
  phase: Phase;
  seconds: number;
  lag: { p50: number; p99: number; max: number };
  cores: number;
  rssStart: number;
  rssEnd: number;
  heapEnd: number;
  streamsEnd: number;
};
type ServerStats = {
  baseline: { rss: number; heap: number };
  phases: PhaseStats[];
  rssMax: number;
  /** RSS bytes per open stream while phones arrive (least squares past the first tenth of them): warm-up left out. */
  perStream: number;
};

/** The slope of RSS against open streams, from the samples past the first tenth of the streams. */
function rssPerStream(samples: { rss: number; streams: number }[]): number {
  const last = samples.at(-1)?.streams ?? 0;
  const xs = samples.filter((x) => x.streams >= last / 10);
  if (xs.length < 3) return NaN;
  const mx = xs.reduce((n, x) => n + x.streams, 0) / xs.length;
  const my = xs.reduce((n, x) => n + x.rss, 0) / xs.length;
  const cov = xs.reduce((n, x) => n + (x.streams - mx) * (x.rss - my), 0);
  const v = xs.reduce((n, x) => n + (x.streams - mx) ** 2, 0);
  return v ? cov / v : NaN;
}

/** One server with the product's limits; measures itself per phase of the load. */
async function runServer(): Promise<void> {
  const limits = Object.fromEntries(LIMIT_ENV.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));
  const { app, url, setup } = await startBenchServer({
    env: { ...limits, QUEUE_MAX },
    config: { attendeeDist: ATTENDEE_DIST },
  });
  const gcNow = () => (globalThis as { gc?: () => void }).gc?.();
  const lag = loopMonitor();
  const phases: PhaseStats[] = [];
  let current: { phase: Phase; start: number; cpu: NodeJS.CpuUsage; rss: number } | null = null;
  let rssMax = 0;
  const arrivalSamples: { rss: number; streams: number }[] = [];
  const sampler = setInterval(() => {
    const rss = process.memoryUsage().rss;
    rssMax = Math.max(rssMax, rss);
    if (current?.phase === 'arrival') arrivalSamples.push({ rss, streams: app.deps.attendeeFeed.size() });
  }, 1000);
  gcNow();
  const baseline = { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
  const close = () => {
    if (!current) return;
    const m = process.memoryUsage();
    const d = process.cpuUsage(current.cpu);
    const seconds = (performance.now() - current.start) / 1000;
    phases.push({
      phase: current.phase,
      seconds,
      lag: loopLag(lag),
      cores: (d.user + d.system) / 1e6 / seconds,
      rssStart: current.rss,
      rssEnd: m.rss,
      heapEnd: m.heapUsed,
      streamsEnd: app.deps.attendeeFeed.size(),
    });
  };
  process.on('message', (m: { type: string; phase?: Phase }) => {
    if (m.type === 'phase') {
      close();
      if (m.phase === 'hold') gcNow();
      lag.disable();
      lag.reset();
      lag.enable();
      current = { phase: m.phase!, start: performance.now(), cpu: process.cpuUsage(), rss: process.memoryUsage().rss };
    }
    if (m.type === 'stop') {
      close();
      clearInterval(sampler);
      const stats: ServerStats = { baseline, phases, rssMax, perStream: rssPerStream(arrivalSamples) };
      process.send!({ type: 'stats', stats }, () => void app.close().then(() => process.exit(0)));
    }
  });
  process.send!({ type: 'listening', url, setup });
}

/* ---------------------------------------------------------------- the parent */

function waitFor<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string } & Record<string, unknown>) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`${type}: process exited (${code})`)));
  });
}

async function runParent(): Promise<void> {
  if (!existsSync(path.join(ATTENDEE_DIST, 'index.html')))
    throw new Error('No apps/attendee/dist: run npm run build first');
  const fds = openFileLimit();
  // Each phone holds a stream; the load also keeps API sockets (256 per server) and the venue's.
  if (fds < FANS + 256 * INSTANCES + 200)
    throw new Error(`open files limit ${fds} is too low for ${FANS} streams: raise it (ulimit -n) first`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-bench-fans-'));
  let dropDb = async () => {};
  const env: Record<string, string> = { BENCH_ROLE: 'server', BENCH_DATA_DIR: dataDir };
  if (DB === 'postgres') {
    const base =
      process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const db = await createPgDatabase(base, 'benchfans');
    env.BENCH_DATABASE_URL = db.url;
    dropDb = db.drop;
  }
  if (INSTANCES > 1) {
    env.BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    env.BENCH_REDIS_PREFIX = `bench-${randomBytes(5).toString('hex')}`;
  }
  console.log(
    `fans bench: ${FANS} phones arriving at ${ARRIVAL_RATE}/s (${RETURNING * 100} % returning), ${JOINS} joins at ${JOIN_RATE}/s, ${AFTER_S} s after, ` +
      `${CAMERAS} cameras at ${PHOTO_RATE} photos/s, QUEUE_MAX ${QUEUE_MAX}, ${DB}, ${INSTANCES} instance(s); open files ${fds}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const servers: ChildProcess[] = [];
  const urls: string[] = [];
  let setup: BenchSetup | undefined;
  for (let i = 0; i < INSTANCES; i++) {
    const child = fork(import.meta.filename, [], {
      env: { ...process.env, ...env, BENCH_FIRST: i === 0 ? '1' : '0' },
      execArgv: ['--import', 'tsx', '--expose-gc', ...cpuProf(`server-${i + 1}`)],
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
      BENCH_EVENT_ID: setup!.eventId,
    },
    execArgv: ['--import', 'tsx', ...cpuProf('load')],
  });
  const loads: string[] = [];
  load.on('message', (m: { type: string; phase?: Phase }) => {
    if (m.type !== 'phase') return;
    loads.push(`${m.phase} ${os.loadavg()[0].toFixed(1)}`);
    console.log(`phase: ${m.phase} (load average ${os.loadavg()[0].toFixed(1)})`);
    for (const s of servers) s.send(m);
  });
  const { report } = await waitFor<{ report: LoadReport }>(load, 'report');
  const stats = await Promise.all(
    servers.map((s) => {
      const got = waitFor<{ stats: ServerStats }>(s, 'stats');
      s.send({ type: 'stop' });
      return got.then((m) => m.stats);
    }),
  );

  const r = report;
  const rows: [string, string][] = [
    ['phones arrived (fan id) / asked', `${r.arrived} / ${r.phones} in ${r.arrivalSeconds.toFixed(0)} s`],
    [
      'streams held (at the first save) / at the end / dropped',
      `${r.streamsHeld} / ${r.streamsAtEnd} / ${r.streamsDropped}`,
    ],
    ['app files fetched (first visits, bytes on the wire)', mb(r.assetBytes)],
    ...r.saves.map((s): [string, string] => [
      `template save ${s.label}: delivered p50 / p99 / max`,
      `${ms(s.p50)} / ${ms(s.p99)} / ${ms(s.max)} to ${s.got} of ${s.streams} streams (save answered in ${ms(s.answerMs)})`,
    ]),
    [
      `joins (${r.joins.n} in ${r.joins.seconds.toFixed(1)} s) p50 / p99 / max`,
      `${ms(r.joins.p50)} / ${ms(r.joins.p99)} / ${ms(r.joins.max)} (queue full: ${r.joins.queueFull}, no answer by the end: ${r.joins.unanswered})`,
    ],
    [
      'join to photo on the phone p50 / p99',
      `${ms(r.photoWait.p50)} / ${ms(r.photoWait.p99)} (${r.photoWait.n} photos)`,
    ],
    ['photos opened / shared / still waiting at the end', `${r.photos} / ${r.shares} / ${r.stillWaiting}`],
    ['stream pushes received (besides template)', JSON.stringify(r.pushes)],
    [
      'failures (5xx, 429, no answer)',
      `${r.failures}${r.failureSamples.length ? ` e.g. ${[...new Set(r.failureSamples)].join(', ')}` : ''}`,
    ],
    [
      `${ABUSERS} phone(s) in a loop during the burst (every ${ABUSE_EVERY_MS} ms: a stream, a made-up id, a 1 MB body): answers`,
      `${Object.entries(r.abuse.answers)
        .map(
          ([kind, m]) =>
            `${kind.replace('abuse: ', '')} ${Object.entries(m)
              .map(([s, n]) => `${s} × ${n}`)
              .join(', ')}`,
        )
        .join('; ')} (streams held ${r.abuse.streams})`,
    ],
    ['load process CPU (cores, whole run) / lag p99', `${r.cores.toFixed(2)} / ${r.lag.p99.toFixed(1)} ms`],
    ...stats.flatMap((x, i): [string, string][] => {
      const hold = x.phases.find((p) => p.phase === 'hold');
      const streams = hold?.streamsEnd ?? 0;
      const growth = (hold?.rssStart ?? x.baseline.rss) - x.baseline.rss;
      return [
        [
          `instance ${i + 1}: RSS before phones / with ${streams} streams / max`,
          `${mb(x.baseline.rss)} / ${mb(hold?.rssStart ?? 0)} / ${mb(x.rssMax)} (growth ${mb(growth)}: ${streams ? mb((growth / streams) * 1000) : '-'} per 1,000 streams; slope while arriving ${mb(x.perStream * 1000)} per 1,000)`,
        ],
        ...x.phases.map((p): [string, string] => [
          `instance ${i + 1}, ${p.phase} (${p.seconds.toFixed(0)} s): lag p50 / p99 / max, CPU`,
          `${p.lag.p50.toFixed(1)} / ${p.lag.p99.toFixed(1)} / ${p.lag.max.toFixed(0)} ms, ${p.cores.toFixed(2)} cores, RSS ${mb(p.rssEnd)}, heap ${mb(p.heapEnd)}`,
        ]),
      ];
    }),
  ];
  console.log('\n| measure | value |\n|---|---|');
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  console.log('\nanswers by kind and status:');
  for (const [kind, m] of Object.entries(r.answers))
    console.log(
      `  ${kind}: ${Object.entries(m)
        .map(([s, n]) => `${s} × ${n}`)
        .join(', ')}`,
    );
  console.log(
    `\nload average at each phase: ${loads.join(', ')}; at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
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
