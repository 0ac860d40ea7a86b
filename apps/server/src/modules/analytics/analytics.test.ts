import { beforeAll, describe, expect, it } from 'vitest';
import { MSG, P, analyticsRoutes as r, snapshotsRoutes, type PageView } from '@stadiumcam/contract';
import { describeEachDb, ORIGIN } from '../../test/harness.ts';
import { makeEvent, makeFace, makePhoto } from '../../test/factories.ts';
import type { SnapshotInsert } from '../snapshots/snapshots.repository.ts';
import { csvCell } from '../../csv.ts';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../snapshots/snapshots.repository.ts';
import { change, engagedUsers } from './analytics.service.ts';
import { userBuckets } from './analytics.repository.ts';

// A hand-made data set: every expected number below is worked out by hand from these rows.
const A = 'stadiumcam-2030-02-10'; // Winnipeg, UTC-6 in February; photos around local midnight
const B = 'stadiumcam-2030-02-03'; // the past event with data
const C = 'stadiumcam-2030-02-05'; // between them, no photos: not the past event
const D = 'kolkata-2030-02-12'; // UTC+5:30, photos over more than 12 hours: hourly buckets
const E = 'hostile-2030-02-14'; // CSV injection
const EMPTY = 'stadiumcam-2030-02-20';
const LIVE = 'stadiumcam-2030-02-21';

const trait = (Value: boolean, Confidence = 95) => ({ Value, Confidence });
const face = (
  gender: [string, number],
  age: [number, number],
  emotions: [string, number][],
  beard = trait(false, 80),
) => makeFace({ gender, age, emotions, traits: { Beard: beard } });
const share = (socialSource: 'Download' | 'Email' | 'print' | 'Share', userEmail?: string) => ({
  socialSource,
  imgURL: '/media/x.jpg',
  date: '2030-02-11T06:00:00.000Z',
  ...(userEmail ? { userEmail } : {}),
});

describeEachDb('analytics API', (t) => {
  let admin: string;
  const db = () => t().app.deps.db;
  let n = 0;
  const photo = (slugDate: string, userId: string, date: string, over: Partial<SnapshotInsert> = {}) =>
    makePhoto(db(), { id: `${slugDate}-${++n}`, slugDate, userId, date: new Date(date), ...over });
  const event = (slugDate: string, eventStatus: string, timezone = 'America/Winnipeg', config = {}) =>
    makeEvent(db(), slugDate, { title: `Game ${slugDate}`, eventStatus, timezone, config });
  const get = async (route: (typeof r)[keyof typeof r], slugDate: string, cookie = admin) =>
    t().call(route as typeof r.basic, { params: { slugDate }, cookie });

  beforeAll(async () => {
    admin = await t().adminCookie();
    await event(A, 'post', 'America/Winnipeg', { overlays: [{ storageKey: 'ov1', urlFullSize: '/media/ov1.png' }] });
    await event(B, 'post');
    await event(C, 'post');
    await event(D, 'post', 'Asia/Kolkata');
    await event(E, 'post');
    await event(EMPTY, 'post');
    await event(LIVE, 'live');
    // u1: two photos in the local 23:45 quarter of Feb 10; one shared twice (Download, Email).
    await photo(A, 'u1', '2030-02-11T05:50:00Z', {
      overlay: 'ov1',
      postObj: [share('Download'), share('Email', 'fan@example.com')],
      faces: [
        face(
          ['Female', 99],
          [20, 30],
          [
            ['HAPPY', 90],
            ['CALM', 30],
          ],
          trait(false, 40),
        ),
      ],
    });
    await photo(A, 'u1', '2030-02-11T05:55:00Z', { row: 'B', faces: [] });
    // u2: just after local midnight (Feb 11 00:10), shared once, two faces.
    await photo(A, 'u2', '2030-02-11T06:10:00Z', {
      section: '102',
      overlay: 'ov1',
      postObj: [share('Share')],
      faces: [
        face(
          ['Male', 55],
          [40, 50],
          [
            ['SAD', 61],
            ['ANGRY', 60],
          ],
        ),
        face(['Female', 99], [10, 16], [['DISGUSTED', 99]]),
      ],
    });
    // u3: an overlay the event no longer has, no face data.
    await photo(A, 'u3', '2030-02-11T06:20:00Z', { overlay: 'ov-missing' });
    // An operator's magicshot counts nowhere.
    await photo(A, 'MAGIC-1', '2030-02-11T06:00:00Z', { section: '999', magicshot: true, postObj: [share('print')] });

    await photo(B, 'v1', '2030-02-04T02:00:00Z', { postObj: [share('Download')] });
    await photo(B, 'v2', '2030-02-04T02:05:00Z');

    await photo(D, 'k1', '2030-02-12T18:20:00Z'); // 23:50 IST
    await photo(D, 'k2', '2030-02-12T18:40:00Z'); // 00:10 IST, Feb 13
    await photo(D, 'k3', '2030-02-13T07:00:00Z'); // 12:30 IST

    await photo(E, '=cmd|calc', '2030-02-15T02:00:00Z', {
      section: '=HYPERLINK("http://evil")',
      row: '+1',
      overlay: '@SUM(A1)',
      postObj: [share('Email', 'x@example.com')],
    });
  });

  it('computes the basic figures of a hand-made event', async () => {
    const res = await get(r.basic, A);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.hasValues).toBe(true);
    expect(b.event).toMatchObject({ slugDate: A, timezone: 'America/Winnipeg', eventStatus: 'post' });
    expect({ users: b.users, snapshots: b.snapshots, shares: b.shares, sharedPhotos: b.sharedPhotos }).toEqual({
      users: 3,
      snapshots: 4,
      shares: 3,
      sharedPhotos: 2,
    });
    expect(b.sharers).toBe(2);
    expect(b.shareRate).toBe(66.67); // 2 of 3 users shared
    expect(b.photoShareRate).toBe(50); // 2 of 4 photos
    // Group sizes 1, 0, 2 → average 1.00, median 1; 3 devices → 3 and 3.
    expect(b.engagedUsers).toEqual({
      average: 3,
      median: 3,
      averageGroupSize: 1,
      medianGroupSize: 1,
      photosWithFaces: 3,
    });
    expect(b.overlayUsage).toEqual([
      { overlay: 'ov1', url: '/media/ov1.png', count: 2, percentage: 50 },
      { overlay: null, url: null, count: 1, percentage: 25 },
      { overlay: 'ov-missing', url: null, count: 1, percentage: 25 },
    ]);
    expect(b.shareInsights).toEqual([
      { socialSource: 'Download', count: 1 },
      { socialSource: 'Email', count: 1 },
      { socialSource: 'Share', count: 1 },
    ]);
    expect(b.sections).toEqual([
      { x: '101', count: 3 },
      { x: '102', count: 1 },
    ]);
    expect(b.rows).toEqual([
      { x: 'A', count: 3 },
      { x: 'B', count: 1 },
    ]);
  });

  it('buckets the timeline in the event time zone across local midnight', async () => {
    const { timeline } = (await get(r.basic, A)).body;
    expect(timeline.bucketMinutes).toBe(15);
    expect(timeline.points).toEqual([
      { date: '2030-02-11T05:45:00.000Z', local: '2030-02-10 23:45', users: 1, snapshots: 2, shares: 2 },
      { date: '2030-02-11T06:00:00.000Z', local: '2030-02-11 00:00', users: 1, snapshots: 1, shares: 1 },
      { date: '2030-02-11T06:15:00.000Z', local: '2030-02-11 00:15', users: 1, snapshots: 1, shares: 0 },
    ]);
    // Over 12 hours: hours of a UTC+5:30 zone, gaps filled with zeros.
    const d = (await get(r.basic, D)).body.timeline;
    expect(d.bucketMinutes).toBe(60);
    const nonZero = d.points.filter((p: { snapshots: number }) => p.snapshots > 0);
    expect(nonZero).toEqual([
      { date: '2030-02-12T17:30:00.000Z', local: '2030-02-12 23:00', users: 1, snapshots: 1, shares: 0 },
      { date: '2030-02-12T18:30:00.000Z', local: '2030-02-13 00:00', users: 1, snapshots: 1, shares: 0 },
      { date: '2030-02-13T06:30:00.000Z', local: '2030-02-13 12:00', users: 1, snapshots: 1, shares: 0 },
    ]);
    expect(d.points).toHaveLength(14); // 23:00 to 12:00 local
  });

  it('counts vision figures only above confidence 60', async () => {
    const res = await get(r.vision, A);
    expect(res.status).toBe(200);
    const v = res.body;
    expect(v).toMatchObject({ hasValues: true, faces: 3, photos: 3 });
    expect(v.ageRange).toEqual([
      { x: '0-17', count: 1 },
      { x: '18-24', count: 0 },
      { x: '25-34', count: 1 },
      { x: '35-44', count: 0 },
      { x: '45-54', count: 1 },
      { x: '55-64', count: 0 },
      { x: '65+', count: 0 },
    ]);
    // The male face's gender has confidence 55: not counted.
    expect(v.gender).toEqual([{ x: 'Female', count: 2 }]);
    // CALM 30 and ANGRY exactly 60 do not count.
    const zero = { angry: 0, calm: 0, confused: 0, disgusted: 0, fear: 0, happy: 0, sad: 0, surprised: 0 };
    expect(v.emotions.points).toEqual([
      { date: '2030-02-11T05:45:00.000Z', local: '2030-02-10 23:45', ...zero, happy: 1 },
      { date: '2030-02-11T06:00:00.000Z', local: '2030-02-11 00:00', ...zero, sad: 1, disgusted: 1 },
    ]);
    // u1's beard has confidence 40: counted neither way.
    expect(v.traits.beard).toEqual({ yes: 0, no: 2 });
    expect(v.traits.smile).toEqual({ yes: 3, no: 0 });
    expect(v.traits.moustache).toEqual({ yes: 0, no: 3 });
    expect(v.traits.mouthOpen).toEqual({ yes: 3, no: 0 });
  });

  it('compares with the previous dated event that has photos', async () => {
    const res = await get(r.pastEventData, A);
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ slugDate: B });
    expect(res.body.figures).toEqual({
      users: 2,
      snapshots: 2,
      shares: 1,
      shareRate: 50,
      photoShareRate: 50,
      engagedUsersAverage: 0,
      engagedUsersMedian: 0,
    });
    expect(res.body.change).toEqual({
      users: 50,
      snapshots: 100,
      shares: 200,
      shareRate: 33.3, // (66.67 - 50) / 50
      photoShareRate: 0,
      engagedUsersAverage: null,
      engagedUsersMedian: null,
    });
    // The oldest event has nothing before it.
    expect((await get(r.pastEventData, B)).body).toEqual({ event: null, figures: null, change: {} });
  });

  it('engaged users: average and median group size rounded to 2 decimals, times devices, floored', () => {
    const sizes = (list: number[]) => {
      const m = new Map<number, number>();
      for (const s of list) m.set(s, (m.get(s) ?? 0) + 1);
      return m;
    };
    // 1,2,2,4: average 2.25 × 7 = 15.75 → 15; median 2 × 7 = 14.
    expect(engagedUsers(sizes([1, 2, 2, 4]), 7)).toMatchObject({ average: 15, median: 14, averageGroupSize: 2.25 });
    // 1,1,2: average 1.333 → 1.33 × 100 = 133 (not 133.33); median 1.
    expect(engagedUsers(sizes([1, 1, 2]), 100)).toMatchObject({ average: 133, median: 100, averageGroupSize: 1.33 });
    // 2,3: 2.5 × 3 = 7.5 → 7 both ways.
    expect(engagedUsers(sizes([2, 3]), 3)).toMatchObject({ average: 7, median: 7, medianGroupSize: 2.5 });
    // Seventeen 1s and three 2s: 1.15 × 100 must be 115 (1.15 * 100 in floating point is 114.99...).
    const ones = sizes([...Array<number>(17).fill(1), 2, 2, 2]);
    expect(engagedUsers(ones, 100)).toMatchObject({ average: 115, averageGroupSize: 1.15, median: 100 });
    expect(engagedUsers(new Map(), 10)).toEqual({
      average: 0,
      median: 0,
      averageGroupSize: 0,
      medianGroupSize: 0,
      photosWithFaces: 0,
    });
    expect(change(3, 2)).toBe(50);
    expect(change(1, 4)).toBe(-75);
    expect(change(5, 0)).toBeNull();
  });

  it('answers an event with no photos with zeros and 404 for an unknown event', async () => {
    const b = (await get(r.basic, EMPTY)).body;
    expect(b).toMatchObject({ hasValues: false, users: 0, snapshots: 0, shares: 0, shareRate: 0, photoShareRate: 0 });
    expect(b.timeline.points).toEqual([]);
    expect(JSON.stringify(b)).not.toContain('NaN');
    const v = (await get(r.vision, EMPTY)).body;
    expect(v).toMatchObject({ hasValues: false, faces: 0, ageRange: [], gender: [] });
    for (const route of [r.basic, r.vision, r.google, r.pastEventData, r.export]) {
      const res = await get(route, 'nope-2030-01-01');
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(MSG.events.eventNotFound);
    }
  });

  it('exports a CSV with every cell quoted and formula prefixes neutralised; refuses a live event', async () => {
    const res = await get(r.export, E);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${E}-analytics.csv"`);
    const csv = res.body as string;
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('"panel","label","value"');
    for (const line of lines) expect(line).toMatch(/^"[^"]*(""[^"]*)*"(,"([^"]|"")*")*$/);
    expect(csv).toContain(`"section","'=HYPERLINK(""http://evil"")","1"`);
    expect(csv).toContain(`"row","'+1","1"`);
    expect(csv).toContain(`"overlayUsage","'@SUM(A1)","1"`);
    expect(csv).not.toContain('x@example.com'); // no personal data in analytics
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('plain "q"')).toBe('"plain ""q"""');
    expect(csvCell(-5)).toBe('"-5"');
    const live = await get(r.export, LIVE);
    expect(live.status).toBe(422);
    expect(live.body.error).toBe(MSG.analytics.exportWhileLive);
  });

  describe('permissions', () => {
    it('gates web and vision figures and their export rows', async () => {
      const reader = (await t().userWith([P.ANALYTICS_READ])).cookie;
      expect((await get(r.basic, A, reader)).status).toBe(200);
      expect((await get(r.pastEventData, A, reader)).status).toBe(200);
      expect((await get(r.vision, A, reader)).status).toBe(403);
      expect((await get(r.google, A, reader)).status).toBe(403);
      const csv = (await get(r.export, A, reader)).body as string;
      expect(csv).toContain('"figures","users","3"');
      expect(csv).not.toContain('vision');
      expect(csv).not.toContain('"web ');
      const full = (await get(r.export, A)).body as string;
      expect(full).toContain('"vision gender","Female","2"');

      const nobody = (await t().userWith([])).cookie;
      for (const route of [r.basic, r.pastEventData, r.export]) expect((await get(route, A, nobody)).status).toBe(403);
      const anon = await t().call(r.basic, { params: { slugDate: A } });
      expect(anon.status).toBe(401);
      const ga = (await t().userWith([P.ANALYTICS_GA_READ])).cookie;
      expect((await get(r.google, A, ga)).status).toBe(200);
      const vision = (await t().userWith([P.ANALYTICS_VISION_READ])).cookie;
      expect((await get(r.vision, A, vision)).status).toBe(200);
    });
  });

  it('counts cookieless page views and refuses bad ones, changing nothing', async () => {
    const empty = (await get(r.google, A)).body;
    expect(empty.hasValues).toBe(false);
    expect(Object.values(empty.panels).every((p) => p === null)).toBe(true);

    const view = (over: Partial<PageView> & Record<string, unknown> = {}) =>
      t().call(r.pageView, {
        body: {
          slugDate: A,
          page: 'seat',
          device: 'mobile',
          language: 'fr-CA',
          country: 'CA',
          screen: { width: 390, height: 844 },
          ...over,
        },
      });
    expect((await view()).status).toBe(204);
    expect((await view({ page: 'photo', language: 'en-US', country: 'US' })).status).toBe(204);
    expect((await view({ page: 'photo', device: 'tablet', country: undefined })).status).toBe(204);
    for (const bad of [
      { device: 'fridge' },
      { page: 'Seat<script>' },
      { language: 'fr\u0000' },
      { country: 'canada' },
      { screen: { width: -1, height: 5 } },
      { cookie: 'x' },
    ])
      expect((await view(bad as Partial<PageView>)).status).toBe(400);
    expect((await view({ slugDate: 'nope-2030-01-01' })).status).toBe(404);

    const web = (await get(r.google, A)).body;
    expect(web.hasValues).toBe(true);
    expect(web.pageViews).toBe(3);
    expect(web.panels.device).toEqual([
      { x: 'mobile', count: 2 },
      { x: 'tablet', count: 1 },
    ]);
    expect(web.panels.language).toEqual([
      { x: 'fr', count: 2 },
      { x: 'en', count: 1 },
    ]);
    expect(web.panels.country).toEqual([
      { x: 'CA', count: 1 },
      { x: 'US', count: 1 },
    ]);
    expect(web.panels.page).toEqual([
      { x: 'photo', count: 2 },
      { x: 'seat', count: 1 },
    ]);
    expect(web.panels.screen).toEqual([{ x: '390x844', count: 3 }]);
    for (const p of ['age', 'gender', 'city', 'interest']) expect(web.panels[p]).toBeNull();
  });

  it('writes page views once a second; a failed write keeps its counts for the next', async () => {
    const V = 'views-2030-02-20';
    await event(V, 'live');
    const db = t().app.deps.db;
    const stored = async () =>
      rowsOf<{ key: string; n: number }>(
        await db.execute(sql`select key, n from page_view_counts where slug_date = ${V} and dimension = 'page'`),
      ).map((x) => [x.key, Number(x.n)]);
    const body: PageView = {
      slugDate: V,
      page: 'queue',
      device: 'mobile',
      language: 'en',
      screen: { width: 390, height: 844 },
    };
    for (let i = 0; i < 3; i++) expect((await t().call(r.pageView, { body })).status).toBe(204);
    // The table away: the write fails (and so may the once-a-second one), the counts stay.
    await db.execute(sql`alter table page_view_counts rename to page_view_counts_away`);
    try {
      await t().app.deps.pageViews.flush();
    } finally {
      await db.execute(sql`alter table page_view_counts_away rename to page_view_counts`);
    }
    expect((await t().call(r.pageView, { body })).status).toBe(204);
    await t().app.deps.pageViews.flush();
    expect(await stored()).toEqual([['queue', 4]]);
    // The next second's views add to the row.
    expect((await t().call(r.pageView, { body })).status).toBe(204);
    expect((await get(r.google, V)).body.pageViews).toBe(5);
  });

  it('counts the attendees of an event left open for a month, across a daylight-saving change', async () => {
    const G = 'long-2030-03-01';
    await event(G, 'post');
    await photo(G, 'g1', '2030-03-01T20:00:00Z');
    await photo(G, 'g2', '2030-03-01T20:20:00Z', { postObj: [share('Share')] });
    await photo(G, 'g1', '2030-03-31T20:00:00Z'); // not a new attendee
    await photo(G, 'g3', '2030-03-31T20:05:00Z');
    const b = (await get(r.basic, G)).body;
    expect({ users: b.users, sharers: b.sharers, snapshots: b.snapshots }).toEqual({
      users: 3,
      sharers: 1,
      snapshots: 4,
    });
    expect(b.timeline.bucketMinutes).toBe(60);
    const withUsers = b.timeline.points.filter((p: { users: number }) => p.users > 0);
    expect(withUsers.map((p: { local: string; users: number }) => [p.local, p.users])).toEqual([
      ['2030-03-01 14:00', 2], // Winnipeg, UTC-6 before the DST change
      ['2030-03-31 15:00', 1], // UTC-5 after it
    ]);
  });

  it('keeps the top 10 of the histograms and of every web-analytics list (spec 3 §9)', async () => {
    const F = 'top-2030-02-16';
    await event(F, 'post');
    // Twelve labels: K three times, L twice, A..J once each. The top 10 is K, L, then A..H
    // (ties by label); I and J fall off.
    const labels = ['K', 'K', 'K', 'L', 'L', ...'ABCDEFGHIJ'];
    const top10 = [{ x: 'K', count: 3 }, { x: 'L', count: 2 }, ...[...'ABCDEFGH'].map((x) => ({ x, count: 1 }))];
    for (const [i, x] of labels.entries())
      await photo(F, `t${i}`, `2030-02-17T02:${String(i).padStart(2, '0')}:00Z`, { section: `S-${x}`, row: x });
    const b = (await get(r.basic, F)).body;
    expect(b.snapshots).toBe(15);
    expect(b.sections).toEqual(top10.map((c) => ({ ...c, x: `S-${c.x}` })));
    expect(b.rows).toEqual(top10);

    // The same twelve as countries of the attendee app's page views.
    for (const x of labels) {
      const res = await t().call(r.pageView, {
        body: {
          slugDate: F,
          page: 'seat',
          device: 'mobile',
          language: 'en',
          country: `X${x}`,
          screen: { width: 390, height: 844 },
        },
      });
      expect(res.status).toBe(204);
    }
    const web = (await get(r.google, F)).body;
    expect(web.pageViews).toBe(15);
    expect(web.panels.country).toEqual(top10.map((c) => ({ ...c, x: `X${c.x}` })));
  });

  it('event users: banned and date-range filters, share platform, a page past the end, bad filters', async () => {
    const list = (query: Record<string, unknown>) =>
      t().call(snapshotsRoutes.list, {
        query: { slugDate: [A], pageSize: 50, withTotal: true, sortOrder: 'asc', ...query } as never,
        cookie: admin,
      });
    const ids = async (query: Record<string, unknown>) =>
      ((await list(query)).body.items as { userId: string; date: string }[]).map(
        (s) => `${s.userId}@${s.date.slice(11, 16)}`,
      );
    const [u2photo] = (await list({ userId: ['u2'] })).body.items as { _id: string }[];
    const ban = (banStatus: boolean) =>
      t().call(snapshotsRoutes.ban, {
        body: { ids: [u2photo._id], banStatus },
        cookie: admin,
        headers: { origin: ORIGIN },
      });
    expect((await ban(true)).status).toBe(200);
    expect(await ids({ hidden: true })).toEqual(['u2@06:10']);
    expect(await ids({ hidden: false })).toEqual(['u1@05:50', 'u1@05:55', 'u3@06:20']);
    expect((await ban(false)).status).toBe(200);
    expect(await ids({ hidden: true })).toEqual([]);
    expect(await ids({ dateFrom: '2030-02-11T05:52:00Z', dateTo: '2030-02-11T06:15:00Z' })).toEqual([
      'u1@05:55',
      'u2@06:10',
    ]);
    expect(await ids({ sharedPlatform: ['Email'] })).toEqual(['u1@05:50']);
    // The platform totals, counted per share-source list: each photo once, the tab kept.
    const total = async (query: Record<string, unknown>) => (await list(query)).body.total;
    expect(await total({ sharedPlatform: ['Email'] })).toBe(1);
    expect(await total({ sharedPlatform: ['Download', 'Email', 'Share'] })).toBe(2);
    expect(await total({ sharedPlatform: ['print'] })).toBe(0); // only the operator's magicshot
    expect(await total({ sharedPlatform: ['print'], type: 'all-with-magicshot' })).toBe(1);
    expect(await total({ sharedPlatform: ['Email'], slugDate: [A, E] })).toBe(2);
    const beyond = await list({ page: 2 });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ items: [], total: 4 });
    for (const bad of [
      { dateFrom: '2030-02-11T07:00:00Z', dateTo: '2030-02-11T06:00:00Z' },
      { hidden: 'maybe' },
      { dateFrom: 'yesterday' },
      { pageSize: 500 },
    ])
      expect((await list(bad)).status).toBe(400);
  });

  it('keeps the attendees and sharers per bucket equal to a recount after every kind of write', async () => {
    const H = 'rollup-2030-02-18';
    await event(H, 'post');
    const recount = async () =>
      rowsOf<{ bucket: Date | string; users: number; sharers: number }>(
        await db()
          .execute(sql`select date_bin('15 minutes', first_date, timestamptz '2000-01-01 00:00:00+00') as bucket,
          count(*)::int as users, (count(*) filter (where shared_photos > 0))::int as sharers
          from event_users where slug_date = ${H} group by 1 order by 1`),
      ).map((b) => ({ bucket: new Date(b.bucket), users: Number(b.users), sharers: Number(b.sharers) }));
    const kept = async () => (await userBuckets(db(), H)).sort((a, b) => a.bucket.getTime() - b.bucket.getTime());
    const same = async () => expect(await kept()).toEqual(await recount());

    await photo(H, 'r1', '2030-02-18T20:05:00Z');
    await photo(H, 'r2', '2030-02-18T20:20:00Z');
    await same();
    // An earlier first photo moves r2 to an earlier bucket; the old bucket keeps no attendee.
    await photo(H, 'r2', '2030-02-18T19:50:00Z', { postObj: [share('Email')] });
    await same();
    expect((await kept()).map((b) => [b.bucket.toISOString(), b.users, b.sharers])).toEqual([
      ['2030-02-18T19:45:00.000Z', 1, 1],
      ['2030-02-18T20:00:00.000Z', 1, 0],
    ]);
    // A share of r1's photo makes r1 a sharer; deleting that photo (moderation) removes r1.
    const ids = rowsOf<{ id: string; user_id: string }>(
      await db().execute(sql`select id, user_id from snapshots where slug_date = ${H} order by date`),
    );
    const r1 = ids.find((x) => x.user_id === 'r1')!.id;
    await db().execute(sql`update snapshots set shared_count = 1, post_obj = ${JSON.stringify([share('Share')])}::jsonb
      where id = ${r1}`);
    await same();
    const del = await t().call(snapshotsRoutes.remove, {
      body: { ids: [r1] },
      cookie: admin,
      headers: { origin: ORIGIN },
    });
    expect(del.status).toBe(200);
    await same();
    expect((await get(r.basic, H)).body).toMatchObject({ users: 1, sharers: 1 });
    // A rename of the event moves its attendees with it.
    await db().execute(sql`update snapshots set slug_date = ${H} where slug_date = ${H}`);
    await same();
  });

  it('follows moderation: a deleted attendee leaves the figures', async () => {
    const list = await t().call(snapshotsRoutes.list, { query: { slugDate: [A], userId: ['u3'] }, cookie: admin });
    const del = await t().call(snapshotsRoutes.remove, {
      body: { ids: [list.body.items[0]._id] },
      cookie: admin,
      headers: { origin: ORIGIN },
    });
    expect(del.status).toBe(200);
    const b = (await get(r.basic, A)).body;
    expect({ users: b.users, snapshots: b.snapshots }).toEqual({ users: 2, snapshots: 3 });
    expect(b.overlayUsage.map((o: { overlay: string | null }) => o.overlay)).toEqual(['ov1', null]);
    expect(b.shareRate).toBe(100);
  });
});
