import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MSG, P, analyticsRoutes as r, mappingRoutes, snapshotsRoutes, type Heatmap } from '@stadiumcam/contract';
import { venueMapFile, venueRowDict } from '@stadiumcam/venue-sim';
import { describeEachDb, ORIGIN } from '../../test/harness.ts';
import { makeEvent, makePhoto } from '../../test/factories.ts';
import { SocketPool, listenUrl, type TestHost } from '../../test/realtime.ts';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { joinAsNewFan } from '../attendee/fan.test-util.ts';
import { rowsOf } from '../snapshots/snapshots.repository.ts';
import { QueueJoinLog } from './write-batch.ts';

/*
 * The seat heat map (issue 32 point 3): joins, photos and shares per section and seat, read from
 * the seat roll-up, the whole bowl from the seat map, a comparison with another event, and the
 * roll-up equal to a recount from the photos and joins after every kind of write.
 */

const PAST = 'stadiumcam-2020-03-01';
const share = { socialSource: 'Share', imgURL: '/media/x.jpg', date: '2020-03-01T20:00:00.000Z' };

describeEachDb('seat heat map', (t) => {
  let admin = '';
  let live = '';
  let host: TestHost;
  const pool = new SocketPool(() => url);
  let url = '';
  const db = () => t().app.deps.db;
  let n = 0;
  const photo = (slugDate: string, section: string, row: string, seat: string, over = {}) =>
    makePhoto(db(), { id: `hm-${++n}`, slugDate, userId: `fan-${n}`, section, row, seat, date: new Date(), ...over });
  const map = async (query: Record<string, string>, slugDate = live, cookie = admin) =>
    t().call(r.heatmap, { params: { slugDate }, query: query as never, cookie });
  const counts = (body: Heatmap) =>
    Object.fromEntries(body.sections.filter((s) => s.count || s.compareCount).map((s) => [s.section, s.count]));

  beforeAll(async () => {
    url = await listenUrl(t());
    admin = await t().adminCookie();
    host = await pool.host('heatmap-host', [{ camera: 'cam1' }]);
    let position = 0;
    host.on('queue join', (_p, ack) => ack({ ok: true, position: ++position }));
    live = (await ensureTodayEventLive(t().app.deps)).slugDate;
    const form = new FormData();
    form.append('file', new Blob([venueRowDict()]), 'row_dict.txt');
    form.append('file', new Blob([JSON.stringify(venueMapFile(1, 1))]), 'cam1.json');
    const up = await fetch(`${url}${mappingRoutes.upload.path}`, {
      method: 'POST',
      headers: { cookie: admin, origin: url },
      body: form,
    });
    expect(up.status).toBe(200);
    expect((await t().call(mappingRoutes.reload, { cookie: admin })).status).toBe(200);

    // Joins: three fans from 101/C/5, one from 102/A/1 (a join of the simulator's bowl spelling).
    for (const seat of ['5', '5', '5']) {
      const res = await joinAsNewFan(t(), {
        slugDate: live,
        seat: { seatType: 'section', section: '101', row: 'C', seat },
      });
      expect(res.status).toBe(200);
    }
    expect(
      (await joinAsNewFan(t(), { slugDate: live, seat: { seatType: 'section', section: '102', row: 'A', seat: '1' } }))
        .status,
    ).toBe(200);
    // Photos: two at 101/C/5 (one shared twice), one at 101/D/7, one at 103/B/2; a magicshot counts nowhere.
    await photo(live, '101', 'C', '5', { postObj: [share, { ...share, socialSource: 'Email' }] });
    await photo(live, '101', 'C', '5');
    await photo(live, '101', 'D', '7');
    await photo(live, '103', 'B', '2');
    await photo(live, '101', 'C', '5', { magicshot: true });
    // The past event: 101/C/5 once, 201/A/1 twice.
    await makeEvent(db(), PAST, { eventStatus: 'post' });
    await photo(PAST, '101', 'C', '5');
    await photo(PAST, '201', 'A', '1');
    await photo(PAST, '201', 'A', '1');
  });
  afterAll(() => pool.closeAll());

  it('counts joins, photos and shares per section over the whole bowl of the seat map', async () => {
    const photos = await map({ metric: 'photos' });
    expect(photos.status).toBe(200);
    const body = photos.body as Heatmap;
    // Two tiers of 16 sections (the simulator's bowl), in the bowl's order, each with its rows and seats.
    expect(body.sections).toHaveLength(32);
    expect(body.sections.map((s) => s.section).slice(0, 3)).toEqual(['101', '102', '103']);
    expect(body.sections[0]).toMatchObject({ seatType: 'section', mins: 1, maxs: 20, compareCount: null });
    expect(body.sections[0].rows).toEqual('ABCDEFGHJKLM'.split(''));
    expect(counts(body)).toEqual({ '101': 3, '103': 1 });
    expect(body.seats).toBeNull();
    expect(body.compare).toBeNull();
    expect(counts((await map({ metric: 'joins' })).body)).toEqual({ '101': 3, '102': 1 });
    expect(counts((await map({ metric: 'shares' })).body)).toEqual({ '101': 2 });
  });

  it("answers a section's seats", async () => {
    const seats = (await map({ metric: 'photos', section: '101' })).body as Heatmap;
    expect(seats.seats).toEqual([
      { row: 'C', seat: '5', count: 2, compareCount: null },
      { row: 'D', seat: '7', count: 1, compareCount: null },
    ]);
    const joins = (await map({ metric: 'joins', seatType: 'section', section: '101' })).body as Heatmap;
    expect(joins.seats).toEqual([
      { row: 'C', seat: '5', count: 3, compareCount: null },
      { row: 'D', seat: '7', count: 0, compareCount: null },
    ]);
    expect(((await map({ metric: 'photos', section: '216' })).body as Heatmap).seats).toEqual([]);
  });

  it('compares with another event, per section and per seat', async () => {
    const res = await map({ metric: 'photos', compare: PAST, section: '101' });
    expect(res.status).toBe(200);
    const body = res.body as Heatmap;
    expect(body.compare).toEqual({ slugDate: PAST, title: PAST });
    const of = (s: string) => body.sections.find((x) => x.section === s)!;
    expect([of('101').count, of('101').compareCount]).toEqual([3, 1]);
    expect([of('201').count, of('201').compareCount]).toEqual([0, 2]);
    expect([of('102').count, of('102').compareCount]).toEqual([0, 0]);
    expect(body.seats).toEqual([
      { row: 'C', seat: '5', count: 2, compareCount: 1 },
      { row: 'D', seat: '7', count: 1, compareCount: 0 },
    ]);
  });

  it('refuses an unknown event, an unknown compared event, a bad metric and a reader without the permission', async () => {
    const unknown = await map({ metric: 'photos' }, 'nowhere-2030-01-01');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(MSG.events.eventNotFound);
    const noCompare = await map({ metric: 'photos', compare: 'nowhere-2030-01-01' });
    expect(noCompare.status).toBe(404);
    expect(noCompare.body.error).toBe(MSG.events.eventNotFound);
    for (const metric of ['views', '', 'PHOTOS']) {
      const bad = await map({ metric });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(MSG.common.invalidRequest('metric', MSG.analytics.heatmapMetric));
    }
    expect((await t().call(r.heatmap, { params: { slugDate: live }, cookie: admin })).status).toBe(400);
    const nobody = (await t().userWith([])).cookie;
    expect((await map({ metric: 'photos' }, live, nobody)).status).toBe(403);
    const reader = (await t().userWith([P.ANALYTICS_READ])).cookie;
    expect((await map({ metric: 'photos' }, live, reader)).status).toBe(200);
  });

  it('keeps the seat roll-up equal to a recount after deletes, shares and a renamed or deleted event', async () => {
    const recount = async () =>
      rowsOf<Record<string, string | number>>(
        await db().execute(sql`select slug_date, seat_type, section, "row", seat,
            sum(j)::int as joins, sum(p)::int as photos, sum(s)::int as shares from (
          select slug_date, seat_type, section, "row", seat, 0 as j, 1 as p, shared_count as s
            from snapshots where not magicshot and section <> ''
          union all select slug_date, seat_type, section, "row", seat, 1, 0, 0 from queue_joins) x
          group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`),
      ).map((x) => ({ ...x, joins: Number(x.joins), photos: Number(x.photos), shares: Number(x.shares) }));
    const kept = async () =>
      rowsOf<Record<string, string | number>>(
        await db().execute(sql`select slug_date, seat_type, section, "row", seat, joins, photos, shares
          from seat_counts order by 1, 2, 3, 4, 5`),
      ).map((x) => ({ ...x, joins: Number(x.joins), photos: Number(x.photos), shares: Number(x.shares) }));
    // The section roll-up is the seats' sum per section.
    const sectionsKept = async () =>
      rowsOf<Record<string, string | number>>(
        await db().execute(sql`select slug_date, seat_type, section, joins, photos, shares
          from section_counts order by 1, 2, 3`),
      ).map((x) => ({ ...x, joins: Number(x.joins), photos: Number(x.photos), shares: Number(x.shares) }));
    const sectionsSummed = async () =>
      rowsOf<Record<string, string | number>>(
        await db().execute(sql`select slug_date, seat_type, section,
          sum(joins)::int as joins, sum(photos)::int as photos, sum(shares)::int as shares
          from seat_counts group by 1, 2, 3 order by 1, 2, 3`),
      ).map((x) => ({ ...x, joins: Number(x.joins), photos: Number(x.photos), shares: Number(x.shares) }));
    const same = async () => {
      expect(await kept()).toEqual(await recount());
      expect(await sectionsKept()).toEqual(await sectionsSummed());
    };
    await same();
    // A share of the 103 photo, then its delete through the album: the seat leaves the roll-up.
    const [p103] = rowsOf<{ id: string }>(
      await db().execute(sql`select id from snapshots where slug_date = ${live} and section = '103'`),
    );
    await db().execute(sql`update snapshots set shared_count = 1, post_obj = ${JSON.stringify([share])}::jsonb
      where id = ${p103.id}`);
    await same();
    const del = await t().call(snapshotsRoutes.remove, {
      body: { ids: [p103.id] },
      cookie: admin,
      headers: { origin: ORIGIN },
    });
    expect(del.status).toBe(200);
    await same();
    expect(counts((await map({ metric: 'photos' })).body)).toEqual({ '101': 3 });
    // A renamed event takes its counts along; a deleted one leaves nothing behind.
    const RENAMED = 'stadiumcam-2020-03-02';
    await db().execute(sql`update events set slug_date = ${RENAMED} where slug_date = ${PAST}`);
    await same();
    expect(counts((await map({ metric: 'photos' }, RENAMED)).body)).toEqual({ '101': 1, '201': 2 });
    await db().execute(sql`delete from events where slug_date = ${RENAMED}`);
    await same();
    expect(
      rowsOf<{ n: number }>(
        await db().execute(sql`select (select count(*) from seat_counts where slug_date = ${RENAMED})
          + (select count(*) from section_counts where slug_date = ${RENAMED}) as n`),
      ).map((x) => Number(x.n))[0],
    ).toBe(0);
    // The live event's joins survive the other event's changes.
    expect(counts((await map({ metric: 'joins' })).body)).toEqual({ '101': 3, '102': 1 });
  });

  it('writes queue joins a second at a time; a join of an event deleted meanwhile is dropped, not holding back the rest', async () => {
    const joinsOf = async (slugDate: string) =>
      rowsOf<{ n: number }>(
        await db().execute(sql`select count(*)::int as n from queue_joins where slug_date = ${slugDate}`),
      )[0].n;
    const before = await joinsOf(live);
    const errors: Error[] = [];
    const log = new QueueJoinLog(db(), (err) => errors.push(err as Error));
    const seat = { seatType: 'section', section: '101', row: 'A', seat: '1' };
    log.add(live, seat);
    log.add('an-event-deleted-meanwhile', seat);
    log.add(live, seat);
    expect(await joinsOf(live)).toBe(before);
    await log.close();
    expect(await joinsOf(live)).toBe(before + 2);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^1 rows dropped after: /)]);
    // The flush wrote everything: nothing is retried.
    await log.flush();
    expect(await joinsOf(live)).toBe(before + 2);
  });
});
