import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  analyticsRoutes,
  attendeeRoutes,
  camerasRoutes,
  type CheckDistinct,
  type Event,
  type Snapshot,
} from '@stadiumcam/contract';
import { startVenue, type Venue } from '@stadiumcam/venue-sim';
import { DEVICE_TOKEN, describeEachDb } from '../../test/harness.ts';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { SocketPool, ask, listenUrl, next } from '../../test/realtime.ts';
import { findSnapshotRow } from '../attendee/attendee.repository.ts';
import { joinAs, newFan } from '../attendee/fan.test-util.ts';

describeEachDb('venue simulator against the server', (t) => {
  let url = '';
  let venue: Venue;
  let event: Event;
  const pool = new SocketPool(() => url);

  beforeAll(async () => {
    url = await listenUrl(t());
    event = await ensureTodayEventLive(t().app.deps);
    venue = await startVenue({
      serverUrl: url,
      deviceToken: DEVICE_TOKEN,
      seed: 42,
      camerasPerHost: 2,
      fps: 5,
      attendeeRate: 2,
      turnMs: 500,
      powerDelayMs: 50,
      suspiciousShare: 0,
    });
  });
  afterAll(async () => {
    await venue?.stop();
    pool.closeAll();
  });

  it('attendees queue and get photographed; photos carry face data; consoles get them live', async () => {
    const console = await pool.console(await t().adminCookie(), [event.slugDate]);
    const photo = await next<Snapshot>(console, 'monitor newSnapshot', (s) => s.userId.startsWith('fan-'));
    expect(photo.slugDate).toBe(event.slugDate);
    expect(['cam1', 'cam2']).toContain(photo.camera);
    expect(photo.section).toMatch(/^[12]\d\d$/);
    const row = await findSnapshotRow(t().app.deps.db, photo._id);
    expect(row?.faces).not.toBeNull();
    expect(row?.groupSize).toBe((row?.faces as unknown[]).length);
    const mine = await t().call(attendeeRoutes.snapshots, {
      query: { slugDate: event.slugDate, userId: photo.userId },
    });
    expect(mine.body[0]._id).toBe(photo._id);
    // The attendees' phones report cookieless page views: the event's web analytics fill up.
    await vi.waitFor(
      async () => {
        const web = await t().call(analyticsRoutes.google, {
          params: { slugDate: event.slugDate },
          cookie: await t().adminCookie(),
        });
        expect(web.body.panels.page.map((c: { x: string }) => c.x)).toEqual(expect.arrayContaining(['queue', 'photo']));
        expect(web.body.panels.device.length).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 500 },
    );
  });

  it('a simulated host sends check distinct when a fan joins again from another seat', async () => {
    const cookie = await t().adminCookie();
    const console = await pool.console(cookie, [event.slugDate]);
    const hopper = await newFan(t());
    const join = (seat: string) =>
      joinAs(t(), hopper, { slugDate: event.slugDate, seat: { seatType: 'section', section: '101', row: 'A', seat } });
    const checked = next<CheckDistinct>(console, 'check distinct', (c) => c.userId === hopper.userId);
    expect((await join('1')).status).toBe(200);
    expect((await join('2')).status).toBe(200);
    expect(await checked).toMatchObject({
      slugDate: event.slugDate,
      userId: hopper.userId,
      seat: { section: '101', row: 'A', seat: '2' },
      suspicious: false,
    });
  });

  it('streams frames of a camera to a console that joined it, and answers moves and positions', async () => {
    const console = await pool.console(await t().adminCookie(), [event.slugDate]);
    const frame = next<{ camera: string; frame: ArrayBuffer; fps: number }>(console, 'livestream');
    expect(await ask(console, 'join monitor livestream', { room: event.slugDate, camera: 'cam1' })).toEqual({
      ok: true,
    });
    const f = await frame;
    expect(f.camera).toBe('cam1');
    const bytes = Buffer.from(f.frame);
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);

    expect(
      await ask(console, 'rover move', { target: 'host', camera: 'cam2', command: '!100000000,-50000000,0.25' }),
    ).toEqual({
      ok: true,
      answer: '100000000,-50000000,0.25',
    });
    const pos = await ask(console, 'rover get position', { target: 'host', camera: 'cam2' });
    expect(pos.ok).toBe(true);
    expect(pos.position).toMatch(/^-?\d+,-?\d+,[\d.]+$/);
    expect(await ask(console, 'rover move', { target: 'host', camera: 'cam2', command: 'x' })).toEqual({
      ok: false,
      error: 'Unknown camera command "x"',
    });
  });

  it('honours power commands and MagicShots', async () => {
    const cookie = await t().adminCookie();
    const console = await pool.console(cookie, [event.slugDate]);
    const off = next<{ camera: string; status: string }>(
      console,
      'monitor power',
      (p) => p.camera === 'cam2' && p.status === 'off',
    );
    expect(await ask(console, 'power camera', { camera: 'cam2', on: false })).toEqual({ ok: true, cameras: ['cam2'] });
    await off;
    expect((await t().call(camerasRoutes.status, { cookie })).body.cameras).toMatchObject({ cam1: 'on', cam2: 'off' });
    const on = next<{ camera: string; status: string }>(
      console,
      'monitor power',
      (p) => p.camera === 'cam2' && p.status === 'on',
    );
    expect((await ask(console, 'power all cameras', { on: true })).ok).toBe(true);
    await on;

    const magic = next<Snapshot>(console, 'monitor newSnapshot', (s) => s.magicshot);
    const answer = await ask(console, 'take MagicShot', { slug: event.slugDate, camera: 'cam1' });
    expect(answer).toMatchObject({ ok: true, cameras: ['cam1'], shots: [{ camera: 'cam1' }] });
    // The ack names the photo's user id, which is how the console ends its busy state.
    expect((await magic).userId).toBe((answer as unknown as { shots: { userId: string }[] }).shots[0].userId);
  });
});
