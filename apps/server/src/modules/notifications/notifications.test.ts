import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import {
  P,
  notificationsRoutes,
  type CheckDistinct,
  type Notification,
  type PhotoMetadata,
} from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, listenUrl, next, uploadPhoto } from '../../test/realtime.ts';

describeEachDb('suspicious-user notifications', (t) => {
  let url = '';
  let image: Buffer;
  const pool = new SocketPool(() => url);
  const upload = (userId: string, seat: string, over: Partial<PhotoMetadata> = {}) =>
    uploadPhoto(url, {
      metadata: { slugDate: 'stadiumcam', userId, camera: 'nt1', section: '101', row: 'A', seat, ...over },
      image,
    });

  beforeAll(async () => {
    url = await listenUrl(t());
    image = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    await pool.host('host-notify', [{ camera: 'nt1' }]);
    Object.assign(t().config.suspicious, { photos: 4, seats: 3, windowMinutes: 30 });
  });
  afterAll(() => {
    pool.closeAll();
  });

  it('raises one notification when a user takes photos from too many seats; lists, counts, dismisses', async () => {
    const cookie = await t().adminCookie();
    const console = await pool.console(cookie, ['stadiumcam']);
    // Two seats and a MagicShot-like operator photo: below the rule.
    await upload('calm-fan', '1');
    await upload('calm-fan', '2');
    await upload('MAGIC-1', '3', { magicshot: true });

    const added = next<Notification>(console, 'notificationAdded');
    const ids: string[] = [];
    for (const seat of ['5', '6', '7']) ids.push((await upload('seat-hopper', seat)).body._id);
    const n = await added;
    expect(n).toMatchObject({ slugDate: 'stadiumcam', type: 'suspiciousUser', addressed: false });
    expect(n.data).toMatchObject({ userId: 'seat-hopper', snapshotsTaken: 3, distinctSRS: 3 });
    expect(n.data.allSRS.map((r) => r._id).sort()).toEqual([...ids].sort());
    expect(n.data.allSRS[0]).toEqual({
      _id: expect.any(String),
      section: '101',
      row: 'A',
      seat: expect.any(String),
      time: expect.any(String),
    });

    // A fourth photo refreshes the open notification instead of raising another.
    await upload('seat-hopper', '8');
    // The rule runs after the upload's answer: wait until it has refreshed the data.
    await vi.waitFor(async () => {
      const list = await t().call(notificationsRoutes.list, {
        cookie,
        query: { slugDate: 'stadiumcam', offset: 0, limit: 20 },
      });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(1);
      expect(list.body[0]).toMatchObject({ _id: n._id, data: { snapshotsTaken: 4, distinctSRS: 4 } });
    });
    expect((await t().call(notificationsRoutes.count, { cookie, query: { slugDate: 'stadiumcam' } })).body).toEqual({
      total: 1,
    });

    const dismissed = next<{ _id: string; slugDate: string }>(console, 'notificationDismissed');
    const res = await t().call(notificationsRoutes.dismiss, { cookie, params: { id: n._id } });
    expect(res.status).toBe(200);
    expect(res.body.addressed).toBe(true);
    expect(await dismissed).toEqual({ _id: n._id, slugDate: 'stadiumcam' });
    expect((await t().call(notificationsRoutes.count, { cookie, query: { slugDate: 'stadiumcam' } })).body).toEqual({
      total: 0,
    });
    const after = await t().call(notificationsRoutes.list, { cookie, query: { slugDate: 'stadiumcam' } });
    expect(after.body[0]).toMatchObject({ _id: n._id, addressed: true });
  });

  it('relays a host’s check distinct to the event’s consoles with what the suspicious-user rule found', async () => {
    const cookie = await t().adminCookie();
    const console = await pool.console(cookie, ['stadiumcam']);
    const host = await pool.host('host-distinct', [{ camera: 'nt2' }]);
    const seat = (n: string) => ({ seatType: 'section', section: '101', row: 'A', seat: n });
    await upload('hopper-2', '11');
    await upload('hopper-2', '12');
    // A malformed one (no seat) is dropped: the first answer is for the good one after it.
    const first = next<CheckDistinct>(console, 'check distinct');
    host.emit('check distinct', { camera: 'nt2', slugDate: 'stadiumcam', userId: 'nobody' } as never);
    host.emit('check distinct', { camera: 'nt2', slugDate: 'stadiumcam', userId: 'hopper-2', seat: seat('13') });
    expect(await first).toEqual({
      slugDate: 'stadiumcam',
      camera: 'nt2',
      userId: 'hopper-2',
      seat: seat('13'),
      distinctSRS: 2,
      suspicious: false,
    });
    // A third seat breaks the rule: the check now says so (and the card exists).
    const added = next<Notification>(console, 'notificationAdded', (n) => n.data.userId === 'hopper-2');
    await upload('hopper-2', '13');
    await added;
    const again = next<CheckDistinct>(console, 'check distinct');
    host.emit('check distinct', { camera: 'nt2', slugDate: 'stadiumcam', userId: 'hopper-2', seat: seat('14') });
    expect(await again).toMatchObject({ userId: 'hopper-2', distinctSRS: 3, suspicious: true });
    // An unknown camera is dropped too.
    const unknown = next<CheckDistinct>(console, 'check distinct');
    host.emit('check distinct', { camera: 'nope', slugDate: 'stadiumcam', userId: 'hopper-2', seat: seat('15') });
    host.emit('check distinct', { camera: 'nt2', slugDate: 'stadiumcam', userId: 'calm-fan', seat: seat('1') });
    expect((await unknown).userId).toBe('calm-fan');
  });

  it('also counts many photos from one seat', async () => {
    const cookie = await t().adminCookie();
    const console = await pool.console(cookie, ['stadiumcam']);
    const added = next<Notification>(console, 'notificationAdded', (x) => x.data.userId === 'same-seat');
    for (let i = 0; i < 4; i++) await upload('same-seat', '9');
    expect((await added).data).toMatchObject({ snapshotsTaken: 4, distinctSRS: 1 });
  });

  it('guards the routes: Monitor:read, limit at most 20, unknown id 404', async () => {
    const nobody = await t().userWith([P.MAGICSHOTS_READ]);
    const viewer = await t().userWith([P.MONITOR_READ]);
    const q = { slugDate: 'stadiumcam' };
    expect((await t().call(notificationsRoutes.list, { cookie: nobody.cookie, query: q })).status).toBe(403);
    expect((await t().call(notificationsRoutes.count, { cookie: nobody.cookie, query: q })).status).toBe(403);
    expect((await t().call(notificationsRoutes.dismiss, { cookie: nobody.cookie, params: { id: 'x' } })).status).toBe(
      403,
    );
    expect((await t().call(notificationsRoutes.list, { query: q })).status).toBe(401);
    const tooMany = await t().call(notificationsRoutes.list, { cookie: viewer.cookie, query: { ...q, limit: 21 } });
    expect(tooMany.status).toBe(400);
    const paged = await t().call(notificationsRoutes.list, {
      cookie: viewer.cookie,
      query: { ...q, offset: 1, limit: 1 },
    });
    expect(paged.status).toBe(200);
    expect(paged.body).toHaveLength(1);
    const missing = await t().call(notificationsRoutes.dismiss, {
      cookie: viewer.cookie,
      params: { id: 'no-such-id' },
    });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Notification not found' } });
  });
});
