import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  ATTENDEE_TEXTS,
  EMPTY_SEAT_MAP,
  MSG,
  P,
  checklistRoutes,
  eventsRoutes,
  type Checklist,
  type ChecklistKey,
  type SeatMap,
  type SeatMapRegion,
} from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { makeEvent, makePhoto } from '../../test/factories.ts';
import { SocketPool, listenUrl } from '../../test/realtime.ts';
import { writeEventConfigs } from '../template/event-config.service.ts';

const EVENT = 'stadiumcam-2031-03-01';

const corner = { row: 'A', seat: 1, pan: 0, tilt: 0 };
const region = (index: number, minr: string, maxr: string, mins: number, maxs: number): SeatMapRegion => ({
  index,
  regionType: 'default',
  topLeft: corner,
  topRight: corner,
  bottomLeft: corner,
  bottomRight: corner,
  zoomFactor: 1,
  angle: 0,
  minr,
  maxr,
  mins,
  maxs,
});
const camera = (name: string, number: number, sections: SeatMap['cameras'][number]['sections']) => ({
  camera: name,
  number,
  refPoint: { pan: 0, tilt: 0, zoom: 0 },
  ptuModel: 'sim',
  operators: [],
  sections,
});

describeEachDb('pre-live checklist', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  let cookie = '';

  const check = async (slugDate = EVENT): Promise<Checklist> => {
    const res = await t().call(checklistRoutes.get, { params: { slugDate }, cookie });
    expect(res.status).toBe(200);
    return res.body as Checklist;
  };
  const itemOf = async (key: ChecklistKey) => (await check()).items.find((i) => i.key === key)!;
  /** Polls until the item reads `state` (a frame or a report reaches the server a moment after it is sent). */
  const waitFor = async (key: ChecklistKey, state: string) => {
    for (;;) {
      const it = await itemOf(key);
      if (it.state === state) return it;
      await new Promise((r) => setImmediate(r));
    }
  };
  const config = (fields: Parameters<typeof writeEventConfigs>[1][number]['fields']) =>
    writeEventConfigs(t().app.deps, [{ id: EVENT, fields }]);

  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    await makeEvent(t().app.deps.db, EVENT);
  });
  afterAll(() => pool.closeAll());

  it('lists every item with its label and link, in order', async () => {
    const list = await check();
    expect(list.slugDate).toBe(EVENT);
    expect(list.items.map((i) => [i.key, i.label, i.link])).toEqual([
      ['cameras', MSG.checklist.cameras, '/monitor'],
      ['coverage', MSG.checklist.coverage, '/config/mapping'],
      ['graphics', MSG.checklist.graphics, '/template/overlays'],
      ['share', MSG.checklist.share, '/template/share'],
      ['geofence', MSG.checklist.geofence, '/template/geofence'],
      ['language', MSG.checklist.language, '/template/Languages'],
      ['trivia', MSG.checklist.trivia, '/template/trivia'],
      ['photos', MSG.checklist.photos, '/monitor'],
    ]);
  });

  it('cameras: none known fails; one off fails; on without frames fails; streaming passes', async () => {
    expect(await itemOf('cameras')).toMatchObject({ state: 'fail', reason: MSG.checklist.noCameras });

    const host = await pool.host('host-check', [{ camera: 'cam1' }, { camera: 'cam2', status: 'off' }]);
    expect(await waitFor('cameras', 'fail')).toMatchObject({ reason: MSG.checklist.camerasOff('cam2') });

    host.emit('report', { camera: 'cam2', status: 'on' });
    expect(await waitFor('cameras', 'fail')).toMatchObject({ state: 'fail' });
    // Both on now, no frame yet: "no signal" for both.
    for (;;) {
      const it = await itemOf('cameras');
      if (it.reason === MSG.checklist.camerasNoSignal('cam1, cam2')) break;
      expect(it.state).toBe('fail');
      await new Promise((r) => setImmediate(r));
    }

    const frame = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    host.emit('frame', { camera: 'cam1', jpeg: frame });
    for (;;) {
      const it = await itemOf('cameras');
      if (it.reason === MSG.checklist.camerasNoSignal('cam2')) break;
      await new Promise((r) => setImmediate(r));
    }
    host.emit('frame', { camera: 'cam2', jpeg: frame });
    expect(await waitFor('cameras', 'pass')).toMatchObject({ reason: MSG.checklist.camerasStreaming(2) });
  });

  it('coverage: no seat map fails, a gap warns with its section, full coverage passes', async () => {
    const deps = t().app.deps;
    const before = deps.seatMap.current;
    try {
      deps.seatMap.current = EMPTY_SEAT_MAP;
      expect(await itemOf('coverage')).toMatchObject({ state: 'fail', reason: MSG.checklist.noSeatMap });

      const gap: SeatMap = {
        rows: ['A', 'B'],
        loadedAt: new Date().toISOString(),
        cameras: [
          camera('cam1', 1, [{ name: '101', type: 'section', regions: [region(0, 'A', 'B', 1, 10)] }]),
          // 102: row A seats 1-5, row B only 1-3: B-4 and B-5 are gaps.
          camera('cam2', 2, [
            { name: '102', type: 'section', regions: [region(0, 'A', 'A', 1, 5), region(1, 'B', 'B', 1, 3)] },
          ]),
        ],
      };
      deps.seatMap.current = gap;
      expect(await itemOf('coverage')).toMatchObject({
        state: 'warn',
        reason: MSG.checklist.coverageGaps(2, 'section 102'),
      });

      gap.cameras[1].sections[0].regions[1] = region(1, 'B', 'B', 1, 5);
      expect(await itemOf('coverage')).toMatchObject({ state: 'pass', reason: MSG.checklist.coverageFull(2) });
    } finally {
      deps.seatMap.current = before;
    }
  });

  it('graphics: no overlay warns; an overlay that was never uploaded fails with its rule', async () => {
    expect(await itemOf('graphics')).toMatchObject({ state: 'warn', reason: MSG.checklist.noOverlay });
    const url = `/media/${EVENT}/overlays/never-uploaded.png`;
    await config({
      overlays: [
        {
          storageKey: `${EVENT}/overlays/never-uploaded.png`,
          urlFullSize: url,
          urlRaw: url,
          urlMediumSize: url,
          disabled: false,
          deleted: false,
          sections: ['*'],
        },
      ],
    });
    expect(await itemOf('graphics')).toMatchObject({
      state: 'fail',
      reason: MSG.templateParts.overlayNotUploaded(`${EVENT}/overlays/never-uploaded.png`),
      link: '/template/overlays',
    });
    await config({ overlays: [] });
  });

  it('share passes with the options offered', async () => {
    expect(await itemOf('share')).toMatchObject({
      state: 'pass',
      reason: MSG.checklist.shareOk('download, email, share'),
    });
  });

  it('geofence: never set warns; on without a radius fails with the rule; set passes; off after set passes', async () => {
    expect(await itemOf('geofence')).toMatchObject({ state: 'warn', reason: MSG.checklist.geofenceNeverSet });
    const g = { enabled: true, address: 'Main St', radius: 0, latitude: 49.9, longitude: -97.1, locations: [] };
    await config({ geofence: g });
    expect(await itemOf('geofence')).toMatchObject({
      state: 'fail',
      reason: MSG.checklist.geofenceInvalid(MSG.templateParts.geofenceRadiusRequired),
    });
    await config({ geofence: { ...g, radius: 5, locations: [{ location: 'Manitoba', allow: true }] } });
    expect(await itemOf('geofence')).toMatchObject({ state: 'pass', reason: MSG.checklist.geofenceOn(5, 'Main St') });
    await config({ geofence: { ...g, enabled: false } });
    expect(await itemOf('geofence')).toMatchObject({ state: 'pass', reason: MSG.checklist.geofenceOff });
  });

  it('default language: every text passes; an empty text fails naming it', async () => {
    expect(await itemOf('language')).toMatchObject({ state: 'pass', reason: MSG.checklist.languageOk('english') });
    const key = Object.keys(ATTENDEE_TEXTS)[0];
    await config((c) => ({
      languages: { ...c.languages, [key]: { ...c.languages[key], texts: { english: '  ' } } },
    }));
    expect(await itemOf('language')).toMatchObject({
      state: 'fail',
      reason: MSG.checklist.languageEmpty('english', 1, key),
      link: '/template/Languages',
    });
  });

  it('trivia: off passes; on without questions fails; with a question passes', async () => {
    expect(await itemOf('trivia')).toMatchObject({ state: 'pass', reason: MSG.checklist.triviaOff });
    await config({ triviaEnabled: true });
    expect(await itemOf('trivia')).toMatchObject({ state: 'fail', reason: MSG.checklist.triviaNoQuestions('english') });
    const q = { _id: 'Who won?', question: 'Who won?', answer1: 'Us', answer2: 'Them', correctAnswer: 1 as const };
    await config({ triviaQuestions: { english: [q] } });
    expect(await itemOf('trivia')).toMatchObject({ state: 'pass', reason: MSG.checklist.triviaOn(1) });
  });

  it('photos: a camera without a photo in the last hour warns; with one each it passes', async () => {
    const db = t().app.deps.db;
    await makePhoto(db, { slugDate: EVENT, camera: 'cam1' });
    await makePhoto(db, { slugDate: EVENT, camera: 'cam2', date: new Date(Date.now() - 2 * 3600_000) });
    expect(await itemOf('photos')).toMatchObject({ state: 'warn', reason: MSG.checklist.photosMissing('cam2') });
    await makePhoto(db, { slugDate: EVENT, camera: 'cam2' });
    expect(await itemOf('photos')).toMatchObject({ state: 'pass', reason: MSG.checklist.photosOk(2) });
  });

  it('needs what going live needs, Event:write or the power button (403 without); an unknown event is 404; the template is refused (422); nothing changes', async () => {
    const other = await t().userWith([P.MONITOR_READ]);
    const denied = await t().call(checklistRoutes.get, { params: { slugDate: EVENT }, cookie: other.cookie });
    expect(denied).toMatchObject({ status: 403, body: { error: MSG.common.insufficientPermissions } });

    for (const permission of [P.EVENT_WRITE, P.POWER_BTN]) {
      const may = await t().userWith([permission]);
      const read = await t().call(checklistRoutes.get, { params: { slugDate: EVENT }, cookie: may.cookie });
      expect(read.status, permission).toBe(200);
    }

    const before = (await t().call(eventsRoutes.list, { cookie })).body;
    const unknown = await t().call(checklistRoutes.get, { params: { slugDate: 'stadiumcam-2031-09-09' }, cookie });
    expect(unknown).toMatchObject({ status: 404, body: { error: MSG.events.eventNotFound } });
    const template = await t().call(checklistRoutes.get, { params: { slugDate: 'stadiumcam' }, cookie });
    expect(template).toMatchObject({ status: 422, body: { error: MSG.checklist.templateRefused } });
    expect((await t().call(eventsRoutes.list, { cookie })).body).toEqual(before);
  });
});
