import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG, P, snapshotsRoutes as r, toQueryString, type Permission } from '@stadiumcam/contract';
import { describeEachDb, ORIGIN } from '../../test/harness.ts';
import { makeEvent, makeFace, makePhoto } from '../../test/factories.ts';
import type { SnapshotInsert } from './snapshots.repository.ts';

const run = promisify(execFile);
const EVENT = 'stadiumcam-2030-01-01';
/** The event's overlays: the album's overlay filter offers only the enabled one. */
const overlay = (storageKey: string, over: { disabled?: boolean; deleted?: boolean } = {}) => ({
  storageKey,
  urlFullSize: `/media/${storageKey}`,
  urlRaw: `/media/${storageKey}`,
  urlMediumSize: `/media/${storageKey}`,
  disabled: false,
  deleted: false,
  sections: ['*'],
  ...over,
});
const OVERLAYS = [
  overlay('overlays/a-frame-gold.png'),
  overlay('overlays/b-frame-blue.png', { disabled: true }),
  overlay('overlays/c-frame-gone.png', { deleted: true }),
];
const OTHER = 'stadiumcam-2030-01-02';
const LIVE = 'stadiumcam-2030-01-03';

/** A confident face with one strong emotion and a weak calm. */
const face = (gender: 'Female' | 'Male', low: number, high: number, emotion: string) =>
  makeFace({
    gender: [gender, 99],
    age: [low, high],
    emotions: [
      [emotion.toUpperCase(), 92],
      ['CALM', 20],
    ],
  });

const minute = (m: number) => new Date(Date.UTC(2030, 0, 1, 18, m, 0));

describeEachDb('snapshots API', (t) => {
  let admin: string;
  const db = () => t().app.deps.db;
  const seed = (id: string, over: Partial<SnapshotInsert> = {}) =>
    makePhoto(db(), { id, slugDate: EVENT, date: minute(0), ...over });
  /** Writes small JPEGs for a photo and points its URIs at them. */
  const seedWithMedia = async (id: string, over: Partial<SnapshotInsert> = {}) => {
    const dir = path.join(t().config.mediaDir, 'snapshots', EVENT);
    await mkdir(dir, { recursive: true });
    const uris: Record<string, string> = {};
    for (const [col, name, color] of [
      ['rawCroppedUri', 'raw', '#c00'],
      ['smallUri', 'small', '#0c0'],
      ['thumbUri', 'thumb', '#00c'],
      ['sharedUri', 'shared', '#cc0'],
    ] as const) {
      const jpeg = await sharp({ create: { width: 16, height: 12, channels: 3, background: color } })
        .jpeg()
        .toBuffer();
      await writeFile(path.join(dir, `${id}-${name}.jpg`), jpeg);
      uris[col] = `/media/snapshots/${EVENT}/${id}-${name}.jpg`;
    }
    return seed(id, { ...uris, ...over });
  };
  const fileOf = (uri: string) => path.join(t().config.mediaDir, uri.slice('/media/'.length));
  const list = async (query: Record<string, unknown>, cookie = admin) => {
    const res = await t().call(r.list, { query: query, cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as { items: { _id: string }[]; total?: number }).items.map((i) => i._id);
  };
  const as = async (permissions: Permission[]) => (await t().userWith(permissions)).cookie;

  beforeAll(async () => {
    admin = await t().adminCookie();
    for (const [slugDate, status] of [
      [EVENT, 'post'],
      [OTHER, 'post'],
      [LIVE, 'live'],
    ] as const) {
      await makeEvent(db(), slugDate, {
        eventStatus: status,
        ...(slugDate === EVENT ? { config: { overlays: OVERLAYS } } : {}),
      });
    }
    // Event 1: ten photos a minute apart (p0 oldest), varied seats, shares, faces.
    for (let i = 0; i < 10; i++) {
      await seed(`p${i}`, {
        date: minute(i),
        userId: i < 3 ? 'fan-1' : `fan-${i}`,
        camera: i % 2 ? 'cam2' : 'cam1',
        section: i < 5 ? '101' : '102',
        row: i % 3 === 0 ? 'B' : 'A',
        seat: String(i),
        favorite: i === 2 || i === 7,
        postObj:
          i === 4 || i === 8
            ? [
                {
                  socialSource: i === 4 ? 'Email' : 'Download',
                  imgURL: 'x',
                  date: minute(i).toISOString(),
                  userEmail: 'a@b.co',
                },
              ]
            : [],
        faces:
          i === 6
            ? [face('Female', 20, 28, 'happy'), face('Male', 30, 38, 'sad')]
            : i === 9
              ? [face('Male', 60, 70, 'angry')]
              : undefined,
      });
    }
    await seed('box1', { date: minute(20), userId: 'fan-box', seatType: 'box', section: 'B7', row: '1', seat: '1' });
    await seed('magic1', { date: minute(30), magicshot: true, userId: 'MAGIC-cam1', favorite: true });
    await seed('o1', { slugDate: OTHER, date: new Date(Date.UTC(2030, 0, 2, 18, 5)), userId: 'fan-1' });
    await seed('o2', { slugDate: OTHER, date: new Date(Date.UTC(2030, 0, 2, 18, 6)), userId: 'fan-x' });
  });

  describe('list', () => {
    it('pages the all tab newest first, without magicshots', async () => {
      expect(await list({ slugDate: [EVENT], pageSize: 4 })).toEqual(['box1', 'p9', 'p8', 'p7']);
      expect(await list({ slugDate: [EVENT], pageSize: 4, page: 3 })).toEqual(['p2', 'p1', 'p0']);
      expect(await list({ slugDate: [EVENT], pageSize: 4, page: 9 })).toEqual([]);
      const res = await t().call(r.list, { query: { slugDate: [EVENT], pageSize: 2, withTotal: true }, cookie: admin });
      expect(res.body.total).toBe(11);
      expect(res.body.items[0]).toMatchObject({ _id: 'box1', slugDate: EVENT, seatType: 'box', postObj: [] });
    });

    it('merges several events in date order, also on deep pages', async () => {
      expect(await list({ slugDate: [OTHER, EVENT], pageSize: 3 })).toEqual(['o2', 'o1', 'box1']);
      expect(await list({ slugDate: [OTHER, EVENT], pageSize: 3, page: 2 })).toEqual(['p9', 'p8', 'p7']);
      expect(await list({ slugDate: [EVENT, OTHER], sortOrder: 'asc', pageSize: 3, page: 4 })).toEqual([
        'p9',
        'box1',
        'o1',
      ]);
    });

    it('serves each tab', async () => {
      expect(await list({ slugDate: [EVENT], type: 'favorites' })).toEqual(['p7', 'p2']);
      expect(await list({ slugDate: [EVENT], type: 'shared' })).toEqual(['p8', 'p4']);
      expect(await list({ slugDate: [EVENT], type: 'magicshots' })).toEqual(['magic1']);
      expect((await list({ slugDate: [EVENT], type: 'all-with-magicshot' }))[0]).toBe('magic1');
      const items = (await t().call(r.list, { query: { slugDate: [EVENT], type: 'shared' }, cookie: admin })).body
        .items;
      expect(items[1]).toMatchObject({ sharedPlatforms: ['Email'], contactInfo: 'a@b.co' });
    });

    it('needs Magicshots:read for the magicshot tabs', async () => {
      const cookie = await as([P.PHOTOS_WRITE]);
      for (const type of ['magicshots', 'all-with-magicshot'])
        expect((await t().call(r.list, { query: { slugDate: [EVENT], type: type as never }, cookie })).status).toBe(
          403,
        );
      expect(await list({ slugDate: [EVENT], type: 'magicshots' }, await as([P.MAGICSHOTS_READ]))).toEqual(['magic1']);
      expect((await t().call(r.list, { query: { slugDate: [EVENT] } })).status).toBe(401);
    });

    it('filters by seat, camera, user and share platform', async () => {
      expect(await list({ slugDate: [EVENT], section: ['102'], row: ['B'] })).toEqual(['p9', 'p6']);
      expect(await list({ slugDate: [EVENT], box: ['B7'] })).toEqual(['box1']);
      expect(await list({ slugDate: [EVENT], section: ['101'], box: ['B7'], camera: ['cam2'] })).toEqual(['p3', 'p1']);
      expect(await list({ slugDate: [EVENT], seatType: ['box'] })).toEqual(['box1']);
      expect(await list({ slugDate: [EVENT], seat: ['3', '4'] })).toEqual(['p4', 'p3']);
      expect(await list({ slugDate: [EVENT], sharedPlatform: ['Download'] })).toEqual(['p8']);
      // A user filter alone reaches every event.
      expect(await list({ userId: 'fan-1' })).toEqual(['o1', 'p2', 'p1', 'p0']);
      expect(await list({ slugDate: [EVENT], userId: ['fan-1', 'fan-5'] })).toEqual(['p5', 'p2', 'p1', 'p0']);
    });

    it('filters by face data and time of day', async () => {
      expect(await list({ slugDate: [EVENT], emotion: ['happy'] })).toEqual(['p6']);
      expect(await list({ slugDate: [EVENT], emotion: ['calm'] })).toEqual([]);
      expect(await list({ slugDate: [EVENT], ageMin: 50, ageMax: 90 })).toEqual(['p9']);
      expect(await list({ slugDate: [EVENT], groupSizeMin: 2, groupSizeMax: 40 })).toEqual(['p6']);
      expect(await list({ slugDate: [EVENT], gender: 'Male' })).toEqual(['p9', 'p6']);
      expect(await list({ slugDate: [EVENT], gender: 'Female' })).toEqual(['p6']);
      expect(await list({ slugDate: [EVENT], gender: 'Both' })).toEqual(['p6']);
      // 18:02 to 18:04 UTC = minutes 1082-1084 of the UTC day.
      expect(await list({ slugDate: [EVENT], timeSince: 1082, timeUntil: 1084 })).toEqual(['p4', 'p3', 'p2']);
    });

    it('walks pages by keyset (dateVal, dateComparator, cursorId) and sorts by seat fields', async () => {
      const at = minute(5).toISOString();
      expect(await list({ slugDate: [EVENT], dateVal: at, dateComparator: 'lt', pageSize: 2 })).toEqual(['p4', 'p3']);
      expect(
        await list({ slugDate: [EVENT], dateVal: at, dateComparator: 'gte', sortOrder: 'asc', pageSize: 2 }),
      ).toEqual(['p5', 'p6']);
      expect(await list({ slugDate: [EVENT], dateVal: at, dateComparator: 'lt', cursorId: 'p5', pageSize: 1 })).toEqual(
        ['p4'],
      );
      expect(await list({ slugDate: [EVENT], sortField: 'section', sortOrder: 'asc', pageSize: 3 })).toEqual([
        'box1',
        'p1',
        'p2',
      ]);
      expect(await list({ slugDate: [EVENT], sortField: 'userId', sortOrder: 'asc', pageSize: 2 })).toEqual([
        'p0',
        'p1',
      ]);
    });

    it('refuses bad queries', async () => {
      const bad = async (query: string) => {
        const res = await t().app.inject({ method: 'GET', url: `/api/snapshots${query}`, headers: { cookie: admin } });
        expect(res.statusCode, query).toBe(400);
        expect(JSON.parse(res.body).error).toMatch(/^Invalid request/);
      };
      await bad(`?slugDate[]=${EVENT}&pageSize=101`);
      await bad(`?slugDate[]=${EVENT}&pageSize=0`);
      await bad(`?slugDate[]=${EVENT}&colour=red`);
      await bad(`?slugDate[]=${EVENT}&type=everything`);
      await bad(`?slugDate[]=${EVENT}&ageMin=200`);
      await bad(`?slugDate[]=${EVENT}&emotion[]=bored`);
      await bad(`?slugDate[]=${EVENT}&dateVal=2030-01-01T00:00:00Z`);
      await bad(`?slugDate[]=${EVENT}&sortField=hidden`);
      await bad('?type=all');
    });

    it('answers an empty page for an event without photos', async () => {
      expect(await list({ slugDate: ['nothing-2030-01-01'] })).toEqual([]);
    });
  });

  describe('stats and filter options', () => {
    it('counts the tabs with the same filters', async () => {
      const res = await t().call(r.stats, { query: { slugDate: [EVENT] }, cookie: admin });
      expect(res.body).toEqual({ all: 11, favorite: 2, magicshots: 1, shared: 2 });
      const filtered = await t().call(r.stats, { query: { slugDate: [EVENT], section: ['101'] }, cookie: admin });
      expect(filtered.body).toEqual({ all: 5, favorite: 1, magicshots: 1, shared: 1 });
      const noMagic = await t().call(r.stats, { query: { slugDate: [EVENT] }, cookie: await as([]) });
      expect(noMagic.body.magicshots).toBe(0);
      const bad = await t().call(r.stats, { query: { slugDate: [EVENT], page: 2 } as never, cookie: admin });
      expect(bad.status).toBe(400);
    });

    it('lists the values present in the events, and the events’ enabled overlays', async () => {
      const res = await t().call(r.filterOptions, { query: { slugDate: [EVENT] }, cookie: admin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        seatTypes: ['box', 'section'],
        sections: ['101', '102'],
        rows: ['1', 'A', 'B'],
        seats: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
        boxes: ['B7'],
        suites: [],
        customType1: [],
        customType2: [],
        customType3: [],
        cameras: ['cam1', 'cam2'],
        overlays: ['overlays/a-frame-gold.png'],
        sharePlatforms: ['Download', 'Email'],
        hasFaceData: true,
      });
      const other = await t().call(r.filterOptions, { query: { slugDate: [OTHER] }, cookie: admin });
      expect(other.body).toMatchObject({ hasFaceData: false, sections: ['101'], sharePlatforms: [] });
      expect((await t().call(r.sharedPlatforms, { query: { slugDate: [EVENT] }, cookie: admin })).body).toEqual([
        'Download',
        'Email',
      ]);
      expect((await t().call(r.filterOptions, { query: {} as never, cookie: admin })).status).toBe(400);
    });
  });

  describe('one photo', () => {
    it('answers the photo, a projection, its faces; 404 for unknown ids', async () => {
      const full = await t().call(r.get, { params: { id: 'p6' }, cookie: admin });
      expect(full.body).toMatchObject({
        _id: 'p6',
        section: '102',
        row: 'B',
        seat: '6',
        favorite: false,
        hidden: false,
      });
      const some = await t().call(r.get, {
        params: { id: 'p6' },
        query: { fields: ['favorite', 'seat'] },
        cookie: admin,
      });
      expect(some.body).toEqual({ _id: 'p6', favorite: false, seat: '6' });
      const faces = await t().call(r.facesData, { params: { id: 'p6' }, cookie: admin });
      expect(faces.body).toHaveLength(2);
      expect(faces.body[0]).toMatchObject({ AgeRange: { Low: 20, High: 28 }, Gender: { Value: 'Female' } });
      expect((await t().call(r.facesData, { params: { id: 'p1' }, cookie: admin })).body).toEqual([]);
      for (const route of [r.get, r.facesData]) {
        const res = await t().call(route, { params: { id: 'gone' }, cookie: admin });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe(MSG.album.snapshotNotFound);
      }
      // A magicshot is out of reach without Magicshots:read: the same 404.
      expect((await t().call(r.get, { params: { id: 'magic1' }, cookie: await as([]) })).status).toBe(404);
      const badField = await t().call(r.get, {
        params: { id: 'p6' },
        query: { fields: ['password'] },
        cookie: admin,
      });
      expect(badField.status).toBe(400);
    });

    it('summarises an attendee; "User has no photos." otherwise', async () => {
      const res = await t().call(r.userStats, { params: { id: 'fan-1' }, cookie: admin });
      expect(res.status).toBe(200);
      expect(res.body.snapshots).toBe(4);
      expect(res.body.srsList).toContainEqual({
        section: '101',
        row: 'B',
        seat: '0',
        snapshots: 1,
        timestamp: minute(0).toISOString(),
      });
      const scoped = await t().call(r.userStats, {
        params: { id: 'fan-4' },
        query: { slugDate: [EVENT] },
        cookie: admin,
      });
      expect(scoped.body.socialData).toEqual([{ socialSource: 'Email', userName: 'fan-4', userEmail: 'a@b.co' }]);
      const none = await t().call(r.userStats, { params: { id: 'nobody' }, cookie: admin });
      expect(none.status).toBe(404);
      expect(none.body.error).toBe(MSG.album.userHasNoPhotos);
    });
  });

  describe('moderation', () => {
    it('bans photos: new URLs, old files gone, socket event; toggles without banStatus', async () => {
      const emit = vi.spyOn(t().app.deps.realtime, 'toEvent');
      const before = await seedWithMedia('ban1');
      expect((await t().call(r.ban, { body: { ids: ['ban1'], banStatus: true }, cookie: await as([]) })).status).toBe(
        403,
      );
      const res = await t().call(r.ban, {
        body: { ids: ['ban1'], banStatus: true },
        cookie: await as([P.BAN_PHOTO_USER]),
      });
      expect(res.status).toBe(200);
      const after = res.body.snapshots[0];
      expect(after.hidden).toBe(true);
      for (const key of ['rawCroppedURI', 'smallURI', 'thumbURI', 'sharedURI'] as const) {
        expect(after[key]).not.toBe(
          before[
            key === 'rawCroppedURI'
              ? 'rawCroppedUri'
              : key === 'smallURI'
                ? 'smallUri'
                : key === 'thumbURI'
                  ? 'thumbUri'
                  : 'sharedUri'
          ],
        );
        expect(existsSync(fileOf(after[key]))).toBe(true);
      }
      expect(existsSync(fileOf(before.rawCroppedUri))).toBe(false);
      expect(emit).toHaveBeenCalledWith(EVENT, 'bannedChanged', { slugDate: EVENT, ids: ['ban1'], hidden: true });
      const toggled = await t().call(r.ban, { body: { ids: ['ban1'] }, cookie: admin });
      expect(toggled.body.snapshots[0]).toMatchObject({ hidden: false, rawCroppedURI: after.rawCroppedURI });
      emit.mockRestore();
    });

    it('bans every photo of a user', async () => {
      const emit = vi.spyOn(t().app.deps.realtime, 'toEvent');
      await seed('u1', { userId: 'rowdy' });
      await seed('u2', { userId: 'rowdy', slugDate: OTHER });
      const res = await t().call(r.banUser, {
        body: { userId: 'rowdy', banStatus: true },
        cookie: await as([P.EVENT_USERS_WRITE]),
      });
      expect(res.status).toBe(200);
      expect(res.body.snapshots.map((s: { hidden: boolean }) => s.hidden)).toEqual([true, true]);
      expect(emit).toHaveBeenCalledWith(OTHER, 'bannedChanged', { slugDate: OTHER, userId: 'rowdy', hidden: true });
      const unban = await t().call(r.banUser, {
        body: { userId: 'rowdy', banStatus: false, slugDate: [OTHER] },
        cookie: admin,
      });
      expect(unban.body.snapshots).toHaveLength(1);
      expect((await t().call(r.get, { params: { id: 'u1' }, cookie: admin })).body.hidden).toBe(true);
      const nobody = await t().call(r.banUser, { body: { userId: 'nobody', banStatus: true }, cookie: admin });
      expect(nobody.status).toBe(404);
      expect(nobody.body.error).toBe(MSG.album.userHasNoPhotos);
      emit.mockRestore();
    });

    it('favourites with Photos:write only; sets or toggles; emits', async () => {
      const emit = vi.spyOn(t().app.deps.realtime, 'toEvent');
      await seed('f1');
      await seed('f2');
      expect((await t().call(r.favorite, { body: { ids: ['f1'] }, cookie: await as([P.BAN_PHOTO_USER]) })).status).toBe(
        403,
      );
      const writer = await as([P.PHOTOS_WRITE]);
      const res = await t().call(r.favorite, { body: { ids: ['f1', 'f2'], favorite: true }, cookie: writer });
      expect(res.body.snapshots.map((s: { favorite: boolean }) => s.favorite)).toEqual([true, true]);
      expect(emit).toHaveBeenCalledWith(EVENT, 'monitor favoritedSnapshots', {
        slugDate: EVENT,
        ids: ['f1', 'f2'],
        favorite: true,
      });
      const toggled = await t().call(r.favorite, { body: { ids: ['f2'] }, cookie: writer });
      expect(toggled.body.snapshots[0].favorite).toBe(false);
      emit.mockRestore();
    });

    it('refuses a ban or favourite naming a deleted photo and changes nothing', async () => {
      await seed('keep1');
      for (const [route, body] of [
        [r.ban, { ids: ['keep1', 'deleted-photo'], banStatus: true }],
        [r.favorite, { ids: ['keep1', 'deleted-photo'], favorite: true }],
        [r.remove, { ids: ['keep1', 'deleted-photo'] }],
      ] as const) {
        const res = await t().call(route, { body: body as never, cookie: admin });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: MSG.album.snapshotNotFound, details: ['deleted-photo'] });
      }
      expect((await t().call(r.get, { params: { id: 'keep1' }, cookie: admin })).body).toMatchObject({
        hidden: false,
        favorite: false,
      });
      const tooMany = await t().call(r.ban, { body: { ids: [] }, cookie: admin });
      expect(tooMany.status).toBe(400);
      const extra = await t().call(r.favorite, { body: { ids: ['keep1'], colour: 'red' } as never, cookie: admin });
      expect(extra.status).toBe(400);
    });

    it('deletes photos and their files with the delete button permission or Photos:write', async () => {
      const emit = vi.spyOn(t().app.deps.realtime, 'toEvent');
      const row = await seedWithMedia('del1');
      expect((await t().call(r.remove, { body: { ids: ['del1'] }, cookie: await as([P.BAN_PHOTO_USER]) })).status).toBe(
        403,
      );
      const res = await t().call(r.remove, { body: { ids: ['del1'] }, cookie: await as([P.DELETE_PHOTO]) });
      expect(res.body).toEqual({ ok: true, deleted: 1 });
      expect(existsSync(fileOf(row.rawCroppedUri))).toBe(false);
      expect(existsSync(fileOf(row.thumbUri))).toBe(false);
      expect(emit).toHaveBeenCalledWith(EVENT, 'snapshotDeleted', { slugDate: EVENT, ids: ['del1'] });
      expect((await t().call(r.get, { params: { id: 'del1' }, cookie: admin })).status).toBe(404);
      // Photos:write alone deletes too: either permission will do (spec 1 §6).
      await seedWithMedia('del2');
      const writer = await t().call(r.remove, { body: { ids: ['del2'] }, cookie: await as([P.PHOTOS_WRITE]) });
      expect(writer.body).toEqual({ ok: true, deleted: 1 });
      emit.mockRestore();
    });
  });

  describe('stored counts and deep pages', () => {
    const BIG = 'stadiumcam-2030-01-04';
    beforeAll(async () => {
      await makeEvent(db(), BIG);
      for (let i = 0; i < 1250; i++)
        await seed(`big${String(i).padStart(4, '0')}`, {
          slugDate: BIG,
          date: new Date(Date.UTC(2030, 0, 4, 18, 0, i)),
          magicshot: i % 100 === 99,
        });
    }, 120_000);

    it('reads a page in the back half from the far end with the same answer', async () => {
      const expected = (n: number) => `big${String(n).padStart(4, '0')}`;
      // 1250 photos, 12 magicshots: 1238 in the all tab, newest first.
      const allTab = Array.from({ length: 1250 }, (_, i) => 1249 - i).filter((i) => i % 100 !== 99);
      // The first deep page walks from the nearer end and starts building anchors; later ones use them.
      expect(await list({ slugDate: [BIG], page: 12 })).toEqual(allTab.slice(1100, 1200).map(expected));
      await t().app.deps.anchors.settled();
      expect(await list({ slugDate: [BIG], page: 12 })).toEqual(allTab.slice(1100, 1200).map(expected));
      expect(await list({ slugDate: [BIG], page: 13 })).toEqual(allTab.slice(1200).map(expected));
      expect(await list({ slugDate: [BIG], page: 14 })).toEqual([]);
      expect(await list({ slugDate: [BIG], page: 11, pageSize: 100, sortOrder: 'asc' })).toEqual(
        [...allTab].reverse().slice(1000, 1100).map(expected),
      );
      // A change invalidates the cached anchors: the same page shifts by the photo removed.
      await t().call(r.remove, { body: { ids: [expected(allTab[1150])] }, cookie: admin });
      const shifted = allTab.filter((_, i) => i !== 1150);
      expect(await list({ slugDate: [BIG], page: 12 })).toEqual(shifted.slice(1100, 1200).map(expected));
      await t().call(r.favorite, { body: { ids: [expected(allTab[1050])], favorite: true }, cookie: admin });
      await t().app.deps.anchors.settled();
      expect(await list({ slugDate: [BIG], page: 11, sortOrder: 'asc' })).toEqual(
        [...shifted].reverse().slice(1000, 1100).map(expected),
      );
      await t().app.deps.anchors.settled();
      expect(await list({ slugDate: [BIG], page: 11, sortOrder: 'asc' })).toEqual(
        [...shifted].reverse().slice(1000, 1100).map(expected),
      );
    });

    it('keeps the stored tab counts equal to counting, through every change', async () => {
      const everything = { timeSince: 0, timeUntil: 1440 };
      const same = async (slugDate: string) => {
        const stored = await t().call(r.stats, { query: { slugDate: [slugDate] }, cookie: admin });
        const counted = await t().call(r.stats, { query: { slugDate: [slugDate], ...everything }, cookie: admin });
        expect(stored.body).toEqual(counted.body);
        return stored.body as { all: number };
      };
      expect(await same(BIG)).toEqual({ all: 1237, favorite: 1, magicshots: 12, shared: 0 });
      await t().call(r.favorite, { body: { ids: ['big0001', 'big0002', 'big0099'], favorite: true }, cookie: admin });
      await t().call(r.ban, { body: { ids: ['big0001'], banStatus: true }, cookie: admin });
      await t().call(r.remove, { body: { ids: ['big0002', 'big0199'] }, cookie: admin });
      expect(await same(BIG)).toEqual({ all: 1236, favorite: 2, magicshots: 11, shared: 0 });
      await same(EVENT);
      await same(OTHER);
      const total = await t().call(r.list, {
        query: { slugDate: [BIG], type: 'favorites', withTotal: true },
        cookie: admin,
      });
      expect(total.body.total).toBe(2);
    });
  });

  describe('archives', () => {
    let work: string;
    beforeAll(async () => {
      work = await mkdtemp(path.join(os.tmpdir(), 'album-zip-'));
      await seedWithMedia('z1', { slugDate: OTHER, date: new Date(Date.UTC(2030, 0, 2, 19)) });
      await seedWithMedia('z2', { slugDate: OTHER, date: new Date(Date.UTC(2030, 0, 2, 20)), sharedUri: '' });
      return () => rm(work, { recursive: true, force: true });
    });
    const download = async (url: string, cookie = admin) => {
      const res = await t().app.inject({ method: 'GET', url, headers: { cookie, origin: ORIGIN } });
      return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
    };
    /** The export is a POST: the password never travels in a URL (docs/security.md §7). */
    const exportZip = async (body: Record<string, unknown>, cookie = admin) => {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/snapshots/export',
        payload: body,
        headers: { cookie, origin: ORIGIN, host: new URL(ORIGIN).host },
      });
      return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
    };
    const unzip = async (zip: Buffer, password?: string) => {
      const dir = await mkdtemp(path.join(work, 'x-'));
      await writeFile(path.join(dir, 'a.zip'), zip);
      await run('7z', ['x', `-p${password ?? ''}`, '-y', `-o${dir}/out`, path.join(dir, 'a.zip')]);
      const files = (await readdir(path.join(dir, 'out'), { recursive: true, withFileTypes: true })).filter((f) =>
        f.isFile(),
      );
      return Promise.all(
        files.map(async (f) => ({ name: f.name, data: await readFile(path.join(f.parentPath, f.name)) })),
      );
    };

    it('exports a whole event as an AES zip that 7z opens with the password only', async () => {
      const res = await exportZip({ password: 'Ab3dE6gH9k', slugDate: [OTHER] });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      const files = await unzip(res.body, 'Ab3dE6gH9k');
      // o1, o2 have no media files; z1 and z2 have.
      expect(files.map((f) => f.name).sort()).toEqual([
        '2030-01-02T19-00-00-000Z_z1.jpg',
        '2030-01-02T20-00-00-000Z_z2.jpg',
      ]);
      expect((await sharp(files[0].data).metadata()).width).toBe(16);
      await expect(unzip(res.body, 'WrongPass1')).rejects.toThrow();
    });

    it('exports chosen photos; refuses bad passwords, unknown ids and a live event', async () => {
      const ids = await exportZip({ password: 'Ab3dE6gH9k', id: ['z2'] });
      expect((await unzip(ids.body, 'Ab3dE6gH9k')).map((f) => f.name)).toEqual(['2030-01-02T20-00-00-000Z_z2.jpg']);
      for (const password of ['short', 'aaaaabbbbb', 'abcdefghij', '0123456789', 'Password123', 'x'.repeat(129)]) {
        const res = await exportZip({ password, slugDate: [OTHER] });
        expect(res.status).toBe(400);
      }
      const both = await exportZip({ password: 'Ab3dE6gH9k' });
      expect(both.status).toBe(400);
      const live = await exportZip({ password: 'Ab3dE6gH9k', slugDate: [LIVE] });
      expect(live.status).toBe(422);
      expect(JSON.parse(live.body.toString()).error).toBe(MSG.album.exportWhileLive);
      const unknown = await exportZip({ password: 'Ab3dE6gH9k', id: ['nope'] });
      expect(unknown.status).toBe(404);
      const noEvent = await exportZip({ password: 'Ab3dE6gH9k', slugDate: ['x-2030-01-01'] });
      expect(noEvent.status).toBe(404);
      expect((await exportZip({ password: 'Ab3dE6gH9k', id: ['z1'] }, '')).status).toBe(401);
    });

    it('downloads a plain zip of raw or overlayed images', async () => {
      const raw = await download(`/api/downloadArchive${toQueryString({ snapshots: ['z1', 'z2'] })}`);
      expect(raw.status).toBe(200);
      const rawFiles = await unzip(raw.body);
      expect(rawFiles).toHaveLength(2);
      const shared = await download(
        `/api/downloadArchive${toQueryString({ type: 'sharedURI', snapshots: ['z1', 'z2'] })}`,
      );
      const sharedFiles = await unzip(shared.body);
      const z1Raw = rawFiles.find((f) => f.name.includes('z1'))!.data;
      const z1Shared = sharedFiles.find((f) => f.name.includes('z1'))!.data;
      expect(z1Shared.equals(z1Raw)).toBe(false);
      // z2 has no overlayed image: its raw photo stands in.
      expect(
        sharedFiles.find((f) => f.name.includes('z2'))!.data.equals(rawFiles.find((f) => f.name.includes('z2'))!.data),
      ).toBe(true);
      expect((await download(`/api/downloadArchive${toQueryString({ snapshots: ['z1', 'gone'] })}`)).status).toBe(404);
      expect((await download(`/api/downloadArchive?type=thumbURI&snapshots[]=z1`)).status).toBe(400);
    });
  });

  describe('e-mail share', () => {
    const outbox = async () => (existsSync(t().config.outboxDir) ? await readdir(t().config.outboxDir) : []);
    const body = {
      emailAddress: 'friend@example.com',
      emailSubject: 'Our photos',
      emailBodyText: 'Look at these!',
      snapshots: ['http://127.0.0.1:8080/media/snapshots/a-shared.jpg', '/media/snapshots/b-shared.jpg'],
    };

    it('mails the links', async () => {
      const before = (await outbox()).length;
      const res = await t().call(r.shareByEmail, { body, cookie: await as([P.PHOTOS_EMAIL]) });
      expect(res.body).toEqual({ ok: true });
      const files = await outbox();
      expect(files).toHaveLength(before + 1);
      const eml = (await Promise.all(files.map((f) => readFile(path.join(t().config.outboxDir, f), 'utf8')))).find(
        (m) => m.includes('Our photos'),
      )!;
      expect(eml).toContain('To: friend@example.com');
      expect(eml).toContain('Look at these!');
      expect(eml).toContain('http://127.0.0.1:8080/media/snapshots/b-shared.jpg');
    });

    it('refuses bad input and sends nothing', async () => {
      const before = (await outbox()).length;
      for (const bad of [
        { ...body, emailAddress: 'not-an-address' },
        { ...body, emailSubject: ' ' },
        { ...body, emailBodyText: '' },
        { ...body, snapshots: [] },
        { ...body, snapshots: ['https://evil.example/media/x.jpg'] },
        { ...body, snapshots: ['http://127.0.0.1:8080/api/users'] },
        { ...body, bcc: 'x@y.z' },
      ]) {
        const res = await t().call(r.shareByEmail, { body: bad, cookie: admin });
        expect(res.status, JSON.stringify(bad)).toBe(400);
      }
      expect((await outbox()).length).toBe(before);
      expect((await t().call(r.shareByEmail, { body })).status).toBe(401);
    });
  });
});
