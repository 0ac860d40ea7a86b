import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, DEVICE_TOKEN } from './test/harness.ts';
import { cutProxy } from './test/cut-proxy.ts';
import { startVenue } from '@stadiumcam/venue-sim';
import { ask, next, SocketPool, uploadPhoto, type TestConsole, type TestHost, freePort } from './test/realtime.ts';

/**
 * Issue 15 §1 and §3 (DESIGN §13, docs/operations.md "Several instances"): two real server
 * processes on one PostgreSQL database and the machine's Redis behave as one. A camera host on
 * A, consoles on B and on A; then A is killed with SIGKILL and the host moves to B.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const ADMIN_PASSWORD = 'cluster-test-password';
const DATABASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

type Instance = { url: string; kill: () => void; exited: Promise<number | null>; out: { text: string } };

function startInstance(env: Record<string, string>): Promise<Instance> {
  return freePort().then((port) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        SIMULATOR: 'off',
        LOG_LEVEL: 'info',
        DEVICE_TOKEN,
        ADMIN_PASSWORD,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { text: '' };
    child.stdout.on('data', (d: Buffer) => (out.text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out.text += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    return { url: `http://127.0.0.1:${port}`, kill: () => child.kill('SIGKILL'), exited, out };
  });
}

async function ready(instance: Instance): Promise<void> {
  // Not expect.poll: beforeAll runs outside a test.
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    if ((await fetch(`${instance.url}/readyz`).catch(() => null))?.status === 200) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`instance not ready:\n${instance.out.text}`);
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

const cameraOf = async (url: string, cookie: string, camera: string) => {
  const res = await fetch(`${url}/api/cameras/monitor`, { headers: { cookie } });
  const body = (await res.json()) as { cameras: { camera: string; status: string }[] };
  return body.cameras.find((c) => c.camera === camera)?.status ?? 'unknown';
};

/** Fails with `label` when `promise` has not settled in `ms` (a silent wait says nothing). */
function within<T>(label: string, promise: Promise<T>, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`waited ${ms} ms for: ${label}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A camera host that answers every command and records what it was told. */
function recordCommands(host: TestHost, told: { event: string; payload: unknown }[]): void {
  for (const event of ['power', 'ptz', 'kick', 'ban', 'snooze'] as const) {
    (host as unknown as { on: (e: string, l: (p: unknown, ack?: (a: unknown) => void) => void) => void }).on(
      event,
      (payload, ack) => {
        told.push({ event, payload });
        ack?.({ ok: true, answer: event === 'ptz' ? '100,200,1' : '' });
      },
    );
  }
}

describe('two instances on one PostgreSQL and one Redis (issue 15 §3)', () => {
  let dataDir = '';
  let drop = async () => {};
  const env: Record<string, string> = {};
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-cluster-'));
    const db = await createPgDatabase(DATABASE);
    drop = db.drop;
    // One media folder (a shared disk here; S3 in production), one database, one Redis prefix.
    Object.assign(env, {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      REDIS_URL: REDIS,
      REDIS_PREFIX: `t-${randomBytes(6).toString('hex')}`,
    });
    // One after the other: the first runs the migrations.
    a = await startInstance(env);
    await ready(a);
    b = await startInstance(env);
    await ready(b);
  }, 240_000);

  afterAll(async () => {
    a?.kill();
    b?.kill();
    await Promise.all([a?.exited, b?.exited]);
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a console on B sees and commands the simulator’s host on A, bans reach A, and after A is killed the host reconnects to B', async () => {
    // The venue reaches the instances through a proxy, as it would through a load balancer.
    const proxy = await cutProxy('127.0.0.1', Number(new URL(a.url).port));
    const onA = new SocketPool(() => a.url);
    const onB = new SocketPool(() => b.url);
    let venue: Awaited<ReturnType<typeof startVenue>> | undefined;
    try {
      const cookie = await login(b.url);
      const consoleB: TestConsole = await onB.console(cookie, ['stadiumcam']);
      const consoleA: TestConsole = await onA.console(cookie, ['stadiumcam']);

      const seenOnB = next<{ camera: string; status: string }>(consoleB, 'monitor camera', (s) => s.camera === 'cam1');
      venue = await startVenue({
        serverUrl: `http://127.0.0.1:${proxy.port}`,
        deviceToken: DEVICE_TOKEN,
        seed: 15,
        hosts: 1,
        camerasPerHost: 2,
        fps: 3,
        attendeeRate: 0,
        powerDelayMs: 50,
      });
      // A's console fan-out reaches B's console, and B's registry knows the cameras.
      expect((await within('cam1 on B', seenOnB)).status).toBe('on');
      await expect.poll(() => cameraOf(b.url, cookie, 'cam2'), { timeout: 10_000 }).toBe('on');

      // Frames from A's host reach a console on B.
      expect(await ask(consoleB, 'join monitor livestream', { room: 'monitor', camera: 'cam1' })).toEqual({ ok: true });
      const frame = await within(
        'a frame on B',
        next<{ camera: string; frame: Buffer }>(consoleB, 'livestream', (f) => f.camera === 'cam1'),
      );
      expect(Buffer.from(frame.frame).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

      // B's MagicShot reaches the host on A; the photo it uploads through A shows on B's console
      // (the host answers once the upload is done, so the console listens first).
      const arrived: { _id: string; userId: string; thumbURI: string }[] = [];
      consoleB.on('monitor newSnapshot', (p) => arrived.push(p));
      const shot = await ask(consoleB, 'take MagicShot', { slug: 'stadiumcam', camera: 'cam2' });
      expect(shot).toMatchObject({ ok: true, cameras: ['cam2'] });
      const userId = (shot.shots as { userId: string }[])[0].userId;
      await expect.poll(() => arrived.some((p) => p.userId === userId), { timeout: 10_000 }).toBe(true);
      const photo = arrived.find((p) => p.userId === userId)!;

      // B's commands reach the host on A, with its answer.
      const position = await ask(consoleB, 'rover get position', { camera: 'cam1' });
      expect(position.ok).toBe(true);
      expect(String(position.position)).toMatch(/^-?\d+,-?\d+,[\d.]+$/);
      // A move from B lands on A's host: its answer is where the camera now points.
      const moved = await ask(consoleB, 'rover move', { target: 'host', camera: 'cam1', command: '!120,-40,0.5' });
      expect(moved).toMatchObject({ ok: true, answer: expect.stringMatching(/^-?\d+,-?\d+,0\.5$/) });
      expect((await ask(consoleB, 'rover get position', { camera: 'cam1' })).position).toBe(moved.answer);
      expect(await ask(consoleB, 'boot user', { userId: 'nobody-in-queue' })).toEqual({ ok: true });
      const off = next<{ camera: string; status: string }>(
        consoleB,
        'monitor camera',
        (s) => s.camera === 'cam1' && s.status === 'off',
      );
      expect(await ask(consoleB, 'power camera', { camera: 'cam1', on: false })).toMatchObject({ ok: true });
      await within('cam1 off on B', off);

      // A ban on B hides the photo for a console on A (new URLs: the old one is gone).
      const hidden = next<{ userId?: string; hidden: boolean }>(consoleA, 'bannedChanged', (p) => p.userId === userId);
      expect(await ask(consoleB, 'ban user', { userId })).toEqual({ ok: true });
      expect((await within('the ban on A', hidden)).hidden).toBe(true);
      expect((await fetch(`${a.url}${photo.thumbURI}`)).status).toBe(404);

      // A dies, and for a while the balancer has nowhere to send the host: B's console is told
      // A's cameras are off (A fell silent). Then the balancer sends new connections to B and the
      // host reconnects by itself.
      const cam2Off = next<{ camera: string; status: string }>(
        consoleB,
        'monitor camera',
        (s) => s.camera === 'cam2' && s.status === 'off',
      );
      proxy.cut();
      a.kill();
      await a.exited;
      await within('cam2 off on B after A died', cam2Off);
      proxy.retarget('127.0.0.1', Number(new URL(b.url).port));
      proxy.restore();
      await expect.poll(() => cameraOf(b.url, cookie, 'cam2'), { timeout: 20_000 }).toBe('on');
      // B's consoles keep working: a command reaches the host through B, frames flow again.
      expect(await ask(consoleB, 'power camera', { camera: 'cam1', on: true })).toMatchObject({ ok: true });
      await expect.poll(() => cameraOf(b.url, cookie, 'cam1'), { timeout: 10_000 }).toBe('on');
      expect(await ask(consoleB, 'join monitor livestream', { room: 'monitor', camera: 'cam1' })).toEqual({ ok: true });
      await within(
        'a frame on B from the moved host',
        next<{ camera: string }>(consoleB, 'livestream', (f) => f.camera === 'cam1'),
      );
      // Nothing A acknowledged is lost: the photo is there, through B.
      expect((await fetch(`${b.url}/api/snapshots/${photo._id}`, { headers: { cookie } })).status).toBe(200);
    } finally {
      await venue?.stop();
      onA.closeAll();
      onB.closeAll();
      await proxy.close();
    }
  }, 180_000);
});

describe('Redis faults (issue 15)', () => {
  it('a REDIS_URL nobody answers stops the start with one clear line', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-noredis-'));
    try {
      const port = await freePort();
      const s = await startInstance({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: `redis://127.0.0.1:${port}` });
      expect(await s.exited).toBe(1);
      expect(s.out.text).toContain(`Cannot start: Redis at redis://127.0.0.1:${port} is unreachable`);
      expect(s.out.text).toContain('(check REDIS_URL)');
      expect(s.out.text.split('\n').filter((l) => l.trim()).length).toBeLessThanOrEqual(3);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('Redis away for a while: the instance keeps serving its own consoles and catches up when Redis returns', async () => {
    // A proxy in front of the machine's Redis that the test can cut and restore.
    const target = new URL(REDIS);
    const proxy = await cutProxy(target.hostname, Number(target.port || 6379));
    const proxyUrl = `redis://127.0.0.1:${proxy.port}`;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-redisdown-'));
    const db = await createPgDatabase(DATABASE);
    const shared = { DATA_DIR: dataDir, DATABASE_URL: db.url, REDIS_PREFIX: `t-${randomBytes(6).toString('hex')}` };
    const viaProxy = await startInstance({ ...shared, REDIS_URL: proxyUrl });
    await ready(viaProxy);
    const other = await startInstance({ ...shared, REDIS_URL: REDIS });
    await ready(other);
    const pool = new SocketPool(() => viaProxy.url);
    const otherPool = new SocketPool(() => other.url);
    try {
      const cookie = await login(viaProxy.url);
      const local = await pool.console(cookie, ['stadiumcam']);
      const remote = await otherPool.console(cookie, ['stadiumcam']);
      const host = await pool.host('host-r', [{ camera: 'r1' }]);
      recordCommands(host, []);
      await expect.poll(() => cameraOf(other.url, cookie, 'r1'), { timeout: 10_000 }).toBe('on');

      proxy.cut();
      // The instance and its own console keep working while Redis is away.
      const meta = { slugDate: 'stadiumcam', userId: 'fan-r', camera: 'r1', section: '1', row: 'A', seat: '1' };
      const seen = next<{ userId: string }>(local, 'monitor newSnapshot', (s) => s.userId === 'fan-r');
      expect(
        (
          await uploadPhoto(viaProxy.url, {
            metadata: meta,
            image: await sharp({ create: { width: 32, height: 32, channels: 3, background: '#000' } })
              .jpeg()
              .toBuffer(),
          })
        ).status,
      ).toBe(200);
      await seen;
      expect(await ask(local, 'rover get position', { camera: 'r1' })).toEqual({ ok: true, position: '100,200,1' });
      expect((await fetch(`${viaProxy.url}/healthz`)).status).toBe(200);
      // Not ready for new work while Redis is away (a load balancer sends it elsewhere), ready after.
      const readyz = await fetch(`${viaProxy.url}/readyz`);
      expect(readyz.status).toBe(503);
      expect(((await readyz.json()) as { checks: { redis: string } }).checks.redis).not.toBe('ok');

      proxy.restore();
      // Cross-instance messages resume: a report on the cut-off instance reaches the other's console.
      await expect
        .poll(
          async () => {
            const got = next<{ camera: string; fps: number }>(
              remote,
              'monitor camera',
              (s) => s.camera === 'r1' && s.fps === 7,
            );
            host.emit('report', { camera: 'r1', fps: 7 });
            return Promise.race([got.then(() => true), new Promise((r) => setTimeout(() => r(false), 1_000))]);
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBe(true);
      await expect.poll(async () => (await fetch(`${viaProxy.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
      expect(viaProxy.out.text).not.toMatch(/Unhandled|uncaught/i);
    } finally {
      pool.closeAll();
      otherPool.closeAll();
      viaProxy.kill();
      other.kill();
      await Promise.all([viaProxy.exited, other.exited]);
      await proxy.close();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
