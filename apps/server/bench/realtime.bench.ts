/**
 * Realtime at venue scale (issue 4, point 7). The parent process runs one server (PGlite)
 * and measures its event-loop lag and memory; a child process plays the load: the venue
 * simulator with 8 cameras at 5 fps and about 10 photos/s, and 50 console sockets that
 * joined every camera's stream and the event. The child counts frames delivered and the
 * upload-to-console latency of new snapshots (capture time on the host to arrival at a
 * console; one clock, both in the child). Figures go to docs/bench-realtime.md by hand.
 *
 *   npm run bench:realtime                 (5 minutes)
 *   BENCH_SECONDS=60 npm run bench:realtime
 *
 * BENCH_CONSOLES (50), BENCH_CAMERAS (8), BENCH_FPS (5), BENCH_PHOTO_RATE (10 per second).
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const CONSOLES = Number(process.env.BENCH_CONSOLES ?? 50);
const CAMERAS = Number(process.env.BENCH_CAMERAS ?? 8);
const FPS = Number(process.env.BENCH_FPS ?? 5);
const PHOTO_RATE = Number(process.env.BENCH_PHOTO_RATE ?? 10);
const WARMUP_S = SECONDS >= 30 ? 10 : 3;
const TOKEN = 'bench-device-token';
const PASSWORD = 'bench-admin-password';

type LoadReport = {
  seconds: number;
  framesDelivered: number;
  framesPerConsole: number;
  snapshotsSeen: number;
  latencies: number[];
  uploads: number;
  crowd: Record<string, number>;
};

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function runLoad(): Promise<void> {
  const { io } = await import('socket.io-client');
  type Socket = ReturnType<typeof io>;
  const { startVenue } = await import('@stadiumcam/venue-sim');
  const url = process.env.BENCH_URL!;
  const cookie = process.env.BENCH_COOKIE!;
  const slugDate = process.env.BENCH_SLUGDATE!;
  const cameras = Array.from({ length: CAMERAS }, (_, i) => `cam${i + 1}`);
  let measuring = false;
  let frames = 0;
  let snapshots = 0;
  const latencies: number[] = [];
  const sockets: Socket[] = [];
  for (let i = 0; i < CONSOLES; i++) {
    const s: Socket = io(`${url}/console`, { transports: ['websocket'], extraHeaders: { cookie }, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    await s.timeout(30_000).emitWithAck('select events', [slugDate]);
    s.on('livestream', () => {
      if (measuring) frames++;
    });
    s.on('monitor newSnapshot', (snap: { date: string }) => {
      if (!measuring) return;
      snapshots++;
      latencies.push(Date.now() - Date.parse(snap.date));
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
    deviceToken: TOKEN,
    seed: 2024,
    hosts: Math.ceil(CAMERAS / perHost),
    camerasPerHost: perHost,
    fps: FPS,
    attendeeRate: PHOTO_RATE,
    // Enough camera capacity for the photo rate: each camera does 1 / turn photos per second.
    turnMs: Math.floor((CAMERAS / (PHOTO_RATE * 1.15)) * 1000),
    suspiciousShare: 0.02,
  });
  await allKnown;
  for (const s of sockets) {
    for (const camera of cameras) {
      const answer = await s.timeout(30_000).emitWithAck('join monitor livestream', { room: slugDate, camera });
      if (!answer.ok) throw new Error(`join ${camera}: ${answer.error}`);
    }
  }
  process.send!({ type: 'ready' });
  await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
  measuring = true;
  const uploadsBefore = venue.hosts.reduce((n, h) => n + h.uploads, 0);
  const started = performance.now();
  process.send!({ type: 'measuring' });
  await new Promise((r) => setTimeout(r, (SECONDS - WARMUP_S) * 1000));
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  const report: LoadReport = {
    seconds,
    framesDelivered: frames,
    framesPerConsole: frames / CONSOLES,
    snapshotsSeen: snapshots / CONSOLES,
    latencies: latencies.sort((a, b) => a - b),
    uploads: venue.hosts.reduce((n, h) => n + h.uploads, 0) - uploadsBefore,
    crowd: { ...venue.crowd.stats },
  };
  for (const s of sockets) s.disconnect();
  await venue.stop();
  await new Promise<void>((resolve) => process.send!({ type: 'report', report }, () => resolve()));
}

async function runServer(): Promise<void> {
  const { buildApp } = await import('../src/app.ts');
  const { configFromEnv } = await import('../src/config.ts');
  const { ensureTodayEventLive } = await import('../src/modules/events/events.service.ts');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-bench-rt-'));
  const app = await buildApp(
    {
      ...configFromEnv({}),
      // Attendees all come from this machine: lift the per-address limit for the run.
      publicRateLimit: Number(process.env.PUBLIC_RATE_LIMIT) || 1_000_000,
      dataDir,
      pgliteDir: 'memory://',
      mediaDir: path.join(dataDir, 'media'),
      outboxDir: path.join(dataDir, 'outbox'),
      adminPassword: PASSWORD,
      deviceToken: TOKEN,
      publicUrl: 'http://127.0.0.1',
      webDist: path.join(dataDir, 'no-web'),
      attendeeDist: path.join(dataDir, 'no-attendee'),
      logLevel: 'warn',
      trustProxy: false,
    },
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const event = await ensureTodayEventLive(app.deps);
  const login = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const sid = login.cookies.find((c) => c.name === 'sid')!.value;

  console.log(
    `realtime bench: ${SECONDS} s (${WARMUP_S} s warm-up), ${CAMERAS} cameras x ${FPS} fps, ${PHOTO_RATE} photos/s, ${CONSOLES} consoles`,
  );
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const memory: { t: number; rss: number; heap: number }[] = [];
  let sampler: NodeJS.Timeout | undefined;
  const hub = app.deps.cameras;
  let framesAtStart = 0;

  const child = fork(import.meta.filename, [], {
    env: {
      ...process.env,
      BENCH_ROLE: 'load',
      BENCH_URL: url,
      BENCH_COOKIE: `sid=${sid}`,
      BENCH_SLUGDATE: event.slugDate,
    },
    execArgv: ['--import', 'tsx'],
  });
  const report = await new Promise<LoadReport>((resolve, reject) => {
    child.on('message', (m: { type: string; report?: LoadReport }) => {
      if (m.type === 'ready') console.log('load ready: consoles joined, venue running');
      if (m.type === 'measuring') {
        lag.enable();
        framesAtStart = hub.counters.framesIn;
        const t0 = performance.now();
        const sample = () => {
          const u = process.memoryUsage();
          memory.push({ t: Math.round((performance.now() - t0) / 1000), rss: u.rss, heap: u.heapUsed });
        };
        sample();
        sampler = setInterval(sample, 5000);
      }
      if (m.type === 'report' && m.report) resolve(m.report);
    });
    child.on('exit', (code) => reject(new Error(`load process exited (${code})`)));
  });
  lag.disable();
  clearInterval(sampler);
  const framesIn = hub.counters.framesIn - framesAtStart;

  const s = report.seconds;
  const lat = report.latencies;
  const rows: [string, string][] = [
    ['measured', `${s.toFixed(0)} s`],
    ['frames from hosts', `${(framesIn / s).toFixed(1)} /s (ideal ${CAMERAS * FPS})`],
    [
      'frames delivered (all consoles)',
      `${(report.framesDelivered / s).toFixed(0)} /s (ideal ${CAMERAS * FPS * CONSOLES})`,
    ],
    ['frames per console', `${(report.framesPerConsole / s).toFixed(1)} /s`],
    ['photos uploaded', `${(report.uploads / s).toFixed(2)} /s`],
    ['new snapshots per console', `${(report.snapshotsSeen / s).toFixed(2)} /s`],
    ['upload-to-console latency p50', `${pct(lat, 50).toFixed(0)} ms`],
    ['upload-to-console latency p99', `${pct(lat, 99).toFixed(0)} ms`],
    ['event-loop lag p50 (server)', `${(lag.percentile(50) / 1e6).toFixed(1)} ms`],
    ['event-loop lag p99 (server)', `${(lag.percentile(99) / 1e6).toFixed(1)} ms`],
    ['event-loop lag max (server)', `${(lag.max / 1e6).toFixed(1)} ms`],
    [
      'server RSS min / max / end',
      memory.length
        ? `${mb(Math.min(...memory.map((m) => m.rss)))} / ${mb(Math.max(...memory.map((m) => m.rss)))} / ${mb(memory.at(-1)!.rss)}`
        : '-',
    ],
    [
      'server heap min / max / end',
      memory.length
        ? `${mb(Math.min(...memory.map((m) => m.heap)))} / ${mb(Math.max(...memory.map((m) => m.heap)))} / ${mb(memory.at(-1)!.heap)}`
        : '-',
    ],
    [
      'attendees (joined / photos found / overlays / shares / refused)',
      `${report.crowd.joined} / ${report.crowd.photos} / ${report.crowd.overlays} / ${report.crowd.shares} / ${report.crowd.refused}`,
    ],
  ];
  console.log('\n| measure | value |\n|---|---|');
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  console.log(
    '\nmemory samples (s: rss / heap):',
    memory.map((m) => `${m.t}: ${mb(m.rss)} / ${mb(m.heap)}`).join(', '),
  );
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}

if (process.env.BENCH_ROLE === 'load') {
  await runLoad();
  process.exit(0);
} else {
  await runServer();
  process.exit(0);
}
