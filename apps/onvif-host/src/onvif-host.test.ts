import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  attendeeAppRoutes,
  attendeeRoutes,
  cameraConfigsRoutes,
  camerasRoutes,
  type CameraWithConfigs,
  type Event,
  type Snapshot,
} from '@stadiumcam/contract';
import { PAN_LIMIT, TILT_LIMIT, uploadVenueMap, viewOfSeat } from '@stadiumcam/venue-sim';
import { ADMIN_PASSWORD, DEVICE_TOKEN, describeEachDb, type TestApp } from '../../server/src/test/harness.ts';
import { ensureTodayEventLive } from '../../server/src/modules/events/events.service.ts';
import { SocketPool, ask, freePort, listenUrl, next } from '../../server/src/test/realtime.ts';
import { parseConfig } from './config.ts';
import { OnvifHost, STATE_KEY } from './host.ts';
import { OnvifEmulator } from './test/onvif-emulator.ts';

/** A queue join as the attendee app makes it (a server-issued fan id and token where the server has them). */
async function joinAsFan(t: TestApp, slugDate: string, seat: Record<string, string>) {
  let userId = `fan-onvif-${Math.random().toString(36).slice(2)}`;
  let headers: Record<string, string> = {};
  const fan = await t.call(attendeeAppRoutes.fan, {});
  if (fan.status === 200) {
    userId = fan.body.userId;
    headers = { 'x-fan-token': fan.body.fanToken };
  }
  const res = await t.call(attendeeRoutes.joinQueue, { body: { slugDate, userId, seat } as never, headers });
  return { res, userId, headers };
}

describeEachDb('ONVIF host: the server, the host and emulated cameras', (t) => {
  let url = '';
  let event: Event;
  let host: OnvifHost;
  const pool = new SocketPool(() => url);
  const cams: Record<string, OnvifEmulator> = {};
  const logLines: string[] = [];
  let latePort = 0;

  const state = async (camera: string) => {
    const list = (await t().call(cameraConfigsRoutes.list, { cookie: await t().adminCookie() }))
      .body as CameraWithConfigs[];
    return list.find((c) => c.cameraKey === camera)?.configs.find((c) => c.configKey === STATE_KEY)?.configValue;
  };
  const status = async (camera: string) =>
    (
      (await t().call(camerasRoutes.status, { cookie: await t().adminCookie() })).body.cameras as Record<string, string>
    )[camera];

  beforeAll(async () => {
    url = await listenUrl(t());
    event = await ensureTodayEventLive(t().app.deps);
    cams.cam1 = await new OnvifEmulator({ name: 'cam1', password: 'pw-one' }).start();
    cams.cam2 = await new OnvifEmulator({ name: 'cam2', password: 'pw-two' }).start();
    cams.cam4 = await new OnvifEmulator({ name: 'cam4', password: 'pw-four' }).start();
    cams.cam5 = await new OnvifEmulator({ name: 'cam5', password: 'pw-five', ptz: false }).start();
    latePort = await freePort();
    const ranges = { pan: [-PAN_LIMIT, PAN_LIMIT], tilt: [-TILT_LIMIT, TILT_LIMIT] };
    const cam = (id: string, camUrl: string) => ({
      id,
      url: camUrl,
      username: 'admin',
      passwordEnv: `${id.toUpperCase()}_PW`,
      ranges,
    });
    const config = parseConfig(
      {
        server: url,
        hostId: 'onvif-test',
        fps: 3,
        turnMs: 1000,
        moveTimeoutMs: 2000,
        snapshotTimeoutMs: 2000,
        requestTimeoutMs: 2000,
        retryMs: [100, 800],
        cameras: [
          cam('cam1', cams.cam1.url),
          cam('cam2', cams.cam2.url),
          // Nothing listens there yet: unreachable at start.
          cam('cam3', `http://127.0.0.1:${latePort}/onvif/device_service`),
          cam('cam4', cams.cam4.url),
          cam('cam5', cams.cam5.url),
        ],
      },
      {
        DEVICE_TOKEN,
        CAM1_PW: 'pw-one',
        CAM2_PW: 'pw-two',
        CAM3_PW: 'pw-three',
        CAM4_PW: 'not-the-password',
        CAM5_PW: 'pw-five',
      },
    );
    const keep = (level: string) => (obj: unknown, msg?: string) =>
      logLines.push(`${level} ${msg} ${JSON.stringify(obj)}`);
    host = new OnvifHost(config, { info: keep('info'), warn: keep('warn') });
    await host.ready;
    await vi.waitFor(async () => expect([await status('cam1'), await status('cam2')]).toEqual(['on', 'on']), {
      timeout: 20_000,
      interval: 200,
    });
    // The technician's map files: cam1 covers sections 101-116, cam2 201-216 (the simulator's bowl).
    expect(
      await uploadVenueMap({
        serverUrl: url,
        technician: { username: 'admin', password: ADMIN_PASSWORD },
        cameras: 2,
        log: { info: () => {}, warn: (o: unknown, m?: string) => logLines.push(`map ${m} ${JSON.stringify(o)}`) },
      }),
    ).toBe(true);
  });
  afterAll(async () => {
    await host?.stop();
    pool.closeAll();
    await Promise.all(Object.values(cams).map((c) => c.stop().catch(() => undefined)));
  });

  it('a fan joins for a seat: the camera gets an AbsoluteMove to the seat’s mapped position and the photo reaches the album', async () => {
    const console = await pool.console(await t().adminCookie(), [event.slugDate]);
    const seat = { seatType: 'section', section: '210', row: 'G', seat: '13' };
    const moves = cams.cam2.calls.length;
    const photo = next<Snapshot>(console, 'monitor newSnapshot', (s) => s.camera === 'cam2');
    const { res, userId, headers } = await joinAsFan(t(), event.slugDate, seat);
    expect(res.status).toBe(200);
    expect(res.body.camera).toBe('cam2');
    const shot = await photo;
    expect(shot).toMatchObject({ userId, camera: 'cam2', section: '210', row: 'G', seat: '13' });
    const want = viewOfSeat(seat)!;
    const abs = cams.cam2.calls.slice(moves).filter((c) => c.action === 'AbsoluteMove');
    expect(abs).toHaveLength(1);
    expect(abs[0].position!.x).toBeCloseTo(want.pan / PAN_LIMIT, 6);
    expect(abs[0].position!.y).toBeCloseTo(want.tilt / TILT_LIMIT, 6);
    expect(abs[0].position!.zoom).toBeCloseTo(0.8, 6);
    // The still was taken once the camera was there: the bowl seen from that seat's position.
    const at = cams.cam2.snapshots.at(-1)!;
    expect(OnvifEmulator.view(at)).toEqual({ pan: want.pan, tilt: want.tilt, zoom: expect.closeTo(0.8, 6) });
    const album = await t().call(attendeeRoutes.snapshots, {
      query: { slugDate: event.slugDate, userId },
      headers,
    });
    expect(album.body.map((s: Snapshot) => s._id)).toContain(shot._id);
  });

  it('streams both cameras live; W/A/S/D is ContinuousMove then Stop, and Read shows the emulated position', async () => {
    const console = await pool.console(await t().adminCookie(), [event.slugDate]);
    for (const camera of ['cam1', 'cam2']) {
      const frame = next<{ camera: string; frame: ArrayBuffer }>(console, 'livestream', (f) => f.camera === camera);
      expect(await ask(console, 'join monitor livestream', { room: event.slugDate, camera })).toEqual({ ok: true });
      const bytes = Buffer.from((await frame).frame);
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    }
    const before = cams.cam1.calls.length;
    expect((await ask(console, 'rover move', { target: 'host', camera: 'cam1', command: 'c0.5,0' })).ok).toBe(true);
    expect((await ask(console, 'rover move', { target: 'host', camera: 'cam1', command: 's' })).ok).toBe(true);
    const sent = cams.cam1.calls.slice(before).filter((c) => c.action !== 'GetStatus');
    expect(sent.map((c) => c.action)).toEqual(['ContinuousMove', 'Stop']);
    expect(sent[0].position).toEqual({ x: 0.5, y: 0, zoom: 0 });
    const at = cams.cam1.now();
    const read = await ask(console, 'rover get position', { target: 'host', camera: 'cam1' });
    expect(read).toEqual({
      ok: true,
      position: `${Math.round(at.x * PAN_LIMIT)},${Math.round(at.y * TILT_LIMIT)},${Math.round(at.zoom * 1000) / 1000}`,
    });
  });

  it('a camera unreachable at start is off with the reason and recovers by itself once it answers', async () => {
    expect(await status('cam3')).toBe('off');
    expect(await state('cam3')).toMatch(/^Unreachable: connection refused .*\(retrying in [\d.]+ s\)$/);
    cams.cam3 = await new OnvifEmulator({ name: 'cam3', password: 'pw-three', port: latePort }).start();
    await vi.waitFor(async () => expect([await status('cam3'), await state('cam3')]).toEqual(['on', 'Connected']), {
      timeout: 15_000,
      interval: 200,
    });
  });

  it('wrong credentials: a clear message in the log and the camera’s state, never the password', async () => {
    expect(await status('cam4')).toBe('off');
    expect(await state('cam4')).toMatch(/^Wrong username or password: the camera refused the ONVIF login \(retrying/);
    expect(logLines.some((l) => l.includes('Wrong username or password') && l.includes('cam4'))).toBe(true);
    for (const secret of ['not-the-password', 'pw-one', 'pw-two', 'pw-three', 'pw-five', DEVICE_TOKEN])
      expect(logLines.filter((l) => l.includes(secret))).toEqual([]);
  });

  it('a camera without PTZ streams but takes no moves (and no queue)', async () => {
    // The status and the state are two writes: wait for both.
    await vi.waitFor(
      async () =>
        expect([await status('cam5'), await state('cam5')]).toEqual([
          'on',
          'Connected (no PTZ: streams only, takes no queue)',
        ]),
      { timeout: 10_000, interval: 200 },
    );
    const console = await pool.console(await t().adminCookie(), [event.slugDate]);
    expect(await ask(console, 'rover move', { target: 'host', camera: 'cam5', command: '!0,0,0.5' })).toEqual({
      ok: false,
      error: 'Camera cam5 has no pan/tilt/zoom',
    });
    expect(host.cameras.get('cam5')!.framesDue).toBeGreaterThan(0);
  });

  it('mid-event: a camera that goes away, or whose snapshots are not JPEGs, is off with the reason while the others go on; both recover', async () => {
    const frames = () => host.cameras.get('cam1')!.framesDue;
    await cams.cam2.stop();
    cams.cam5.snapshotMode = 'html';
    // The status and the state are two writes on the server: wait for both.
    await vi.waitFor(
      async () => {
        expect([await status('cam2'), await status('cam5')]).toEqual(['off', 'off']);
        expect(await state('cam2')).toMatch(/^Unreachable/);
        expect(await state('cam5')).toMatch(/^Snapshot is not a JPEG \(text\/html\) \(retrying/);
      },
      { timeout: 15_000, interval: 200 },
    );
    const f0 = frames();
    await vi.waitFor(() => expect(frames()).toBeGreaterThan(f0 + 2), { timeout: 5000, interval: 100 });
    expect(await status('cam1')).toBe('on');
    await cams.cam2.start();
    cams.cam5.snapshotMode = 'ok';
    await vi.waitFor(async () => expect([await status('cam2'), await status('cam5')]).toEqual(['on', 'on']), {
      timeout: 15_000,
      interval: 200,
    });
  });
});
