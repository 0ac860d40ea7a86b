import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import {
  DEFAULT_COLORS,
  MSG,
  P,
  attendeeRoutes,
  defaultLanguageTable,
  eventsRoutes,
  geofenceRoutes,
  mappingRoutes,
  partRoutes,
  slideshowRoutes,
  templateRoutes,
  triviaId,
  triviaRoutes,
  type Overlay,
} from '@stadiumcam/contract';
import { venueMapFile, venueRowDict } from '@stadiumcam/venue-sim';
import { events } from '../../db/schema/index.ts';
import { createTestApp, describeEachDb, type TestApp } from '../../test/harness.ts';
import { makeEvent } from '../../test/factories.ts';
import { SocketPool, listenUrl } from '../../test/realtime.ts';
import { joinAsNewFan } from '../attendee/fan.test-util.ts';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { keyOfUrl } from '../../media/media-store.ts';
import { readAmp } from './amp.service.ts';

const png2160 = (opts: { bits16?: boolean; palette?: boolean; size?: number } = {}) => {
  const size = opts.size ?? 2160;
  let img = sharp({
    create: { width: size, height: size, channels: 4, background: { r: 20, g: 90, b: 200, alpha: 0.5 } },
  });
  if (opts.bits16) img = img.toColourspace('rgb16');
  return img.png({ palette: opts.palette ?? false, compressionLevel: 9 }).toBuffer();
};

describeEachDb('template part two: overlays, share, geofence, seat options, trivia, slideshow, export/import', (t) => {
  let url = '';
  let cookie = '';
  const pool = new SocketPool(() => url);
  const send = async (path: string, form: FormData, who = cookie) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { cookie: who, origin: url }, body: form });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  const uploadOverlay = (data: Buffer, slugDate = 'stadiumcam', who = cookie) => {
    const form = new FormData();
    form.append('image', new Blob([data], { type: 'image/png' }), 'overlay.png');
    return send(`/api/events/${slugDate}/overlays/upload`, form, who);
  };
  const template = async () => (await t().call(eventsRoutes.get, { cookie, params: { slugDate: 'stadiumcam' } })).body;
  let templateId = '';
  let liveId = '';
  let liveSlug = '';
  const save = <R extends (typeof partRoutes)[keyof typeof partRoutes]>(route: R, body: Record<string, unknown>) =>
    t().call(route, { cookie, body: { eventIds: [templateId, liveId], ...body } as never });

  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    templateId = (await template())._id;
    // Queue joins are taken only for the current live event (issue 16): parts are saved to both.
    const live = await ensureTodayEventLive(t().app.deps);
    liveId = live._id;
    liveSlug = live.slugDate;
    const host = await pool.host('tp-host', [{ camera: 'cam1' }]);
    host.on('queue join', (_p, ack) => ack({ ok: true, position: 1 }));
    // The venue's seat map, as a technician uploads it (DESIGN §11).
    const form = new FormData();
    form.append('file', new Blob([venueRowDict()]), 'row_dict.txt');
    form.append('file', new Blob([JSON.stringify(venueMapFile(1, 1))]), 'cam1.json');
    expect((await send(mappingRoutes.upload.path, form)).status).toBe(200);
    expect((await t().call(mappingRoutes.reload, { cookie })).status).toBe(200);
  });
  afterAll(() => pool.closeAll());

  it('overlays: concurrent uploads to one event run one at a time; the others get 409 and leave no file', async () => {
    const slugDate = 'stadiumcam-2031-05-05';
    await makeEvent(t().app.deps.db, slugDate);
    const good = await png2160();
    const dir = path.join(t().app.deps.config.mediaDir, slugDate, 'overlays');
    const files = async () => (await readdir(dir).catch(() => [])).length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => uploadOverlay(good, slugDate)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect([a.status, a.body.error]).toEqual([409, MSG.templateParts.overlayUploadBusy]);
    }
    // Every stored file is an answered upload: a refused one wrote nothing.
    expect(await files()).toBe(ok.length);
    expect(new Set(ok.map((a) => a.body.storageKey)).size).toBe(ok.length);
  });

  it('overlays: checks the real pixels, at most 7, sections required, saved in order', async () => {
    const good = await png2160();
    const refused = [
      [await png2160({ bits16: true }), 422, MSG.templateParts.overlay8Bit],
      [await png2160({ palette: true }), 422, MSG.templateParts.overlay8Bit],
      [await png2160({ size: 1080 }), 422, MSG.templateParts.overlaySize],
      [await sharp(good).jpeg().toBuffer(), 422, MSG.templateParts.overlayNotPng],
      // Noise does not compress: an 8-bit 2160x2160 PNG far above 800 KB.
      [
        await sharp(randomBytes(2160 * 2160 * 3), {
          raw: { width: 2160, height: 2160, channels: 3 },
        })
          .png()
          .toBuffer(),
        413,
        MSG.templateParts.overlayTooLarge,
      ],
    ] as const;
    for (const [data, status, text] of refused) {
      const r = await uploadOverlay(data);
      expect([r.status, r.body.error]).toEqual([status, text]);
    }
    const overlays: Overlay[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await uploadOverlay(good);
      expect(r.status).toBe(200);
      overlays.push({ ...r.body, sections: i === 0 ? ['101'] : ['*'] });
    }
    const other = await t().userWith([P.MONITOR_READ]);
    expect((await uploadOverlay(good, 'stadiumcam', other.cookie)).status).toBe(403);
    const eight = await save(partRoutes.overlays, { overlays: [...overlays, { ...overlays[0], storageKey: 'x' }] });
    expect(eight.status).toBe(400);
    expect(JSON.stringify(eight.body)).toContain(MSG.templateParts.overlaysMax);
    const noSection = await save(partRoutes.overlays, { overlays: [{ ...overlays[0], sections: [] }] });
    expect(JSON.stringify(noSection.body)).toContain(MSG.templateParts.overlaySectionsRequired);
    const forged = await save(partRoutes.overlays, {
      overlays: [
        {
          ...overlays[0],
          storageKey: 'stadiumcam/overlays/nope.png',
          urlFullSize: '/media/stadiumcam/overlays/nope.png',
        },
      ],
    });
    expect(forged.status).toBe(422);
    // Reordered, one disabled: saved as sent; the list is full, so an 8th upload is refused.
    const ordered = [overlays[2], overlays[0], { ...overlays[1], disabled: true }, ...overlays.slice(3)];
    expect((await save(partRoutes.overlays, { overlays: ordered })).status).toBe(200);
    expect((await template()).overlays.map((o: Overlay) => o.storageKey)).toEqual(ordered.map((o) => o.storageKey));
    expect((await uploadOverlay(good)).body.error).toBe(MSG.templateParts.overlaysMax);
    // The attendee app is offered the enabled ones, in order.
    const pub = await t().call(attendeeRoutes.event);
    expect(pub.body.overlays.map((o: Overlay) => o.storageKey)).toEqual(
      ordered.filter((o) => !o.disabled).map((o) => o.storageKey),
    );
    // With the seat sections each may be used in ('*' = all), for the app's choice by section.
    const restricted = ordered.map((o, i) => (i === 0 ? { ...o, sections: ['102'] } : o));
    expect((await save(partRoutes.overlays, { overlays: restricted })).status).toBe(200);
    const pub2 = await t().call(attendeeRoutes.event);
    expect(pub2.body.overlays.map((o: { sections: string[] }) => o.sections)).toEqual(
      restricted.filter((o) => !o.disabled).map((o) => o.sections),
    );
  });

  it('share: 1 to 4 active, known platforms only, stored in rank order', async () => {
    const all = ['print', 'share', 'share level 2', 'download', 'email'];
    const five = await save(partRoutes.share, { share: all.map((platform) => ({ platform, enabled: true })) });
    expect([five.status, JSON.stringify(five.body).includes(MSG.templateParts.shareMax)]).toEqual([400, true]);
    const none = await save(partRoutes.share, { share: all.map((platform) => ({ platform, enabled: false })) });
    expect(JSON.stringify(none.body)).toContain(MSG.templateParts.shareMin);
    expect((await save(partRoutes.share, { share: [{ platform: 'fax', enabled: true }] })).status).toBe(400);
    const ranked = [
      { platform: 'email', enabled: true },
      { platform: 'download', enabled: true },
      { platform: 'print', enabled: false },
    ];
    expect((await save(partRoutes.share, { share: ranked })).status).toBe(200);
    expect((await template()).share).toEqual(ranked);
    const other = await t().userWith([P.MONITOR_READ]);
    expect(
      (await t().call(partRoutes.share, { cookie: other.cookie, body: { eventIds: [templateId], share: ranked } }))
        .status,
    ).toBe(403);
  });

  it('seat options: blocked seats must exist and not repeat; a blocked seat cannot join a queue', async () => {
    const seatType = [
      { type: 'section', enabled: true, forcedDisable: false, mode: 'grid' },
      { type: 'suite', enabled: false, forcedDisable: true, mode: 'list' },
    ];
    const seat = { seatType: 'section', section: '101', row: 'A', seat: '3' };
    const unknown = await save(partRoutes.seatOptions, { seatType, blockedSeats: [{ ...seat, section: '999' }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toContain(MSG.templateParts.unknownSeat);
    const twice = await save(partRoutes.seatOptions, { seatType, blockedSeats: [seat, seat] });
    expect(JSON.stringify(twice.body)).toContain(MSG.templateParts.seatAlreadyBlocked);
    const saved = await save(partRoutes.seatOptions, { seatType, blockedSeats: [seat] });
    expect([saved.status, saved.body]).toEqual([200, { seatType, blockedSeats: [seat] }]);
    const join = (s: typeof seat) => joinAsNewFan(t(), { slugDate: liveSlug, seat: s });
    await vi.waitFor(
      async () => {
        const blocked = await join(seat);
        expect([blocked.status, blocked.body.error]).toEqual([422, MSG.templateParts.seatBlocked]);
      },
      { timeout: 5000 },
    );
    expect((await join({ ...seat, seat: '4' })).status).toBe(200);
  });

  it('seat options: a type both enabled and forced off, and a blocked seat of a type not offered, are refused and change nothing', async () => {
    const before = await template();
    const seat = { seatType: 'section', section: '101', row: 'A', seat: '7' };
    const both = await save(partRoutes.seatOptions, {
      seatType: [{ type: 'section', enabled: true, forcedDisable: true, mode: 'grid' }],
      blockedSeats: [],
    });
    expect([both.status, both.body.error]).toEqual([422, 'Seat type section cannot be enabled and forced off']);
    // Offered = enabled or forced off (spec 2 §4): a box off by the venue is not, so its seat is refused.
    const notOffered = await save(partRoutes.seatOptions, {
      seatType: [
        { type: 'section', enabled: true, forcedDisable: false, mode: 'grid' },
        { type: 'box', enabled: false, forcedDisable: false, mode: 'list' },
      ],
      blockedSeats: [{ ...seat, seatType: 'box' }],
    });
    expect([notOffered.status, notOffered.body.error]).toEqual([422, MSG.templateParts.selectSeatType]);
    // A type missing from the list is not offered either.
    const missing = await save(partRoutes.seatOptions, {
      seatType: [{ type: 'suite', enabled: true, forcedDisable: false, mode: 'list' }],
      blockedSeats: [seat],
    });
    expect([missing.status, missing.body.error]).toEqual([422, MSG.templateParts.selectSeatType]);
    const after = await template();
    expect([after.seatType, after.blockedSeats]).toEqual([before.seatType, before.blockedSeats]);
    // A forced-off type is offered: its seats may be blocked.
    const forcedOff = [{ type: 'section', enabled: false, forcedDisable: true, mode: 'list' }];
    const ok = await save(partRoutes.seatOptions, { seatType: forcedOff, blockedSeats: [seat] });
    expect(ok.status).toBe(200);
    expect(
      (await save(partRoutes.seatOptions, { seatType: before.seatType, blockedSeats: before.blockedSeats })).status,
    ).toBe(200);
  });

  it('geofence: every rule with its reasons; the server refuses a join from outside the radius', async () => {
    const geofence = {
      enabled: true,
      address: 'Canada Life Centre, Winnipeg',
      radius: 2,
      latitude: 49.8928,
      longitude: -97.1436,
      locations: [{ location: 'Winnipeg', allow: false }],
    };
    expect((await save(partRoutes.geofence, { geofence: { ...geofence, radius: -1 } })).status).toBe(400);
    expect((await save(partRoutes.geofence, { geofence: { ...geofence, radius: null } })).status).toBe(400);
    const noAllow = await save(partRoutes.geofence, { geofence });
    expect(noAllow.status).toBe(422);
    expect(noAllow.body).toEqual({
      error: MSG.templateParts.geofenceInvalid,
      details: [MSG.templateParts.geofenceNoAllowed],
    });
    const dup = await save(partRoutes.geofence, {
      geofence: {
        ...geofence,
        address: ' ',
        locations: [
          { location: 'A', allow: true },
          { location: 'a', allow: true },
        ],
      },
    });
    expect(dup.body.details).toEqual([MSG.templateParts.geofenceAddressRequired, MSG.templateParts.duplicateValue]);
    // Radius 0 with the geofence on: 'Radius is required' (spec 2 §5), the only reason.
    const zero = await save(partRoutes.geofence, {
      geofence: { ...geofence, radius: 0, locations: [{ location: 'Winnipeg', allow: true }] },
    });
    expect([zero.status, zero.body]).toEqual([
      422,
      { error: MSG.templateParts.geofenceInvalid, details: [MSG.templateParts.geofenceRadiusRequired] },
    ]);
    // Off, the rules do not apply: radius 0 is kept.
    const off = { ...geofence, enabled: false, radius: 0 };
    expect((await save(partRoutes.geofence, { geofence: off })).status).toBe(200);
    expect((await template()).geofence).toEqual(off);
    const ok = await save(partRoutes.geofence, {
      geofence: { ...geofence, locations: [{ location: 'Winnipeg', allow: true }] },
    });
    expect(ok.status).toBe(200);
    const seat = { seatType: 'section', section: '101', row: 'B', seat: '5' };
    const join = (location?: { latitude: number; longitude: number }) =>
      joinAsNewFan(t(), { slugDate: liveSlug, seat, ...(location ? { location } : {}) });
    // The queue reads the event through a one-second cache (events/events.cache.ts).
    await vi.waitFor(async () => expect((await join()).body.error).toBe(MSG.templateParts.positionNeeded), {
      timeout: 5000,
    });
    const outside = await join({ latitude: 49.95, longitude: -97.1436 }); // ~6 km north
    expect([outside.status, outside.body.error]).toEqual([403, MSG.templateParts.outsideGeofence]);
    expect((await join({ latitude: 49.9, longitude: -97.14 })).status).toBe(200);
    expect((await save(partRoutes.geofence, { geofence: { ...geofence, enabled: false } })).status).toBe(200);
  });

  it('geofence map: a 640 px wide, scale 2 PNG drawn locally with the circle', async () => {
    const res = await t().app.inject({
      method: 'GET',
      url: `${geofenceRoutes.map.path}?latitude=49.8928&longitude=-97.1436&radius=2`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1280, 800]);
    // The circle's north point: 0.38 × height above the centre, drawn in blue.
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
    ];
    const [r, , b] = at(640, Math.round(400 - 0.38 * 800));
    expect(b).toBeGreaterThan(150);
    expect(r).toBeLessThan(100);
    const geo = await t().call(geofenceRoutes.geocode, { cookie, query: { address: 'Winnipeg' } });
    expect(geo.status).toBe(501);
    expect((geo.body as { error: string }).error).toBe(MSG.templateParts.geocodingOff);
    expect((await t().call(geofenceRoutes.geocoder, { cookie })).body).toEqual({ configured: false });
  });

  it('trivia: add (every field required, correctAnswer 1 or 2), list, CSV export, delete, enable', async () => {
    const q = { _id: 'Who won?', question: 'Who won?', answer1: 'Us', answer2: 'Them', correctAnswer: 1 as const };
    const bad = await t().call(triviaRoutes.add, {
      cookie,
      params: { language: 'english' },
      body: { language: 'english', eventIds: [templateId], questions: [{ ...q, answer2: '', correctAnswer: 3 as 1 }] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(MSG.templateParts.fieldRequired);
    const add = await t().call(triviaRoutes.add, {
      cookie,
      params: { language: 'english' },
      body: {
        language: 'english',
        eventIds: [templateId],
        questions: [q, { ...q, _id: '=1+1?', question: '=1+1?', correctAnswer: 2 as const }],
      },
    });
    expect(add.body).toEqual({ ok: true, saved: 2 });
    const list = await t().call(triviaRoutes.questions, {
      cookie,
      params: { slugDate: 'stadiumcam', language: 'english' },
    });
    expect(list.body).toHaveLength(2);
    const csv = await t().call(triviaRoutes.csv, { cookie, params: { slugDate: 'stadiumcam', language: 'english' } });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toBe(
      'question,answer1,answer2,correctAnswer\r\n"Who won?","Us","Them","1"\r\n"\'=1+1?","Us","Them","2"\r\n',
    );
    const del = await t().call(triviaRoutes.remove, {
      cookie,
      body: { questionIds: ['=1+1?'], eventIds: [templateId], language: 'english' },
    });
    expect(del.body).toEqual({ ok: true, deleted: 1 });
    // A queued fan (no session) gets the questions only while trivia is enabled.
    const fanAsks = () =>
      t().call(triviaRoutes.publicQuestions, { params: { slugDate: 'stadiumcam', language: 'english' } });
    expect((await save(partRoutes.trivia, { triviaEnabled: false })).status).toBe(200);
    expect((await fanAsks()).body).toEqual([]);
    expect((await save(partRoutes.trivia, { triviaEnabled: true })).status).toBe(200);
    // Without the right answer: the server checks it (docs/security.md §20).
    const { correctAnswer: _right, ...asked } = q;
    expect((await fanAsks()).body).toEqual([asked]);
    expect((await template()).triviaEnabled).toBe(true);
    const unknownEvent = await t().call(triviaRoutes.questions, {
      cookie,
      params: { slugDate: 'nope', language: 'english' },
    });
    expect([unknownEvent.status, unknownEvent.body.error]).toEqual([404, MSG.events.eventNotFound]);
  });

  it('trivia: the _id is the question text, spaces collapsed (triviaId), whatever _id the client sends', async () => {
    expect(triviaId('  Loudest \t fans\n in  town? ')).toBe('Loudest fans in town?');
    const add = (questions: Record<string, unknown>[]) =>
      t().call(triviaRoutes.add, {
        cookie,
        params: { language: 'spanish' },
        body: { language: 'spanish', eventIds: [templateId], questions: questions as never },
      });
    const q = { question: 'Loudest  fans?', answer1: 'North', answer2: 'South', correctAnswer: 2 };
    expect((await add([{ ...q, _id: 'chosen-by-the-client' }])).status).toBe(200);
    const list = async () =>
      (await t().call(triviaRoutes.questions, { cookie, params: { slugDate: 'stadiumcam', language: 'spanish' } }))
        .body;
    expect(await list()).toEqual([{ ...q, _id: 'Loudest fans?' }]);
    // The same question (spacing aside) replaces the stored one, whatever _id is sent.
    expect((await add([{ ...q, question: ' Loudest fans? ', _id: 'another', correctAnswer: 1 }])).status).toBe(200);
    expect(await list()).toEqual([{ ...q, question: 'Loudest fans?', _id: 'Loudest fans?', correctAnswer: 1 }]);
    const del = await t().call(triviaRoutes.remove, {
      cookie,
      body: { questionIds: ['Loudest fans?'], eventIds: [templateId], language: 'spanish' },
    });
    expect(del.body).toEqual({ ok: true, deleted: 1 });
  });

  it('slideshow: the four fields are required; the public images answer carries the settings', async () => {
    const missing = await save(partRoutes.slideshow, {
      slideshow: { transitionTime: 3000, transitionDuration: 400, animation: 'ease' },
    });
    expect(missing.status).toBe(400);
    expect(
      (
        await save(partRoutes.slideshow, {
          slideshow: { transitionTime: 3000, transitionDuration: 400, animation: 'bounce', backgroundColor: '#000' },
        })
      ).status,
    ).toBe(400);
    const slideshow = { transitionTime: 3000, transitionDuration: 400, animation: 'ease', backgroundColor: '#000000' };
    expect((await save(partRoutes.slideshow, { slideshow })).status).toBe(200);
    expect((await t().call(slideshowRoutes.images)).body.slideshowSettings).toEqual(slideshow);
  });

  it('export → import: another event gets every part and its media; hostile or foreign files change nothing', async () => {
    // Every part away from its defaults first: languages, graphics + venue type, colours.
    const languages = defaultLanguageTable();
    languages['landing.start'].texts.french = 'Commencer';
    const lang = await t().call(templateRoutes.languages, {
      cookie,
      body: { eventIds: [templateId], languages, availableLanguages: ['english', 'french'], defaultLanguage: 'french' },
    });
    expect(lang.status).toBe(200);
    const colors = structuredClone(DEFAULT_COLORS);
    colors.theme.primaryColor = '#ff0066';
    colors.iconColor.cameraLens = '#00aa11';
    colors.emailSettings.buttonColor = '#123456';
    colors.slideshowColor = '#654321';
    expect((await t().call(templateRoutes.colors, { cookie, body: { eventIds: [templateId], colors } })).status).toBe(
      200,
    );
    const watermark = await sharp({ create: { width: 1080, height: 1080, channels: 4, background: '#c2255c' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([watermark], { type: 'image/png' }), 'watermark.png');
    const up = await send('/api/events/stadiumcam/images/watermark', form);
    expect(up.status).toBe(200);
    const images = { watermarkUrl: up.body.url, watermarkRawUrl: up.body.rawUrl };
    const graphics = await t().call(templateRoutes.images, {
      cookie,
      body: { eventIds: [templateId], images, venueType: 'arena' },
    });
    expect(graphics.status).toBe(200);

    const exported = await t().app.inject({
      method: 'GET',
      url: '/api/events/stadiumcam/export?triviaEnabled=true',
      headers: { cookie },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('stadiumcam.amp');
    const amp = exported.rawPayload;
    const target = async (slugDate: string) => {
      const id = randomUUID();
      await t()
        .app.deps.db.insert(events)
        .values({
          id,
          slug: 'stadiumcam',
          slugDate,
          title: 'Target',
          gameDate: slugDate.slice(-10),
          timezone: 'America/Winnipeg',
          config: {},
        });
      return id;
    };
    const targetId = await target('stadiumcam-2031-05-01');
    const importFile = (data: Buffer, name = 'x.amp', eventIds = JSON.stringify([targetId])) => {
      const form = new FormData();
      form.append('eventIds', eventIds);
      form.append('file', new Blob([data], { type: 'application/octet-stream' }), name);
      return send('/api/events/import', form);
    };
    const eventOf = async (slugDate: string) =>
      (await t().call(eventsRoutes.get, { cookie, params: { slugDate } })).body as Record<string, any>;
    const before = await eventOf('stadiumcam-2031-05-01');
    // Foreign and hostile files: the spec's text, nothing written.
    const text = await importFile(Buffer.from('hello'), 'notes.txt');
    expect(text.body.error).toBe(MSG.templateParts.invalidAmp);
    const broken = await importFile(Buffer.concat([amp.subarray(0, 200), Buffer.alloc(100)]));
    expect([broken.status, broken.body.error]).toEqual([422, MSG.templateParts.invalidAmp]);
    expect((await importFile(amp, 'x.amp', '["nope"]')).status).toBe(404);
    expect(await eventOf('stadiumcam-2031-05-01')).toEqual(before);

    const ok = await importFile(amp);
    expect(ok.body).toEqual({ ok: true, eventIds: [targetId] });
    const source = await template();
    const copy = await eventOf('stadiumcam-2031-05-01');
    const bytesOf = async (url: string) => {
      const res = await t().app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      return res.rawPayload;
    };
    // Every part without media, as stored in the source.
    const plain = [
      'availableLanguages',
      'languages',
      'defaultLanguage',
      'venueType',
      'theme',
      'iconColor',
      'emailSettings',
      'slideshowColor',
      'share',
      'geofence',
      'seatType',
      'blockedSeats',
      'triviaEnabled',
      'triviaQuestions',
      'slideshow',
    ];
    for (const part of plain) expect(copy[part], part).toEqual(source[part]);
    // The values changed above came through (not two sets of defaults).
    expect([copy.defaultLanguage, copy.languages['landing.start'].texts.french]).toEqual(['french', 'Commencer']);
    expect([copy.venueType, copy.theme.primaryColor, copy.iconColor.cameraLens]).toEqual([
      'arena',
      '#ff0066',
      '#00aa11',
    ]);
    expect([copy.emailSettings.buttonColor, copy.slideshowColor]).toEqual(['#123456', '#654321']);
    expect(copy.overlays.length).toBeGreaterThan(0);
    expect(copy.triviaQuestions.english.length).toBeGreaterThan(0);
    // Graphics: the same sections, new files under the import's keys, the same bytes.
    expect(Object.keys(copy.images).sort()).toEqual(Object.keys(source.images).sort());
    expect(Object.keys(copy.images)).toEqual(expect.arrayContaining(['watermarkUrl', 'watermarkRawUrl']));
    for (const [k, url] of Object.entries(copy.images as Record<string, string>)) {
      expect(url, k).not.toBe(source.images[k]);
      expect((await bytesOf(url)).equals(await bytesOf(source.images[k])), k).toBe(true);
    }
    // Overlays: every field but the storage key and URLs, and the same PNG bytes.
    expect(copy.overlays).toHaveLength(source.overlays.length);
    for (const [i, o] of (copy.overlays as Overlay[]).entries()) {
      expect(o.urlFullSize).not.toBe(source.overlays[i].urlFullSize);
      expect({ ...o, storageKey: '', urlFullSize: '', urlRaw: '', urlMediumSize: '' }).toEqual({
        ...source.overlays[i],
        storageKey: '',
        urlFullSize: '',
        urlRaw: '',
        urlMediumSize: '',
      });
      expect(o.storageKey).toBe(keyOfUrl(o.urlFullSize));
      expect((await bytesOf(o.urlFullSize)).equals(await bytesOf(source.overlays[i].urlFullSize))).toBe(true);
    }
    // The target can save its imported overlays as they are (each names a file stored for it).
    const again = await t().call(partRoutes.overlays, {
      cookie,
      body: { eventIds: [targetId], overlays: copy.overlays },
    });
    expect(again.status).toBe(200);

    // Options: without trivia, overlays and geofence: the file carries none of them, nor the
    // overlays' media; the rest is there.
    const slim = await t().app.inject({
      method: 'GET',
      url: '/api/events/stadiumcam/export?triviaEnabled=false&disabledEventFields[]=overlays&disabledEventFields[]=geofence',
      headers: { cookie },
    });
    expect(slim.statusCode).toBe(200);
    const read = await readAmp(slim.rawPayload);
    for (const part of ['overlays', 'geofence', 'triviaEnabled', 'triviaQuestions'])
      expect(read.parts, part).not.toHaveProperty(part);
    for (const part of plain.filter((p) => !['geofence', 'triviaEnabled', 'triviaQuestions'].includes(p)))
      expect(read.parts, part).toHaveProperty(part);
    expect(read.manifest.options).toEqual({ triviaEnabled: false, disabledEventFields: ['overlays', 'geofence'] });
    expect([...read.manifest.media].sort()).toEqual(
      [keyOfUrl(images.watermarkUrl), keyOfUrl(images.watermarkRawUrl)].sort(),
    );
    expect(read.manifest.media.some((k) => k.includes('/overlays/'))).toBe(false);
    // Imported into an event with its own geofence, overlays and trivia: those stay as they were.
    const ownId = await target('stadiumcam-2031-05-02');
    const own = { enabled: false, address: 'Elsewhere', radius: 9, latitude: 1, longitude: 2, locations: [] };
    expect((await t().call(partRoutes.geofence, { cookie, body: { eventIds: [ownId], geofence: own } })).status).toBe(
      200,
    );
    expect(
      (await t().call(partRoutes.trivia, { cookie, body: { eventIds: [ownId], triviaEnabled: false } })).status,
    ).toBe(200);
    expect((await importFile(slim.rawPayload, 'slim.amp', JSON.stringify([ownId]))).status).toBe(200);
    const slimCopy = await eventOf('stadiumcam-2031-05-02');
    expect([slimCopy.geofence, slimCopy.overlays, slimCopy.triviaEnabled]).toEqual([own, [], false]);
    expect(slimCopy.share).toEqual(source.share);
    expect(slimCopy.theme).toEqual(source.theme);
  });
});

describe('geocoding through a Nominatim-compatible service (GEOCODER_URL)', () => {
  let service: Server;
  let app: TestApp;
  const asked: string[] = [];
  beforeAll(async () => {
    service = createServer((req, res) => {
      asked.push(req.url ?? '');
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          q === 'nowhere' ? [] : [{ lat: '49.8928', lon: '-97.1436', display_name: 'Canada Life Centre' }],
        ),
      );
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    app = await createTestApp('pglite', {
      geocoderUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}/`,
    });
  });
  afterAll(async () => {
    await app?.close();
    service?.close();
  });

  it('turns an address into latitude and longitude; an unknown address is 404', async () => {
    const cookie = await app.adminCookie();
    expect((await app.call(geofenceRoutes.geocoder, { cookie })).body).toEqual({ configured: true });
    const hit = await app.call(geofenceRoutes.geocode, { cookie, query: { address: 'Canada Life Centre' } });
    expect(hit.body).toEqual({ latitude: 49.8928, longitude: -97.1436, displayName: 'Canada Life Centre' });
    expect(asked[0]).toBe('/search?format=jsonv2&limit=1&q=Canada+Life+Centre');
    expect((await app.call(geofenceRoutes.geocode, { cookie, query: { address: 'nowhere' } })).status).toBe(404);
  });
});
