import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MSG,
  P,
  attendeeAppRoutes,
  mappingRoutes,
  type CameraMapFile,
  type DeviceServerEvents,
  type SeatMap,
} from '@stadiumcam/contract';
import { venueMapFile, venueRowDict, viewOfSeat } from '@stadiumcam/venue-sim';
import { DB_KINDS, createPgDatabase, createTestApp, describeEachDb, type TestApp } from '../../test/harness.ts';
import { SocketPool, ask, listenUrl, type TestHost } from '../../test/realtime.ts';
import { joinAsNewFan } from '../attendee/fan.test-util.ts';

type QueueJoin = Parameters<DeviceServerEvents['queue join']>[0];

describeEachDb('mapping: config files, seat map, queue by seat', (ctx) => {
  let url = '';
  const pool = new SocketPool(() => url);
  let cookie = '';
  let host: TestHost;
  const joins: QueueJoin[] = [];

  beforeAll(async () => {
    url = await listenUrl(ctx());
    cookie = await ctx().adminCookie();
    host = await pool.host('map-host', [{ camera: 'cam1' }, { camera: 'cam2' }]);
    host.on('queue join', (p, ack) => {
      joins.push(p);
      ack({ ok: true, position: 1 });
    });
  });
  afterAll(() => pool.closeAll());

  const upload = async (files: { name: string; text: string | Buffer }[], who = cookie) => {
    const form = new FormData();
    for (const f of files) form.append('file', new Blob([f.text]), f.name);
    const res = await fetch(`${url}${mappingRoutes.upload.path}`, {
      method: 'POST',
      headers: { cookie: who, origin: url },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const reload = () => ctx().call(mappingRoutes.reload, { cookie });
  const map = (n: number) => ({ name: `cam${n}.json`, text: JSON.stringify(venueMapFile(n, 2)) });

  it('needs the session and Config', async () => {
    expect((await ctx().call(mappingRoutes.list)).status).toBe(401);
    const other = await ctx().userWith([P.MONITOR_READ]);
    expect((await ctx().call(mappingRoutes.list, { cookie: other.cookie })).status).toBe(403);
    expect((await upload([{ name: 'row_dict.txt', text: 'A\n' }], other.cookie)).status).toBe(403);
  });

  it('uploads the row dictionary and map files, lists them and reloads the seat map', async () => {
    const up = await upload([{ name: 'row_dict.txt', text: venueRowDict() }, map(1), map(2)]);
    expect(up.status).toBe(200);
    expect(up.body.files).toEqual([
      { name: 'row_dict.txt', success: true },
      { name: 'cam1.json', success: true },
      { name: 'cam2.json', success: true },
    ]);
    const list = await ctx().call(mappingRoutes.list, { cookie });
    expect(list.body.files.map((f: { name: string }) => f.name)).toEqual(['cam1.json', 'cam2.json', 'row_dict.txt']);
    expect(list.body.files[2].url).toBe('/api/config/stadiumcam/row_dict.txt');
    const r = await reload();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, cameras: 2, rows: 12 });
  });

  it('answers getSections/getRows/getSeats by seat type on the console socket', async () => {
    const admin = await pool.console(cookie);
    const sections = await ask(admin, 'getSections', { type: 'section' });
    expect(sections.ok).toBe(true);
    expect(sections.sections).toHaveLength(32);
    expect((sections.sections as string[]).slice(0, 3)).toEqual(['101', '102', '103']);
    expect((await ask(admin, 'getRows', { type: 'section', section: '101' })).rows).toEqual('ABCDEFGHJKLM'.split(''));
    const seats = await ask(admin, 'getSeats', { type: 'section', section: '101', row: 'C' });
    expect(seats.seats).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect(await ask(admin, 'getSections', { type: 'box' })).toEqual({ ok: true, sections: [] });
    expect((await ask(admin, 'getRows', { type: '' })).ok).toBe(false);
    const nobody = await ctx().userWith([P.USERS]);
    const c = await pool.console(nobody.cookie);
    expect(await ask(c, 'getSections', { type: 'section' })).toEqual({
      ok: false,
      error: MSG.common.insufficientPermissions,
    });
  });

  it('offers the attendee seat form its sections, rows and seats from the seat map, without a login', async () => {
    const seats = (query: { seatType: string; section?: string; row?: string }) =>
      ctx().call(attendeeAppRoutes.seats, { query });
    const sections = await seats({ seatType: 'section' });
    expect(sections.status).toBe(200);
    expect(sections.body.options).toHaveLength(32);
    expect(sections.body.options.slice(0, 3)).toEqual(['101', '102', '103']);
    expect((await seats({ seatType: 'section', section: '101' })).body.options).toEqual('ABCDEFGHJKLM'.split(''));
    // Rows as fans type them: lower case finds the row dictionary's label.
    expect((await seats({ seatType: 'section', section: '101', row: 'c' })).body.options).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i + 1)),
    );
    expect((await seats({ seatType: 'box' })).body).toEqual({ options: [] });
    expect((await seats({ seatType: 'section', section: '999' })).body).toEqual({ options: [] });
    expect((await seats({ seatType: '' })).status).toBe(400);
  });

  it('gives queue entries, per-camera stats and the downloads', async () => {
    const q = await ctx().call(mappingRoutes.queue, { cookie });
    expect(q.body['101']).toEqual([{ cam: 'cam1', minr: 'A', maxr: 'M', mins: 1, maxs: 20, type: 'section' }]);
    expect(q.body['216']).toEqual([{ cam: 'cam2', minr: 'A', maxr: 'M', mins: 1, maxs: 20, type: 'section' }]);
    const stats = await ctx().call(mappingRoutes.stats, { cookie });
    expect(stats.body).toHaveLength(2);
    expect(stats.body[0]).toMatchObject({
      camera: 'cam1',
      numberOfSections: 16,
      numberOfRegions: 16,
      numberOfSeats: 16 * 12 * 20,
    });
    const dict = await ctx().call(mappingRoutes.download, { cookie, params: { name: 'row_dict.txt' } });
    expect(dict.status).toBe(200);
    expect(dict.body).toBe(venueRowDict());
    const json = await ctx().call(mappingRoutes.download, { cookie, params: { name: 'cam1.json' } });
    expect(json.body).toEqual(venueMapFile(1, 2));
    expect((await ctx().call(mappingRoutes.download, { cookie, params: { name: 'cam9.json' } })).status).toBe(404);
  });

  it('refuses bad files one by one and leaves the running seat map untouched', async () => {
    const before = ctx().app.deps.seatMap.current;
    const noRef = { ...venueMapFile(1, 2), ref_point: undefined };
    const dupRegion = venueMapFile(1, 2);
    dupRegion.sections[0].regions.push(dupRegion.sections[0].regions[0]);
    const up = await upload([
      { name: 'cam1.json', text: '{not json' },
      { name: 'cam2.json', text: JSON.stringify(noRef).replace('"camera":1', '"camera":2') },
      { name: 'cam5.json', text: JSON.stringify({ ...venueMapFile(1, 2), camera: 5 }) },
      { name: 'notes.txt', text: 'hello' },
    ]);
    expect(up.status).toBe(200);
    expect(up.body.files.map((f: { success: boolean }) => f.success)).toEqual([false, false, false, false]);
    expect(up.body.files[0].error).toBe('Invalid JSON format');
    expect(up.body.files[1].error).toContain('reference point');
    expect(up.body.files[2].error).toBe('No camera host has a camera cam5');
    const dup = await upload([{ name: 'cam1.json', text: JSON.stringify(dupRegion) }]);
    expect(dup.body.files[0].error).toContain('same corners');
    const dict = await upload([{ name: 'row_dict.txt', text: 'A\nB\nA\n' }]);
    expect(dict.body.files[0]).toEqual({
      name: 'row_dict.txt',
      success: false,
      error: 'Line 3: row "A" is already on line 1',
    });
    // A dictionary that drops rows the stored map files use is refused too.
    const shorter = await upload([{ name: 'row_dict.txt', text: 'A\nB\n' }]);
    expect(shorter.body.files[0].error).toContain('is not in the row dictionary');

    const big = await upload([{ name: 'cam1.json', text: Buffer.alloc(50 * 1024 * 1024, 32) }]);
    expect(big.status).toBe(413);
    expect((await reload()).status).toBe(200);
    expect(ctx().app.deps.seatMap.current.cameras).toEqual(before.cameras);
    const dl = await ctx().call(mappingRoutes.download, { cookie, params: { name: 'cam1.json' } });
    expect(dl.body).toEqual(venueMapFile(1, 2));
  });

  it('routes a fan to the camera covering the seat with the interpolated aim', async () => {
    // Queue joins are taken only for the current live event (issue 16).
    const event = await ensureTodayEventLive(ctx().app.deps);
    const join = (seat: { section: string; row: string; seat: string }) =>
      joinAsNewFan(ctx(), { slugDate: event.slugDate, seat: { seatType: 'section', ...seat } });
    const a = await join({ section: '203', row: 'F', seat: '7' });
    expect(a.status).toBe(200);
    expect(a.body.camera).toBe('cam2');
    const sent = joins.at(-1)!;
    const expected = viewOfSeat({ section: '203', row: 'F', seat: '7' })!;
    expect(sent.aim).toEqual({ pan: expected.pan, tilt: expected.tilt, zoom: 0.8, angle: 0 });
    const b = await join({ section: '101', row: 'A', seat: '1' });
    expect(b.body.camera).toBe('cam1');

    const gap = await join({ section: '999', row: 'A', seat: '1' });
    expect(gap.status).toBe(422);
    expect(gap.body).toEqual({ error: MSG.mapping.seatNotCovered, details: [{ key: 'seatNotCovered' }] });
    const noRow = await join({ section: '101', row: 'Z', seat: '1' });
    expect(noRow.status).toBe(422);
  });

  it('adds, updates and deletes a region and sets the reference; bad regions change nothing', async () => {
    const region = {
      name: ' 300 ',
      type: 'Box',
      regionType: 'default' as const,
      corners: [
        { position: 'top_left' as const, row: 'b', seat: 1, pan: -100, tilt: 50 },
        { position: 'top_right' as const, row: 'b', seat: 9, pan: 0, tilt: 0 },
        { position: 'bottom_left' as const, row: 'a', seat: 1, pan: 0, tilt: 0 },
        { position: 'bottom_right' as const, row: 'a', seat: 4, pan: 100, tilt: -50 },
      ],
      angle: 1.5,
      zoomFactor: 0.9,
    };
    const added = await ctx().call(mappingRoutes.addRegion, { cookie, params: { camera: 'cam1' }, body: region });
    expect(added.status).toBe(200);
    const sec = added.body.cameras[0].sections.find((s: { name: string }) => s.name === '300');
    expect(sec.type).toBe('box');
    // Default regions: top-right and bottom-left follow top-left and bottom-right.
    expect(sec.regions[0].topRight).toEqual({ row: 'B', seat: 4, pan: 100, tilt: 50 });
    const again = await ctx().call(mappingRoutes.addRegion, { cookie, params: { camera: 'cam1' }, body: region });
    expect(again.status).toBe(422);
    const badPan = await ctx().call(mappingRoutes.addRegion, {
      cookie,
      params: { camera: 'cam1' },
      body: { ...region, corners: region.corners.map((c) => ({ ...c, pan: 1.5 })) },
    });
    expect(badPan.status).toBe(400);
    const noCam = await ctx().call(mappingRoutes.addRegion, { cookie, params: { camera: 'cam3' }, body: region });
    expect(noCam.status).toBe(422);

    const single = await ctx().call(mappingRoutes.updateRegion, {
      cookie,
      params: { camera: 'cam1', type: 'box', section: '300', index: 0 },
      body: { ...region, regionType: 'singleSeat' },
    });
    expect(single.status).toBe(200);
    const r = single.body.cameras[0].sections.find((s: { name: string }) => s.name === '300').regions[0];
    expect(r.bottomRight).toEqual(r.topLeft);
    const ref = await ctx().call(mappingRoutes.setReference, {
      cookie,
      params: { camera: 'cam1' },
      body: { pan: 123, tilt: 456, zoom: 0 },
    });
    expect(ref.body.cameras[0].refPoint).toEqual({ pan: 123, tilt: 456, zoom: 0 });
    const del = await ctx().call(mappingRoutes.deleteRegion, {
      cookie,
      params: { camera: 'cam1', type: 'box', section: '300', index: 0 },
    });
    expect(del.body.cameras[0].sections.some((s: { name: string }) => s.name === '300')).toBe(false);
    expect(
      (
        await ctx().call(mappingRoutes.deleteRegion, {
          cookie,
          params: { camera: 'cam1', type: 'box', section: '300', index: 0 },
        })
      ).status,
    ).toBe(404);
  });

  it('stores a map file through configs/JSON and refuses a non-JPEG reference image', async () => {
    const post = async (path: string, camidx: string, file: Blob) => {
      const form = new FormData();
      form.append('event_url', 'stadiumcam');
      form.append('camidx', camidx);
      form.append('file', file, 'f');
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { cookie, origin: url }, body: form });
      return { status: res.status, body: (await res.json()) as any };
    };
    const file: CameraMapFile = venueMapFile(2, 2);
    file.ref_point.pan += 10;
    expect((await post(mappingRoutes.uploadJson.path, '2', new Blob([JSON.stringify(file)]))).status).toBe(200);
    expect(ctx().app.deps.seatMap.current.cameras[1].refPoint.pan).toBe(file.ref_point.pan);
    expect((await post(mappingRoutes.uploadJson.path, '2', new Blob(['nope']))).status).toBe(422);
    expect((await post(mappingRoutes.uploadJpg.path, '2', new Blob(['not an image']))).status).toBe(415);
  });

  it('stores a reference image through configs/JPG and serves it at config/stadiumcam/shots/{cam}.jpg', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('event_url', 'stadiumcam');
    form.append('camidx', '2');
    form.append('file', new Blob([jpeg]), 'reference.jpg');
    const res = await fetch(`${url}${mappingRoutes.uploadJpg.path}`, {
      method: 'POST',
      headers: { cookie, origin: url },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const shot = `${url}/api/config/stadiumcam/shots/cam2.jpg`;
    const got = await fetch(shot, { headers: { cookie } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await got.arrayBuffer()).equals(jpeg)).toBe(true);
    expect((await fetch(shot)).status).toBe(401);
    // An image is not a map file: the list shows it, the seat map does not change.
    const list = await ctx().call(mappingRoutes.list, { cookie });
    expect(list.body.files.map((f: { name: string }) => f.name)).toContain('shots/cam2.jpg');
    expect((await fetch(`${url}/api/config/stadiumcam/shots/cam1.jpg`, { headers: { cookie } })).status).toBe(404);
  });
});

/*
 * DESIGN §11: the seat map 'Update Config' builds is stored in the database. An instance that
 * boots on that database answers from the stored model at once — not from the files, which may
 * hold uploads no one has reloaded yet.
 */
for (const kind of DB_KINDS) {
  describe(`mapping: the stored seat map on a new instance [${kind}]`, () => {
    let dir = '';
    let pg: { url: string; drop: () => Promise<void> } | undefined;
    const apps: TestApp[] = [];
    const boot = async () => {
      const t = await createTestApp('pglite', pg ? { databaseUrl: pg.url } : { pgliteDir: dir });
      apps.push(t);
      return t;
    };
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-seatmap-'));
      if (kind === 'postgres') pg = await createPgDatabase();
    });
    afterAll(async () => {
      for (const t of apps) await t.close();
      await pg?.drop();
      await rm(dir, { recursive: true, force: true });
    });

    it('a new app on the same database answers getSections and the queue from the stored model, without a reload', async () => {
      const first = await boot();
      const firstUrl = await listenUrl(first);
      const pool = new SocketPool(() => firstUrl);
      let stored: SeatMap;
      let queue: unknown;
      try {
        await pool.host('map-host', [{ camera: 'cam1' }, { camera: 'cam2' }]);
        const cookie = await first.adminCookie();
        const upload = async (files: { name: string; text: string }[]) => {
          const form = new FormData();
          for (const f of files) form.append('file', new Blob([f.text]), f.name);
          const res = await fetch(`${firstUrl}${mappingRoutes.upload.path}`, {
            method: 'POST',
            headers: { cookie, origin: firstUrl },
            body: form,
          });
          expect(res.status).toBe(200);
        };
        await upload([
          { name: 'row_dict.txt', text: venueRowDict() },
          { name: 'cam1.json', text: JSON.stringify(venueMapFile(1, 2)) },
          { name: 'cam2.json', text: JSON.stringify(venueMapFile(2, 2)) },
        ]);
        expect((await first.call(mappingRoutes.reload, { cookie })).status).toBe(200);
        stored = first.app.deps.seatMap.current;
        queue = (await first.call(mappingRoutes.queue, { cookie })).body;
        // Uploaded after the reload: stored as a file, not part of the running (and stored) model.
        const withBox = venueMapFile(2, 2);
        withBox.sections.push({ ...withBox.sections[0], name: 'B7', type: 'box' });
        await upload([{ name: 'cam2.json', text: JSON.stringify(withBox) }]);
        expect(first.app.deps.seatMap.current).toBe(stored);
      } finally {
        pool.closeAll();
        apps.splice(apps.indexOf(first), 1);
        await first.close();
      }

      const second = await boot();
      const secondUrl = await listenUrl(second);
      const pool2 = new SocketPool(() => secondUrl);
      try {
        expect(second.app.deps.seatMap.current).toEqual(stored);
        const cookie = await second.adminCookie();
        const admin = await pool2.console(cookie);
        const sections = await ask(admin, 'getSections', { type: 'section' });
        expect(sections.ok).toBe(true);
        expect(sections.sections).toHaveLength(32);
        expect((sections.sections as string[]).slice(0, 3)).toEqual(['101', '102', '103']);
        expect((await ask(admin, 'getRows', { type: 'section', section: '216' })).rows).toEqual(
          'ABCDEFGHJKLM'.split(''),
        );
        // The box uploaded after the reload is not in the stored model.
        expect(await ask(admin, 'getSections', { type: 'box' })).toEqual({ ok: true, sections: [] });
        const q = await second.call(mappingRoutes.queue, { cookie });
        expect(q.status).toBe(200);
        expect(q.body).toEqual(queue);
        expect(q.body['101']).toEqual([{ cam: 'cam1', minr: 'A', maxr: 'M', mins: 1, maxs: 20, type: 'section' }]);
        expect(q.body.B7).toBeUndefined();

        // The files were stored too: Update Config on the new instance takes the later upload.
        expect((await second.call(mappingRoutes.reload, { cookie })).status).toBe(200);
        expect(await ask(admin, 'getSections', { type: 'box' })).toEqual({ ok: true, sections: ['B7'] });
      } finally {
        pool2.closeAll();
      }
      // Two boots on an on-disk database (migrations, the admin's password hash): slow on a loaded machine.
    }, 180_000);
  });
}
