import { spawn } from 'node:child_process';
import { createServer, connect, type Socket as NetSocket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MSG, camerasRoutes, devicesRoutes, type PhotoMetadata } from '@stadiumcam/contract';
import { createTestApp, describeEachDb, DEVICE_TOKEN, type TestApp } from '../../test/harness.ts';
import { configFromEnv, deviceTokenProblem } from '../../config.ts';
import { SocketPool, ask, listenUrl, next, uploadPhoto, type TestHost } from '../../test/realtime.ts';
import type { HostRef } from '../cameras/cameras.service.ts';
import { userSnapshots } from '../snapshots/snapshots.repository.ts';
import { DEVICE_TOKEN_FAILURES } from './device-gate.ts';
import { HOST_PROBE_MS } from './host-binding.ts';

/**
 * A TCP relay in front of a server whose connections can be frozen: nothing passes any more but
 * no side is closed, as when a host's network is cut (the server learns of it only from a ping
 * that is never answered).
 */
async function freezableRelay(port: number) {
  const pairs: [NetSocket, NetSocket][] = [];
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.pipe(upstream).pipe(client);
    pairs.push([client, upstream]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    freeze: () => {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise((r) => server.close(r));
    },
  };
}

const hostOf = (t: TestApp, camera: string) => t.app.deps.cameras.hostOf(camera) as HostRef;
const photo = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: '#246' } })
    .jpeg()
    .toBuffer();

describeEachDb('camera hosts: one connection per host id (issue 27 §8)', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    url = await listenUrl(t());
  });
  afterAll(() => pool.closeAll());

  it('refuses a second connection with a connected host id; the host keeps its cameras and commands', async () => {
    const cookie = await t().adminCookie();
    const host = await pool.host('host-bound', [{ camera: 'hb1' }]);
    const console = await pool.console(cookie);
    const powers: unknown[] = [];
    console.on('monitor power', (p) => powers.push(p));

    await expect(pool.host('host-bound', null)).rejects.toThrow(MSG.devices.hostIdInUse('host-bound'));
    // The same id, a hello first: refused at the handshake, so it never announces anything.
    await expect(pool.host('host-bound', [{ camera: 'hb1' }])).rejects.toThrow(MSG.devices.hostIdInUse('host-bound'));

    expect(hostOf(t(), 'hb1').socket?.id).toBe(host.id);
    expect((await t().call(camerasRoutes.status, { cookie })).body.cameras).toMatchObject({ hb1: 'on' });
    // Commands for its cameras still reach the first connection, and only it.
    host.on('ptz', (_p, ack) => ack({ ok: true, answer: '1,2,0.5' }));
    expect(await ask(console, 'rover get position', { target: 'host', camera: 'hb1' })).toMatchObject({
      ok: true,
      position: '1,2,0.5',
    });
    expect(powers).toEqual([]);
  });

  it('refuses a hello announcing a camera that another connected host serves', async () => {
    await pool.host('host-owner', [{ camera: 'ho1' }]);
    await expect(pool.host('host-thief', [{ camera: 'ho2' }, { camera: 'ho1' }])).rejects.toThrow(
      MSG.devices.cameraServedByHost('ho1', 'host-owner'),
    );
    expect(hostOf(t(), 'ho1').hostId).toBe('host-owner');
    expect(t().app.deps.cameras.get('ho2')).toBeUndefined();
  });

  it('takes a host back at once after its network was cut: the silent connection is dropped', async () => {
    const relay = await freezableRelay(Number(new URL(url).port));
    const viaRelay = new SocketPool(() => relay.url);
    try {
      const before = await viaRelay.host('host-cut', [{ camera: 'hc1' }]);
      expect(hostOf(t(), 'hc1').socket?.id).toBe(before.id);
      const console = await pool.console(await t().adminCookie());
      const left = next<{ hostId: string }>(console, 'monitor socket disconnected', (p) => p.hostId === 'host-cut');
      relay.freeze();
      // The host reconnects on its new network path with the same id.
      const started = Date.now();
      const after = await pool.host('host-cut', [{ camera: 'hc1' }]);
      // Within the probe, far below socket.io's ping timeout (45 s) that would drop it otherwise.
      expect(Date.now() - started).toBeLessThan(HOST_PROBE_MS + 10_000);
      await left;
      expect(hostOf(t(), 'hc1').socket?.id).toBe(after.id);
      expect(t().app.deps.cameras.get('hc1')?.status).toBe('on');
    } finally {
      viaRelay.closeAll();
      await relay.close();
    }
  });

  it('refuses a photo dated more than a day ahead and stores nothing; a clock a little ahead is fine', async () => {
    await pool.host('host-dates', [{ camera: 'hd1' }]);
    const meta = (date: Date): PhotoMetadata => ({
      slugDate: 'stadiumcam',
      userId: 'fan-dates',
      camera: 'hd1',
      section: '104',
      row: 'F',
      seat: '12',
      date: date.toISOString(),
    });
    const count = async () => (await userSnapshots(t().app.deps.db, 'fan-dates')).length;
    const folders = () => readdir(path.join(t().config.mediaDir, 'stadiumcam')).catch(() => []);
    const [rowsBefore, foldersBefore] = [await count(), (await folders()).length];
    const ahead = await uploadPhoto(url, {
      metadata: meta(new Date(Date.now() + 25 * 60 * 60 * 1000)),
      image: await photo(),
    });
    expect(ahead).toEqual({ status: 400, body: { error: MSG.devices.futureCaptureDate } });
    expect(await count()).toBe(rowsBefore);
    expect((await folders()).length).toBe(foldersBefore);

    const slightly = await uploadPhoto(url, {
      metadata: meta(new Date(Date.now() + 60 * 60 * 1000)),
      image: await photo(),
    });
    expect(slightly.status).toBe(200);
    expect(await count()).toBe(rowsBefore + 1);
  });
});

describe('wrong device tokens are throttled per address (issue 27 §8)', () => {
  let t: TestApp;
  let url = '';
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    t = await createTestApp('pglite');
    url = await listenUrl(t);
  });
  afterAll(async () => {
    pool.closeAll();
    await t?.close();
  });

  it(`refuses an address after ${DEVICE_TOKEN_FAILURES} wrong tokens a minute, sockets and uploads alike`, async () => {
    const wrongUpload = () => uploadPhoto(url, { metadata: '{}', image: Buffer.from('x'), token: 'wrong-token' });
    for (let i = 0; i < DEVICE_TOKEN_FAILURES / 2; i++) {
      await expect(pool.host(`guess-${i}`, null, `wrong-${i}`)).rejects.toThrow(MSG.devices.invalidDeviceToken);
      expect(await wrongUpload()).toEqual({ status: 401, body: { error: MSG.devices.invalidDeviceToken } });
    }
    // Past the limit even the right token is not looked at from this address.
    await expect(pool.host('guess-more', null, 'wrong-again')).rejects.toThrow(MSG.devices.tooManyWrongTokens);
    await expect(pool.host('right-but-late', null, DEVICE_TOKEN)).rejects.toThrow(MSG.devices.tooManyWrongTokens);
    const form = new FormData();
    form.append('metadata', '{}');
    const res = await fetch(`${url}${devicesRoutes.uploadPhoto.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEVICE_TOKEN}` },
      body: form,
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(await res.json()).toEqual({ error: MSG.devices.tooManyWrongTokens });
    // Another address is not held back by this one's guesses.
    expect(await t.app.deviceGate!.check(DEVICE_TOKEN, '192.0.2.10')).toBeNull();
  });
});

const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('several instances on one Redis: a host id is bound across them (issue 27 §8)', () => {
  let a: TestApp;
  let b: TestApp;
  let urlA = '';
  let urlB = '';
  const onA = new SocketPool(() => urlA);
  const onB = new SocketPool(() => urlB);
  beforeAll(async () => {
    const redis = { url: REDIS, prefix: `host-binding-${randomBytes(4).toString('hex')}` };
    a = await createTestApp('pglite', { redis });
    b = await createTestApp('pglite', { redis });
    urlA = await listenUrl(a);
    urlB = await listenUrl(b);
  });
  afterAll(async () => {
    onA.closeAll();
    onB.closeAll();
    await a?.close();
    await b?.close();
  });

  it('refuses the id on the other instance while the host answers; takes it there once the host is cut off', async () => {
    const relay = await freezableRelay(Number(new URL(urlA).port));
    const viaRelay = new SocketPool(() => relay.url);
    try {
      const first = await viaRelay.host('host-shared', [{ camera: 'hs1' }]);
      expect(hostOf(a, 'hs1').socket?.id).toBe(first.id);
      await expect(onB.host('host-shared', null)).rejects.toThrow(MSG.devices.hostIdInUse('host-shared'));
      expect(hostOf(a, 'hs1').socket?.id).toBe(first.id);

      relay.freeze();
      const moved: TestHost = await onB.host('host-shared', [{ camera: 'hs1' }]);
      expect(hostOf(b, 'hs1').socket?.id).toBe(moved.id);
      // A dropped its silent connection; B's word counts there too.
      await expect.poll(() => hostOf(a, 'hs1').socket ?? null, { timeout: 10_000 }).toBeNull();
      // And now A refuses the id while B's connection answers.
      await expect(onA.host('host-shared', null)).rejects.toThrow(MSG.devices.hostIdInUse('host-shared'));
    } finally {
      viaRelay.closeAll();
      await relay.close();
    }
  });
});

describe('DEVICE_TOKEN at start (issue 27 §8)', () => {
  it('takes 32 characters or more, a short one in development, and an unset one (the simulator gets its own)', () => {
    expect(deviceTokenProblem({ DEVICE_TOKEN: 'x'.repeat(32) })).toBeNull();
    expect(deviceTokenProblem({})).toBeNull();
    expect(configFromEnv({}).deviceToken).toHaveLength(32);
    expect(deviceTokenProblem({ DEVICE_TOKEN: 'short', NODE_ENV: 'development' })).toBeNull();
    expect(deviceTokenProblem({ DEVICE_TOKEN: 'x'.repeat(31), NODE_ENV: 'production' })).toMatch(
      /^DEVICE_TOKEN must be at least 32 characters \(it has 31\)/,
    );
  });

  it('refuses to start with a short DEVICE_TOKEN: one line, exit 1, the token not printed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-token-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../../../../..'),
      env: { ...process.env, DATA_DIR: dir, DEVICE_TOKEN: 'venue-2024', NODE_ENV: '', SIMULATOR: 'off', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    await rm(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.trim() && !l.includes('ExperimentalWarning'));
    expect(lines).toEqual([
      '  Cannot start: DEVICE_TOKEN must be at least 32 characters (it has 10): set a long random value (openssl rand -hex 32), or leave it unset for the built-in simulator',
    ]);
    expect(stderr).not.toContain('venue-2024');
  }, 120_000);
});
