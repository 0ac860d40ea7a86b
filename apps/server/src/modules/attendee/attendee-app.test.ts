import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { attendeeAppRoutes, attendeeRoutes } from '@stadiumcam/contract';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, listenUrl, type TestHost } from '../cameras/realtime.test-util.ts';

describeEachDb('attendee app: the queue screen position', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    url = await listenUrl(t());
  });
  afterAll(() => pool.closeAll());

  const position = (userId: string) => t().call(attendeeAppRoutes.queuePosition, { query: { userId } });

  it('GET /api/public/queue/position follows the camera queue the fan joined (1 = next), null when in none', async () => {
    const host: TestHost = await pool.host('host-position', [{ camera: 'qp1' }]);
    const queue: string[] = ['fan-ahead'];
    host.emit('report', { camera: 'qp1', queue: [...queue] });
    host.on('queue join', ({ camera, userId }, ack) => {
      queue.push(userId);
      host.emit('report', { camera, queue: [...queue] });
      ack({ ok: true, position: queue.length });
    });
    const live = await ensureTodayEventLive(t().app.deps);

    // Not in any queue yet: no camera, position 0.
    expect(await position('fan-pos')).toMatchObject({ status: 200, body: { camera: null, position: 0 } });

    const joined = await vi.waitFor(async () => {
      const res = await t().call(attendeeRoutes.joinQueue, {
        body: {
          slugDate: live.slugDate,
          userId: 'fan-pos',
          seat: { seatType: 'section', section: '104', row: 'F', seat: '12' },
        },
      });
      expect(res.status).toBe(200);
      return res.body as { camera: string; position: number };
    });
    expect(joined).toEqual({ camera: 'qp1', position: 2 });
    await vi.waitFor(async () => expect((await position('fan-pos')).body).toEqual({ camera: 'qp1', position: 2 }));

    // The fan ahead had their photo: the host's next report moves this fan up to next.
    queue.shift();
    host.emit('report', { camera: 'qp1', queue: [...queue] });
    await vi.waitFor(async () => expect((await position('fan-pos')).body).toEqual({ camera: 'qp1', position: 1 }));
    // Their turn is over: out of every queue again.
    queue.length = 0;
    host.emit('report', { camera: 'qp1', queue: [] });
    await vi.waitFor(async () => expect((await position('fan-pos')).body).toEqual({ camera: null, position: 0 }));
    host.disconnect();
  });

  it('refuses a missing, empty or over-long userId (400)', async () => {
    const missing = await t().call(attendeeAppRoutes.queuePosition, { query: {} as never });
    expect(missing.status).toBe(400);
    expect((await position('   ')).status).toBe(400);
    expect((await position('x'.repeat(201))).status).toBe(400);
  });
});
