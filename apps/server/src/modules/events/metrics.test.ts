import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import {
  MSG,
  P,
  eventsRoutes,
  type ConsoleClientEvents,
  type ConsoleServerEvents,
  type Event,
  type EventMetrics,
} from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { makePhoto } from '../../test/factories.ts';
import { findEventBySlugDate } from './events.repository.ts';
import { ensureTodayEventLive } from './events.service.ts';
import { forgetEventMetrics, notifyMetricsChanged, reportQueueUsers } from './metrics.service.ts';

type ConsoleSocket = Socket<ConsoleServerEvents, ConsoleClientEvents>;

describeEachDb('live metrics and event broadcasts', (t) => {
  let event: Event;
  let url: string;
  const sockets: ConsoleSocket[] = [];

  beforeAll(async () => {
    event = await ensureTodayEventLive(t().app.deps);
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const s of sockets) s.disconnect();
  });

  /** A console socket with a session cookie, in the rooms of the given events. */
  async function consoleSocket(cookie: string, slugDates: string[]): Promise<ConsoleSocket> {
    const socket: ConsoleSocket = io(`${url}/console`, { transports: ['websocket'], extraHeaders: { cookie } });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    await new Promise<void>((resolve) => socket.emit('select events', slugDates, () => resolve()));
    return socket;
  }

  const metrics = async (cookie: string, slugDate?: string) =>
    t().call(eventsRoutes.metrics, { cookie, query: slugDate ? { slugDate } : {} });

  it('counts snapshots, shares, distinct queued users and the peak from real data', async () => {
    const deps = t().app.deps;
    const cookie = await t().adminCookie();
    const socket = await consoleSocket(cookie, [event.slugDate]);
    const received: EventMetrics[] = [];
    socket.on('monitor metrics', (m) => received.push(m));

    const zero = await metrics(cookie);
    expect(zero.body).toEqual({ slugDate: event.slugDate, current: 0, peak: 0, snapshots: 0, shares: 0 });

    const { slugDate } = event;
    await makePhoto(deps.db, { slugDate, id: randomUUID(), userId: 'a' });
    await makePhoto(deps.db, { slugDate, id: randomUUID(), userId: 'b', sharedCount: 3 });
    await makePhoto(deps.db, { slugDate, id: randomUUID(), userId: 'c', sharedCount: 1 });
    notifyMetricsChanged(deps, event.slugDate);
    reportQueueUsers(deps, event.slugDate, 'host-1/cam1', ['a', 'b']);
    reportQueueUsers(deps, event.slugDate, 'host-1/cam2', ['b', 'c']);
    const busy = await metrics(cookie);
    expect(busy.body).toEqual({ slugDate: event.slugDate, current: 3, peak: 3, snapshots: 3, shares: 4 });

    reportQueueUsers(deps, event.slugDate, 'host-1/cam1', []);
    const calmer = await metrics(cookie, event.slugDate);
    expect(calmer.body).toMatchObject({ current: 2, peak: 3 });

    // Throttled emits still end on the latest values.
    await vi.waitFor(() => expect(received.at(-1)).toEqual({ ...calmer.body }), { timeout: 5000 });

    // The peak is stored: a restart (the in-memory queues gone) keeps it.
    await vi.waitFor(async () => expect((await findEventBySlugDate(deps.db, event.slugDate))?.peak).toBe(3), {
      timeout: 5_000,
    });
    forgetEventMetrics(deps, event.slugDate);
    expect((await metrics(cookie)).body).toMatchObject({ current: 0, peak: 3, snapshots: 3, shares: 4 });
  });

  it('needs main_header_liveMetric or Monitor:read, and answers 404 for an unknown event', async () => {
    const drawer = await t().userWith([P.LIVE_METRIC]);
    const monitor = await t().userWith([P.MONITOR_READ]);
    const writer = await t().userWith([P.EVENT_WRITE]);
    expect((await metrics(drawer.cookie)).status).toBe(200);
    expect((await metrics(monitor.cookie)).status).toBe(200);
    expect((await metrics(writer.cookie)).status).toBe(403);
    const unknown = await metrics(drawer.cookie, 'stadiumcam-1999-01-01');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(MSG.events.eventNotFound);
  });

  it('sends "monitor event updated" to the event room and to every other console after a PUT', async () => {
    const cookie = await t().adminCookie();
    const viewer = await t().userWith([]);
    const inRoom = await consoleSocket(cookie, [event.slugDate]);
    const elsewhere = await consoleSocket(viewer.cookie, []);
    const got = (s: ConsoleSocket) =>
      new Promise<Parameters<ConsoleServerEvents['monitor event updated']>[0]>((resolve) =>
        s.once('monitor event updated', resolve),
      );
    const a = got(inRoom);
    const b = got(elsewhere);
    const res = await t().call(eventsRoutes.update, {
      cookie,
      body: { slugDate: event.slugDate, data: { eventStatus: 'post' } },
    });
    expect(res.status).toBe(200);
    for (const payload of await Promise.all([a, b])) {
      expect(payload.slugDate).toBe(event.slugDate);
      expect(payload.event?.eventStatus).toBe('post');
    }

    // A refused change sends nothing: the next message is the one of the following change.
    const next = got(inRoom);
    expect(
      (await t().call(eventsRoutes.update, { cookie, body: { slugDate: event.slugDate, data: { title: '' } } })).status,
    ).toBe(422);
    await t().call(eventsRoutes.update, { cookie, body: { slugDate: event.slugDate, data: { title: 'Renamed' } } });
    expect((await next).event?.title).toBe('Renamed');
  });

  it('refuses a console socket without a session', async () => {
    const socket: ConsoleSocket = io(`${url}/console`, { transports: ['websocket'] });
    sockets.push(socket);
    const err = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(err.message).toBe('Not logged in');
  });
});
