import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { attendeeAppRoutes, attendeeRoutes } from '@stadiumcam/contract';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, listenUrl, type TestHost } from '../../test/realtime.ts';
import { cameraLabel } from './attendee-app.service.ts';
import { newFan, type TestFan } from './fan.test-util.ts';

describeEachDb('attendee app: the queue screen position', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    url = await listenUrl(t());
  });
  afterAll(() => pool.closeAll());

  let fan: TestFan;
  const position = (userId = fan.userId) =>
    t().call(attendeeAppRoutes.queuePosition, { query: { userId }, headers: fan.headers });

  it('GET /api/public/queue/position follows the camera queue the fan joined: waiting, next, live with the live time, none', async () => {
    const host: TestHost = await pool.host('host-position', [{ camera: 'qp1' }]);
    const queue: string[] = ['fan-ahead'];
    host.emit('report', { camera: 'qp1', queue: [...queue] });
    host.on('queue join', ({ camera, userId }, ack) => {
      queue.push(userId);
      host.emit('report', { camera, queue: [...queue] });
      ack({ ok: true, position: queue.length });
    });
    const live = await ensureTodayEventLive(t().app.deps);
    fan = await newFan(t());

    // Not in any queue yet: no camera, position 0.
    const none = { camera: null, position: 0, state: 'none', cameraLabel: null, liveTime: 0 };
    expect(await position()).toMatchObject({ status: 200, body: none });

    const joined = await vi.waitFor(async () => {
      const res = await t().call(attendeeRoutes.joinQueue, {
        body: {
          slugDate: live.slugDate,
          userId: fan.userId,
          seat: { seatType: 'section', section: '104', row: 'F', seat: '12' },
        },
        headers: fan.headers,
      });
      expect(res.status).toBe(200);
      return res.body as { camera: string; position: number };
    });
    expect(joined).toEqual({ camera: 'qp1', position: 2 });
    // The camera is not numbered as `cam<N>`: its id is the venue's name for it.
    const at = (position: number, state: string, liveTime = 0) => ({
      camera: 'qp1',
      position,
      state,
      cameraLabel: 'qp1',
      liveTime,
    });
    await vi.waitFor(async () => expect((await position()).body).toEqual(at(2, 'next')));
    // Someone joins ahead (a snoozed fan back): waiting, the host's live time is not theirs.
    host.emit('report', { camera: 'qp1', queue: ['fan-ahead', 'fan-back', fan.userId], liveTime: 12 });
    await vi.waitFor(async () => expect((await position()).body).toEqual(at(3, 'waiting')));

    // The ones ahead had their photo: the host's next report makes it this fan's turn, with its live time.
    queue.splice(0, queue.length, fan.userId);
    host.emit('report', { camera: 'qp1', queue: [...queue], liveTime: 9 });
    await vi.waitFor(async () => expect((await position()).body).toEqual(at(1, 'live', 9)));
    // Their turn is over: out of every queue again.
    queue.length = 0;
    host.emit('report', { camera: 'qp1', queue: [] });
    await vi.waitFor(async () => expect((await position()).body).toEqual(none));
    host.disconnect();
  });

  it('names a numbered camera by its number (cam3 → 3) and any other camera by the id the venue gave it', () => {
    expect(['cam3', 'Cam 12', 'camera-7', 'cam03'].map(cameraLabel)).toEqual(['3', '12', '7', '3']);
    expect(['North stand', 'qp1', 'cam', 'cam3b'].map(cameraLabel)).toEqual(['North stand', 'qp1', 'cam', 'cam3b']);
  });

  it('refuses a missing, empty or over-long userId (400)', async () => {
    fan = await newFan(t());
    const missing = await t().call(attendeeAppRoutes.queuePosition, { query: {} as never, headers: fan.headers });
    expect(missing.status).toBe(400);
    expect((await position('   ')).status).toBe(400);
    expect((await position('x'.repeat(201))).status).toBe(400);
  });
});
