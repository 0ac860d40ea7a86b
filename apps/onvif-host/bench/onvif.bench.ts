/*
 * Figures for docs/cameras-onvif.md: a server (PGlite in memory), N emulated ONVIF cameras in
 * this process and the ONVIF host as its own process (`main.ts`, as `npm run host:onvif` runs
 * it), so the host's CPU and memory are its own. Measures each camera's frames per second at a
 * console, the host's CPU and RSS over the window, and the time from a fan's join to the photo
 * in their album. Bounded: loopback only, stops by itself.
 *
 *   node --import tsx apps/onvif-host/bench/onvif.bench.ts [cameras=8] [seconds=20] [fans=8]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { attendeeAppRoutes, attendeeRoutes, authRoutes, camerasRoutes } from '@stadiumcam/contract';
import { PAN_LIMIT, SECTIONS, TILT_LIMIT, uploadVenueMap } from '@stadiumcam/venue-sim';
import { buildApp } from '../../server/src/app.ts';
import { configFromEnv } from '../../server/src/config.ts';
import { ensureTodayEventLive } from '../../server/src/modules/events/events.service.ts';
import { SocketPool } from '../../server/src/test/realtime.ts';
import { OnvifEmulator } from '../src/test/onvif-emulator.ts';

const CAMERAS = Number(process.argv[2] ?? 8);
const SECONDS = Number(process.argv[3] ?? 20);
const FANS = Number(process.argv[4] ?? 8);
const TURN_MS = 2000;
const FPS = 3;
const ADMIN = 'bench-admin-password';
const TOKEN = 'bench-device-token';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = await mkdtemp(path.join(os.tmpdir(), 'onvif-bench-'));
const app = await buildApp(
  {
    ...configFromEnv({}),
    dataDir: dir,
    databaseUrl: undefined,
    pgliteDir: 'memory://',
    mediaDir: path.join(dir, 'media'),
    outboxDir: path.join(dir, 'outbox'),
    adminPassword: ADMIN,
    deviceToken: TOKEN,
    logLevel: 'warn',
  },
  { logger: false },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const event = await ensureTodayEventLive(app.deps);

const cams = await Promise.all(
  Array.from({ length: CAMERAS }, (_, i) => new OnvifEmulator({ name: `cam${i + 1}`, password: `pw${i + 1}` }).start()),
);
const config = {
  server: url,
  hostId: 'onvif-bench',
  fps: FPS,
  turnMs: TURN_MS,
  cameras: cams.map((c, i) => ({
    id: `cam${i + 1}`,
    url: c.url,
    username: 'admin',
    passwordEnv: `CAM${i + 1}_PASSWORD`,
    ranges: { pan: [-PAN_LIMIT, PAN_LIMIT], tilt: [-TILT_LIMIT, TILT_LIMIT] },
  })),
};
const configFile = path.join(dir, 'cameras.json');
await writeFile(configFile, JSON.stringify(config));
const env = {
  ...process.env,
  DEVICE_TOKEN: TOKEN,
  ...Object.fromEntries(cams.map((_, i) => [`CAM${i + 1}_PASSWORD`, `pw${i + 1}`])),
};
const child = spawn(process.execPath, ['--import', 'tsx', 'apps/onvif-host/src/main.ts', '--config', configFile], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});

const login = await fetch(`${url}${authRoutes.login.path}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: url },
  body: JSON.stringify({ username: 'admin', password: ADMIN }),
});
const cookie = login.headers
  .getSetCookie()
  .find((c) => c.startsWith('sid='))!
  .split(';')[0];
const get = async (p: string, headers: Record<string, string> = {}) =>
  (await fetch(`${url}${p}`, { headers: { cookie, ...headers } })).json() as Promise<any>;

// All cameras on.
for (let i = 0; ; i++) {
  const { cameras } = await get(camerasRoutes.status.path);
  if (Object.values(cameras ?? {}).filter((s) => s === 'on').length === CAMERAS) break;
  if (i > 300) throw new Error(`cameras not on: ${JSON.stringify(cameras)}`);
  await sleep(100);
}
await uploadVenueMap({
  serverUrl: url,
  technician: { username: 'admin', password: ADMIN },
  cameras: CAMERAS,
  log: console,
});

/** Reads the host process's CPU ticks and RSS from /proc. */
async function proc(): Promise<{ cpuMs: number; rssMb: number }> {
  const stat = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const ticks = Number(stat[11]) + Number(stat[12]);
  return { cpuMs: (ticks * 1000) / 100, rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024 };
}

// Frames per camera at a console that watches every camera.
const pool = new SocketPool(() => url);
const console_ = await pool.console(cookie, [event.slugDate]);
const frames = new Map<string, number>();
console_.on('livestream', (f: { camera: string }) => frames.set(f.camera, (frames.get(f.camera) ?? 0) + 1));
for (let i = 1; i <= CAMERAS; i++)
  await new Promise((r) => console_.emit('join monitor livestream', { room: event.slugDate, camera: `cam${i}` }, r));
await sleep(3000);
frames.clear();
const p0 = await proc();
const t0 = performance.now();
let rssMax = p0.rssMb;
for (let s = 0; s < SECONDS; s++) {
  await sleep(1000);
  rssMax = Math.max(rssMax, (await proc()).rssMb);
}
const p1 = await proc();
const window = (performance.now() - t0) / 1000;
const fps = [...Array(CAMERAS).keys()].map((i) => (frames.get(`cam${i + 1}`) ?? 0) / window);

// Join to album: fans one after another, each to a seat of another camera's sections.
const joinToAlbum: number[] = [];
for (let n = 0; n < FANS; n++) {
  const section = SECTIONS[Math.floor(((n % CAMERAS) + 0.5) * (SECTIONS.length / CAMERAS))];
  const seat = { seatType: 'section', section, row: 'F', seat: String(1 + (n % 20)) };
  let userId = `bench-fan-${n}`;
  let headers: Record<string, string> = {};
  const fan = await fetch(`${url}${attendeeAppRoutes.fan.path}`, { method: 'POST' });
  if (fan.ok) {
    const body = (await fan.json()) as { userId: string; fanToken: string };
    userId = body.userId;
    headers = { 'x-fan-token': body.fanToken };
  }
  const start = performance.now();
  const join = await fetch(`${url}${attendeeRoutes.joinQueue.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ slugDate: event.slugDate, userId, seat }),
  });
  if (!join.ok) throw new Error(`join ${join.status}: ${await join.text()}`);
  for (;;) {
    const list = await get(`${attendeeRoutes.snapshots.path}?slugDate=${event.slugDate}&userId=${userId}`, headers);
    if (Array.isArray(list) && list.length) break;
    if (performance.now() - start > 30_000) throw new Error('photo not in the album within 30 s');
    await sleep(50);
  }
  joinToAlbum.push(performance.now() - start);
}

const sorted = [...joinToAlbum].sort((a, b) => a - b);
const result = {
  cameras: CAMERAS,
  seconds: Math.round(window),
  configuredFps: FPS,
  fpsPerCamera: fps.map((f) => Math.round(f * 100) / 100),
  hostCpuCores: Math.round(((p1.cpuMs - p0.cpuMs) / 1000 / window) * 1000) / 1000,
  hostRssMb: Math.round(p1.rssMb),
  hostRssMaxMb: Math.round(rssMax),
  turnMs: TURN_MS,
  joinToAlbumMs: {
    min: Math.round(sorted[0]),
    median: Math.round(sorted[sorted.length >> 1]),
    max: Math.round(sorted.at(-1)!),
  },
  cores: os.cpus().length,
  loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

child.kill('SIGTERM');
pool.closeAll();
await Promise.all(cams.map((c) => c.stop()));
await app.close();
await rm(dir, { recursive: true, force: true });
process.exit(0);
