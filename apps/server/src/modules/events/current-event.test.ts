import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { eventsRoutes } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { makeEvent } from '../../test/factories.ts';
import { TODAY_EVENT_MIN_HOURS, TODAY_EVENT_TITLE, ensureTodayEventLive } from './events.service.ts';
import { addDays, todayIn, zonedInstant } from './events.time.ts';

const TZ = 'America/Winnipeg';
const day = (offset: number) => addDays(todayIn(TZ), offset);
const at = (gameDate: string, hhmm: string) => zonedInstant(gameDate, hhmm, TZ).toISOString();

describeEachDb('current event (GET /api/events/stadiumcam)', (t) => {
  const current = async (fields?: string[]) =>
    t().call(eventsRoutes.current, {
      cookie: await t().adminCookie(),
      query: fields ? { fields: fields } : {},
    });
  const create = async (gameDate: string, from = '18:00', to = '22:00') =>
    t().call(eventsRoutes.create, {
      cookie: await t().adminCookie(),
      body: {
        gameDate,
        slugDate: `stadiumcam-${gameDate}`,
        startTime: at(gameDate, from),
        endTime: at(gameDate, to),
        title: `Game ${gameDate}`,
      },
    });

  it('is the live event, else today’s, else the next upcoming, else the template', async () => {
    expect((await current()).body).toMatchObject({ template: true, slugDate: 'stadiumcam' });

    // A past event, even a live-looking day in the past with status post, is never current.
    await makeEvent(t().app.deps.db, `stadiumcam-${day(-2)}`, {
      id: randomUUID(),
      title: 'Past',
      eventStatus: 'post',
      gameDate: day(-2),
      startTime: new Date(at(day(-2), '18:00')),
      endTime: new Date(at(day(-2), '22:00')),
      timezone: TZ,
    });
    expect((await current()).body.slugDate).toBe('stadiumcam');

    expect((await create(day(5))).status).toBe(200);
    expect((await create(day(3))).status).toBe(200);
    expect((await current()).body.slugDate).toBe(`stadiumcam-${day(3)}`);

    expect((await create(day(0), '00:00', '23:45')).status).toBe(200);
    expect((await current()).body.slugDate).toBe(`stadiumcam-${day(0)}`);

    const live = await t().call(eventsRoutes.update, {
      cookie: await t().adminCookie(),
      body: { slugDate: `stadiumcam-${day(5)}`, data: { eventStatus: 'live' } },
    });
    expect(live.status).toBe(200);
    const cur = await current(['slugDate', 'eventStatus']);
    expect(cur.body).toEqual({ _id: live.body._id, slugDate: `stadiumcam-${day(5)}`, eventStatus: 'live' });
    expect((await current(['nope'])).status).toBe(400);
  });
});

describeEachDb('ensureTodayEventLive', (t) => {
  it('creates today’s event from the template, live, and reuses it afterwards', async () => {
    const deps = t().app.deps;
    const now = new Date();
    const event = await ensureTodayEventLive(deps, now);
    const gameDate = todayIn(TZ, now);
    expect(event).toMatchObject({
      slugDate: `stadiumcam-${gameDate}`,
      gameDate,
      eventStatus: 'live',
      template: false,
      title: TODAY_EVENT_TITLE,
      timezone: TZ,
    });
    const start = new Date(event.startTime!).getTime();
    const end = new Date(event.endTime!).getTime();
    expect(start).toBeLessThanOrEqual(now.getTime());
    expect(now.getTime() - start).toBeLessThan(15 * 60_000);
    expect(end - start).toBeGreaterThanOrEqual(TODAY_EVENT_MIN_HOURS * 3600_000);
    expect(end).toBeGreaterThanOrEqual(zonedInstant(gameDate, '23:45', TZ).getTime());

    const again = await ensureTodayEventLive(deps, now);
    expect(again._id).toBe(event._id);
    const list = await t().call(eventsRoutes.list, {
      cookie: await t().adminCookie(),
      query: { fields: ['slugDate'] },
    });
    expect((list.body as unknown[]).length).toBe(2);
    const cur = await t().call(eventsRoutes.current, { cookie: await t().adminCookie() });
    expect(cur.body.slugDate).toBe(event.slugDate);
  });

  it('sets a pre event of today live and leaves a post one alone', async () => {
    const deps = t().app.deps;
    const gameDate = todayIn(TZ);
    const slugDate = `stadiumcam-${gameDate}`;
    const cookie = await t().adminCookie();
    await t().call(eventsRoutes.update, { cookie, body: { slugDate, data: { eventStatus: 'pre' } } });
    expect((await ensureTodayEventLive(deps)).eventStatus).toBe('live');
    await t().call(eventsRoutes.update, { cookie, body: { slugDate, data: { eventStatus: 'post' } } });
    expect((await ensureTodayEventLive(deps)).eventStatus).toBe('post');
  });
});
