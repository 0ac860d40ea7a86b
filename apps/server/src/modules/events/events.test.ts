import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { DEFAULT_COLORS, EVENT_FIELDS, MSG, P, PROMO_TYPES, eventsRoutes } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { makePhoto } from '../../test/factories.ts';
import { defaultTemplateConfig } from './events.defaults.ts';
import { findEventBySlugDate, snapshotTotals, updateEventRow } from './events.repository.ts';
import { addDays, todayIn, zonedInstant } from './events.time.ts';

const TZ = 'America/Winnipeg';
/** A day relative to today in the default zone: each test uses its own days. */
const day = (offset: number) => addDays(todayIn(TZ), offset);
const at = (gameDate: string, hhmm: string, tz = TZ) => zonedInstant(gameDate, hhmm, tz).toISOString();
const createBody = (gameDate: string, from = '18:00', to = '22:00', extra: Record<string, unknown> = {}) => ({
  gameDate,
  slugDate: `stadiumcam-${gameDate}`,
  startTime: at(gameDate, from),
  endTime: at(gameDate, to),
  title: 'Jets vs Oilers',
  ...extra,
});

describeEachDb('events API', (t) => {
  const admin = () => t().adminCookie();
  const create = async (body: Record<string, unknown>, cookie?: string) =>
    t().call(eventsRoutes.create, { cookie: cookie ?? (await admin()), body: body as never });
  const get = async (slugDate: string) => t().call(eventsRoutes.get, { cookie: await admin(), params: { slugDate } });
  const put = async (slugDate: string, data: Record<string, unknown>, cookie?: string) =>
    t().call(eventsRoutes.update, { cookie: cookie ?? (await admin()), body: { slugDate, data } });
  const listAll = async () =>
    (await t().call(eventsRoutes.list, { cookie: await admin() })).body as { slugDate: string }[];

  it('answers the template at /api/event/stadiumcam and 404 "Event not found" for an unknown slugDate', async () => {
    const tpl = await get('stadiumcam');
    expect(tpl.status).toBe(200);
    expect(tpl.body).toMatchObject({
      template: true,
      slug: 'stadiumcam',
      slugDate: 'stadiumcam',
      timezone: TZ,
      gameDate: null,
      startTime: null,
      endTime: null,
      promo: [],
    });
    const missing = await get('stadiumcam-1999-01-01');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: MSG.events.eventNotFound });
  });

  it('creates a dated event as a copy of the template configuration', async () => {
    await updateEventRow(t().app.deps.db, 'stadiumcam', {
      config: {
        ...defaultTemplateConfig(),
        theme: { ...DEFAULT_COLORS.theme, primaryColor: '#123456' },
        availableLanguages: ['english', 'french'],
        // A stored value that no longer parses (spec 2 §5: 1 to 4 active) is copied as its default.
        share: [],
      },
    });
    const gameDate = day(10);
    const res = await create(createBody(gameDate, '18:00', '22:00'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      template: false,
      slug: 'stadiumcam',
      slugDate: `stadiumcam-${gameDate}`,
      gameDate,
      title: 'Jets vs Oilers',
      eventStatus: 'pre',
      timezone: TZ,
      startTime: at(gameDate, '18:00'),
      endTime: at(gameDate, '22:00'),
      theme: { ...DEFAULT_COLORS.theme, primaryColor: '#123456' },
      availableLanguages: ['english', 'french'],
      share: defaultTemplateConfig().share,
      promo: [],
    });
    expect((await get(`stadiumcam-${gameDate}`)).body.theme.primaryColor).toBe('#123456');
  });

  it('creates an event that crosses midnight, and in another time zone', async () => {
    const gameDate = day(11);
    const res = await create(createBody(gameDate, '22:00', '01:00', { endTime: at(addDays(gameDate, 1), '01:00') }));
    expect(res.status).toBe(200);
    const tokyo = day(12);
    const res2 = await create({
      ...createBody(tokyo),
      startTime: at(tokyo, '18:00', 'Asia/Tokyo'),
      endTime: at(tokyo, '21:00', 'Asia/Tokyo'),
      timezone: 'Asia/Tokyo',
    });
    expect(res2.status).toBe(200);
    expect(res2.body).toMatchObject({ timezone: 'Asia/Tokyo', gameDate: tokyo });
  });

  it('enforces the creation rules with the spec texts and creates nothing', async () => {
    const before = (await listAll()).length;
    const gameDate = day(13);
    const cases: [Record<string, unknown>, number, string][] = [
      [createBody(day(-1)), 422, MSG.events.eventInPast],
      [createBody(gameDate, '18:00', '18:00'), 422, MSG.events.endAfterStart],
      [createBody(gameDate, '18:00', '17:00'), 422, MSG.events.endAfterStart],
      [createBody(gameDate, '18:00', '18:03'), 422, MSG.events.eventTooShort],
      [{ ...createBody(gameDate), endTime: at(addDays(gameDate, 1), '18:15') }, 422, MSG.events.eventTooLong],
      [createBody(gameDate, '18:10', '22:00'), 422, MSG.events.timeStep],
      [createBody(gameDate, '18:00', '22:20'), 422, MSG.events.timeStep],
      [{ ...createBody(gameDate), title: '   ' }, 422, MSG.events.eventNameRequired],
      [{ ...createBody(gameDate), startTime: '' }, 422, MSG.events.startTimeRequired],
      [{ ...createBody(gameDate), endTime: '' }, 422, MSG.events.endTimeRequired],
      [{ ...createBody(gameDate), startTime: at(addDays(gameDate, 1), '10:00') }, 422, MSG.events.startNotOnDay],
      [{ ...createBody(gameDate), startTime: 'tomorrow at six' }, 400, MSG.events.invalidStart],
      [{ ...createBody(gameDate), endTime: `${gameDate}T25:00:00Z` }, 400, MSG.events.invalidEnd],
      [
        { ...createBody(gameDate), gameDate: '2031-02-30', slugDate: 'stadiumcam-2031-02-30' },
        400,
        MSG.events.invalidGameDate,
      ],
      [{ ...createBody(gameDate), slugDate: 'other-2031-01-01' }, 400, `slugDate should be stadiumcam-${gameDate}`],
      [{ ...createBody(gameDate), timezone: 'Mars/Olympus' }, 400, MSG.events.unknownTimeZone],
    ];
    for (const [body, status, error] of cases) {
      const res = await create(body);
      expect({ status: res.status, error: res.body.error }, JSON.stringify(body)).toEqual({ status, error });
    }
    const extra = await create({ ...createBody(gameDate), eventStatus: 'live' });
    expect(extra.status).toBe(400);
    const wrongType = await create({ ...createBody(gameDate), title: 42 });
    expect(wrongType.status).toBe(400);
    expect((await listAll()).length).toBe(before);
    expect((await get(`stadiumcam-${gameDate}`)).status).toBe(404);
  });

  it('allows one event per day', async () => {
    const gameDate = day(14);
    expect((await create(createBody(gameDate))).status).toBe(200);
    const again = await create(createBody(gameDate, '10:00', '12:00', { title: 'Second' }));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(MSG.events.eventDayTaken);
    expect((await get(`stadiumcam-${gameDate}`)).body.title).toBe('Jets vs Oilers');
  });

  it('needs Event:write and calendar_day_createEvent to create', async () => {
    const writer = await t().userWith([P.EVENT_WRITE]);
    const denied = await create(createBody(day(15)), writer.cookie);
    expect(denied.status).toBe(403);
    const creator = await t().userWith([P.DAY_CLICK_CREATE_EVENT]);
    expect((await create(createBody(day(15)), creator.cookie)).status).toBe(200);
  });

  it('lists events sorted by gameDate with the template first, and projects fields[]', async () => {
    const session = await t().userWith([]);
    const all = await t().call(eventsRoutes.list, { cookie: session.cookie });
    expect(all.status).toBe(200);
    const items = all.body as { template: boolean; gameDate: string | null }[];
    expect(items[0]).toMatchObject({ template: true, gameDate: null });
    const dates = items.slice(1).map((e) => e.gameDate!);
    expect(dates).toEqual([...dates].sort());
    expect(items.slice(1).every((e) => e.template === false)).toBe(true);

    const fields = ['slugDate', 'eventStatus', 'title'] as const;
    const some = await t().call(eventsRoutes.list, { cookie: session.cookie, query: { fields: [...fields] } });
    expect(some.status).toBe(200);
    for (const e of some.body as Record<string, unknown>[])
      expect(Object.keys(e).sort()).toEqual(['_id', ...fields].sort());

    const bad = await t().app.inject({
      method: 'GET',
      url: '/api/events?fields[]=title&fields[]=password',
      headers: { cookie: session.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(EVENT_FIELDS).toContain('promo');
  });

  it('changes the status, refuses other statuses and the template, and needs a permission', async () => {
    const gameDate = day(20);
    const slugDate = `stadiumcam-${gameDate}`;
    await create(createBody(gameDate));
    const live = await put(slugDate, { eventStatus: 'live' });
    expect(live.status).toBe(200);
    expect(live.body.eventStatus).toBe('live');
    const bad = await put(slugDate, { eventStatus: 'paused' });
    expect(bad.status).toBe(400);
    expect((await get(slugDate)).body.eventStatus).toBe('live');

    const tpl = await put('stadiumcam', { eventStatus: 'live' });
    expect(tpl.status).toBe(422);
    expect(tpl.body.error).toBe(MSG.events.templateNoSchedule);
    expect((await get('stadiumcam')).body.eventStatus).toBe('pre');

    const power = await t().userWith([P.POWER_BTN]);
    expect((await put(slugDate, { eventStatus: 'post' }, power.cookie)).body.eventStatus).toBe('post');
    const editByPower = await put(slugDate, { title: 'Renamed' }, power.cookie);
    expect(editByPower.status).toBe(403);
    const nobody = await t().userWith([P.MONITOR_READ]);
    expect((await put(slugDate, { eventStatus: 'pre' }, nobody.cookie)).status).toBe(403);

    const unknown = await put('stadiumcam-1999-01-01', { eventStatus: 'post' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(MSG.events.eventNotFound);
    expect((await put(slugDate, {})).status).toBe(400);
  });

  it('edits title and times under the rules, and ends an event early', async () => {
    const gameDate = day(21);
    const slugDate = `stadiumcam-${gameDate}`;
    await create(createBody(gameDate));
    const editor = await t().userWith([P.EDIT_EVENT]);
    const edited = await put(
      slugDate,
      { title: 'Renamed', startTime: at(gameDate, '19:00'), endTime: at(gameDate, '23:00') },
      editor.cookie,
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      title: 'Renamed',
      startTime: at(gameDate, '19:00'),
      endTime: at(gameDate, '23:00'),
    });

    const snapshot = (await get(slugDate)).body;
    const refused: [Record<string, unknown>, number, string][] = [
      [{ title: '' }, 422, MSG.events.eventNameRequired],
      [{ title: 'X', startTime: at(gameDate, '19:00'), endTime: at(gameDate, '18:00') }, 422, MSG.events.endAfterStart],
      [{ title: 'X', startTime: at(gameDate, '19:00'), endTime: at(gameDate, '19:04') }, 422, MSG.events.eventTooShort],
      [{ title: 'X', startTime: at(gameDate, '19:07'), endTime: at(gameDate, '23:00') }, 422, MSG.events.timeStep],
      [{ title: 'X', startTime: 'not a time', endTime: at(gameDate, '23:00') }, 400, MSG.events.invalidStart],
      [{ endTime: at(gameDate, '18:00') }, 422, MSG.events.endAfterStart],
      [{ endTime: 'soon' }, 400, MSG.events.invalidEnd],
    ];
    for (const [data, status, error] of refused) {
      const res = await put(slugDate, data);
      expect({ status: res.status, error: res.body.error }, JSON.stringify(data)).toEqual({ status, error });
    }
    expect((await get(slugDate)).body).toEqual(snapshot);

    // The early end: any minute after the start, by the power menu.
    const power = await t().userWith([P.POWER_BTN]);
    const early = new Date(zonedInstant(gameDate, '20:07', TZ).getTime() + 13_000).toISOString();
    const ended = await put(slugDate, { endTime: early }, power.cookie);
    expect(ended.status).toBe(200);
    expect(ended.body.endTime).toBe(early);
    expect(ended.body.title).toBe('Renamed');
    expect((await put('stadiumcam', { endTime: early })).body.error).toBe(MSG.events.templateNoSchedule);
  });

  it('saves promotions: assigns ids, keeps known ones, rejects invalid times and types', async () => {
    const gameDate = day(22);
    const slugDate = `stadiumcam-${gameDate}`;
    await create(createBody(gameDate));
    const drawer = await t().userWith([P.LIVE_METRIC]);
    const first = await put(
      slugDate,
      {
        promo: [
          { type: PROMO_TYPES[2], start: at(gameDate, '20:30') },
          { type: PROMO_TYPES[1], start: at(gameDate, '19:00') },
        ],
      },
      drawer.cookie,
    );
    expect(first.status).toBe(200);
    const promos = first.body.promo as { _id: string; type: string; start: string }[];
    expect(promos.map((p) => p.type)).toEqual([PROMO_TYPES[1], PROMO_TYPES[2]]);
    expect(promos.every((p) => p._id.length > 0)).toBe(true);
    expect(promos[0].start).toBe(at(gameDate, '19:00'));

    const kept = await put(slugDate, {
      promo: [
        { ...promos[0], type: 'LED boards' },
        { _id: 'made-up', type: 'N/A', start: `${gameDate}T12:00:00+00:00` },
      ],
    });
    expect(kept.status).toBe(200);
    const after = kept.body.promo as { _id: string; type: string; start: string }[];
    expect(after.find((p) => p._id === promos[0]._id)?.type).toBe('LED boards');
    expect(after.some((p) => p._id === 'made-up')).toBe(false);
    expect(after.find((p) => p.type === 'N/A')?.start).toBe(new Date(`${gameDate}T12:00:00Z`).toISOString());

    const stored = (await get(slugDate)).body.promo;
    const refused: [unknown[], number, string][] = [
      [[{ type: 'LED boards', start: 'yesterday-ish' }], 422, MSG.events.timeNotValid],
      [[{ type: 'LED boards', start: `${gameDate}T19:61:00Z` }], 422, MSG.events.timeNotValid],
      [[{ type: 'LED boards', start: '' }], 422, MSG.events.timeNotValid],
      [[{ type: 'fireworks', start: at(gameDate, '19:00') }], 422, MSG.events.promoTypeUnknown],
      [[{ type: '', start: at(gameDate, '19:00') }], 422, MSG.events.promoTypeRequired],
    ];
    for (const [promo, status, error] of refused) {
      const res = await put(slugDate, { promo });
      expect({ status: res.status, error: res.body.error }, JSON.stringify(promo)).toEqual({ status, error });
    }
    expect((await put(slugDate, { promo: [{ type: 'N/A' }] })).status).toBe(400);
    expect((await get(slugDate)).body.promo).toEqual(stored);

    const cleared = await put(slugDate, { promo: [] });
    expect(cleared.body.promo).toEqual([]);
    const monitorOnly = await t().userWith([P.MONITOR_READ]);
    expect((await put(slugDate, { promo: [] }, monitorOnly.cookie)).status).toBe(403);
  });

  it('deletes an event with its snapshots and media folder; refuses template, live and unknown', async () => {
    const gameDate = day(30);
    const slugDate = `stadiumcam-${gameDate}`;
    await create(createBody(gameDate));
    const db = t().app.deps.db;
    const snapId = randomUUID();
    await makePhoto(db, { id: snapId, slugDate, userId: 'u1' });
    const folder = path.join(t().config.mediaDir, slugDate);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'photo.jpg'), 'x');
    const remove = async (s: string, cookie?: string) =>
      t().call(eventsRoutes.remove, { cookie: cookie ?? (await admin()), params: { slugDate: s } });

    const writer = await t().userWith([P.EVENT_WRITE]);
    expect((await remove(slugDate, writer.cookie)).status).toBe(403);

    await put(slugDate, { eventStatus: 'live' });
    const live = await remove(slugDate);
    expect(live.status).toBe(422);
    expect(live.body.error).toBe(MSG.events.liveNoDelete);

    const tpl = await remove('stadiumcam');
    expect(tpl.status).toBe(422);
    expect(tpl.body.error).toBe(MSG.events.templateNoDelete);

    expect((await snapshotTotals(db, slugDate)).snapshots).toBe(1);
    const wrong = await remove(`stadiumcam-${day(31)}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body.error).toBe(MSG.events.eventNotFound);
    expect(await findEventBySlugDate(db, slugDate)).not.toBeNull();
    expect(existsSync(folder)).toBe(true);

    await put(slugDate, { eventStatus: 'post' });
    const deleter = await t().userWith([P.DELETE_EVENT]);
    const done = await remove(slugDate, deleter.cookie);
    expect(done.status).toBe(204);
    expect((await get(slugDate)).status).toBe(404);
    expect(existsSync(folder)).toBe(false);
    expect((await snapshotTotals(db, slugDate)).snapshots).toBe(0);
    expect((await get('stadiumcam')).status).toBe(200);
  });
});
