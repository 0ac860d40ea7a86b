import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, it, afterAll, beforeAll } from 'vitest';
import sharp from 'sharp';
import {
  DEFAULT_COLORS,
  MAX_TEMPLATE_IMAGE_BYTES,
  attendeeAppRoutes,
  checkImageRules,
  slideshowRoutes,
  type ImageKey,
  MSG,
  P,
  eventsRoutes,
  templateRoutes,
  attendeeRoutes,
  defaultLanguageTable,
  ATTENDEE_TEXTS,
  PREVIEW_SCREENS,
} from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { addDays, todayIn, zonedInstant } from '../events/events.time.ts';
import { SocketPool, listenUrl } from '../../test/realtime.ts';
import { hugePng } from '../../test/png.ts';
import { insertSnapshot } from '../snapshots/snapshots.repository.ts';
import { TEMPLATE_RULE_MSG } from './server-parts.ts';

const TZ = 'America/Winnipeg';

describeEachDb('template save model', (t) => {
  const admin = () => t().adminCookie();
  let url = '';
  const pool = new SocketPool(() => url);
  afterAll(() => pool.closeAll());

  /** A dated event `offset` days ahead; answers its _id. */
  const createEvent = async (offset: number): Promise<{ _id: string; slugDate: string }> => {
    const gameDate = addDays(todayIn(TZ), offset);
    const res = await t().call(eventsRoutes.create, {
      cookie: await admin(),
      body: {
        gameDate,
        slugDate: `stadiumcam-${gameDate}`,
        startTime: zonedInstant(gameDate, '18:00', TZ).toISOString(),
        endTime: zonedInstant(gameDate, '22:00', TZ).toISOString(),
        title: `Game ${offset}`,
      },
    });
    expect(res.status).toBe(200);
    return res.body as { _id: string; slugDate: string };
  };
  const getEvent = async (slugDate: string) =>
    (await t().call(eventsRoutes.get, { cookie: await admin(), params: { slugDate } })).body as Record<string, any>;
  const templateId = async () => (await getEvent('stadiumcam'))._id as string;

  const languagesBody = (
    eventIds: string[],
    change: (table: ReturnType<typeof defaultLanguageTable>) => void = () => {},
  ) => {
    const languages = defaultLanguageTable();
    change(languages);
    return { eventIds, languages, availableLanguages: ['english', 'french'], defaultLanguage: 'english' };
  };

  // Before the tests below change the template's venue type (a new event copies the template).
  it('a new event starts with the venue type stadium', async () => {
    const e = await createEvent(45);
    expect((await getEvent(e.slugDate)).venueType).toBe('stadium');
  });

  it('starts the template with the app English texts and the default colours', async () => {
    const tpl = await getEvent('stadiumcam');
    expect(tpl.languages['landing.start']).toEqual({
      description: ATTENDEE_TEXTS['landing.start'].description,
      maxLength: ATTENDEE_TEXTS['landing.start'].maxLength,
      texts: { english: 'Start' },
    });
    expect(tpl.theme).toEqual(DEFAULT_COLORS.theme);
    expect(tpl.emailSettings).toEqual(DEFAULT_COLORS.emailSettings);
  });

  it('saves a part to several events in one call, answers all three language fields and tells every console', async () => {
    url = await listenUrl(t());
    const a = await createEvent(40);
    const b = await createEvent(41);
    const consoleSocket = await pool.console(await admin());
    const heard = new Set<string>();
    const both = new Promise<void>((resolve) =>
      consoleSocket.on('monitor event updated', (p) => {
        heard.add(p.slugDate);
        if (heard.has(a.slugDate) && heard.has(b.slugDate)) resolve();
      }),
    );
    const body = languagesBody([a._id, b._id], (l) => {
      l['landing.start'].texts.french = 'Commencer';
    });
    const res = await t().call(templateRoutes.languages, { cookie: await admin(), body });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['availableLanguages', 'defaultLanguage', 'languages']);
    expect(res.body.languages['landing.start'].texts).toEqual({ english: 'Start', french: 'Commencer' });
    await both;
    for (const e of [a, b]) {
      const stored = await getEvent(e.slugDate);
      expect(stored.availableLanguages).toEqual(['english', 'french']);
      expect(stored.languages['landing.start'].texts.french).toBe('Commencer');
    }
  });

  it('writes nothing when one event id is unknown (404 Event not found)', async () => {
    const a = await createEvent(42);
    const before = await getEvent(a.slugDate);
    const colors = structuredClone(DEFAULT_COLORS);
    colors.theme.primaryColor = '#ff0000';
    const res = await t().call(templateRoutes.colors, {
      cookie: await admin(),
      body: { eventIds: [a._id, 'no-such-event'], colors },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: MSG.events.eventNotFound });
    expect((await getEvent(a.slugDate)).theme).toEqual(before.theme);
  });

  it('saves colours to the master template and the attendee app reads them', async () => {
    const colors = structuredClone(DEFAULT_COLORS);
    colors.theme.backgroundColor = '#abc';
    colors.emailSettings.buttonColor = '#00ff00';
    const res = await t().call(templateRoutes.colors, {
      cookie: await admin(),
      body: { eventIds: [await templateId()], colors },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ colors });
    const tpl = await getEvent('stadiumcam');
    expect(tpl.theme.backgroundColor).toBe('#abc');
    expect(tpl.slideshowColor).toBe(DEFAULT_COLORS.slideshowColor);
    const pub = await t().call(attendeeRoutes.event, { query: { slugDate: 'stadiumcam' } });
    expect(pub.status).toBe(200);
    expect(pub.body.theme.backgroundColor).toBe('#abc');
    expect(pub.body.languages['landing.start']).toEqual({ texts: expect.objectContaining({ english: 'Start' }) });
  });

  it('refuses colours that are not hex (400) and a missing part field (400), changing nothing', async () => {
    const id = await templateId();
    const before = await getEvent('stadiumcam');
    const bad = structuredClone(DEFAULT_COLORS) as any;
    bad.theme.primaryColor = 'red';
    expect(
      (await t().call(templateRoutes.colors, { cookie: await admin(), body: { eventIds: [id], colors: bad } })).status,
    ).toBe(400);
    const missing = structuredClone(DEFAULT_COLORS) as any;
    delete missing.iconColor.mapGrid;
    expect(
      (await t().call(templateRoutes.colors, { cookie: await admin(), body: { eventIds: [id], colors: missing } }))
        .status,
    ).toBe(400);
    expect(
      (await t().call(templateRoutes.colors, { cookie: await admin(), body: { eventIds: [], colors: DEFAULT_COLORS } }))
        .status,
    ).toBe(400);
    expect((await getEvent('stadiumcam')).theme).toEqual(before.theme);
  });

  it('re-checks the language rules on the server with their texts', async () => {
    const id = await templateId();
    const call = async (body: unknown) =>
      t().call(templateRoutes.languages, { cookie: await admin(), body: body as never });
    const long = await call(
      languagesBody([id], (l) => {
        l['landing.start'].texts.english = 'x'.repeat(ATTENDEE_TEXTS['landing.start'].maxLength + 1);
      }),
    );
    expect(long.status).toBe(422);
    expect(long.body.error).toBe(
      TEMPLATE_RULE_MSG.tooLong('landing.start', 'english', ATTENDEE_TEXTS['landing.start'].maxLength),
    );
    // An html row has no maxLength.
    const html = await call(
      languagesBody([id], (l) => {
        l['landing.legal'].texts.english = `<b>${'y'.repeat(500)}</b>`;
      }),
    );
    expect(html.status).toBe(200);
    const dup = await call({ ...languagesBody([id]), availableLanguages: ['english', 'English'] });
    expect(dup.status).toBe(422);
    expect(dup.body.error).toBe(TEMPLATE_RULE_MSG.duplicateLanguage);
    const noDefault = await call({ ...languagesBody([id]), defaultLanguage: 'german' });
    expect(noDefault.status).toBe(422);
    expect(noDefault.body.error).toBe(TEMPLATE_RULE_MSG.defaultNotAvailable);
    const unknown = await call(languagesBody([id], (l) => (l['no.such.key'] = { ...l['landing.start'] })));
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toBe(TEMPLATE_RULE_MSG.unknownKey('no.such.key'));
    const reserved = await call({ ...languagesBody([id]), availableLanguages: ['english', 'description'] });
    expect(reserved.status).toBe(400);
  });

  it('takes description and maxLength from the app catalogue, not from the client, and drops texts of unlisted languages', async () => {
    const id = await templateId();
    const body = languagesBody([id], (l) => {
      l['landing.start'] = { description: 'hacked', maxLength: 2000, texts: { english: 'Go', german: 'Los' } };
    });
    const res = await t().call(templateRoutes.languages, { cookie: await admin(), body });
    expect(res.status).toBe(200);
    expect(res.body.languages['landing.start']).toEqual({
      description: ATTENDEE_TEXTS['landing.start'].description,
      maxLength: ATTENDEE_TEXTS['landing.start'].maxLength,
      texts: { english: 'Go' },
    });
  });

  it('needs Template for languages and colours, Graphics or Template for images', async () => {
    const id = await templateId();
    const graphics = await t().userWith([P.GRAPHICS]);
    const template = await t().userWith([P.TEMPLATE]);
    const none = await t().userWith([P.EVENT_WRITE]);
    const colors = { eventIds: [id], colors: DEFAULT_COLORS };
    expect((await t().call(templateRoutes.colors, { cookie: none.cookie, body: colors })).status).toBe(403);
    expect((await t().call(templateRoutes.colors, { cookie: graphics.cookie, body: colors })).status).toBe(403);
    expect((await t().call(templateRoutes.colors, { cookie: template.cookie, body: colors })).status).toBe(200);
    expect((await t().call(templateRoutes.colors, { body: colors })).status).toBe(401);
    const images = { eventIds: [id], images: {}, venueType: 'arena' as const };
    expect((await t().call(templateRoutes.images, { cookie: none.cookie, body: images })).status).toBe(403);
    expect((await t().call(templateRoutes.images, { cookie: graphics.cookie, body: images })).status).toBe(200);
    expect((await getEvent('stadiumcam')).venueType).toBe('arena');
  });

  it('the languages route needs Template: 403 without it (Graphics alone is not enough), 401 without a session', async () => {
    const id = await templateId();
    const before = await getEvent('stadiumcam');
    const graphics = await t().userWith([P.GRAPHICS]);
    const none = await t().userWith([P.EVENT_WRITE]);
    const template = await t().userWith([P.TEMPLATE]);
    const body = languagesBody([id], (l) => {
      l['landing.start'].texts.french = 'Pas permis';
    });
    for (const who of [none, graphics]) {
      const res = await t().call(templateRoutes.languages, { cookie: who.cookie, body });
      expect(res.status).toBe(403);
    }
    expect((await t().call(templateRoutes.languages, { body })).status).toBe(401);
    expect((await getEvent('stadiumcam')).languages['landing.start']).toEqual(before.languages['landing.start']);
    const ok = await t().call(templateRoutes.languages, { cookie: template.cookie, body });
    expect(ok.status).toBe(200);
    expect(ok.body.languages['landing.start'].texts.french).toBe('Pas permis');
  });

  const hashOf = (s: string) => createHash('sha256').update(s).digest('hex');

  it('POST /api/events/screenshots saves the list and its hash to every selected event; Template only, bad input 400, unknown id 404', async () => {
    const a = await createEvent(46);
    const b = await createEvent(47);
    const hash = hashOf('colours-a');
    const screenshots = PREVIEW_SCREENS.slice(0, 3);
    const body = { eventIds: [a._id, b._id], hash, screenshots };
    const graphics = await t().userWith([P.GRAPHICS]);
    const template = await t().userWith([P.TEMPLATE]);
    expect((await t().call(templateRoutes.screenshots, { cookie: graphics.cookie, body })).status).toBe(403);
    expect((await t().call(templateRoutes.screenshots, { body })).status).toBe(401);
    expect((await getEvent(a.slugDate)).screenshotsHash).toBe('');

    const res = await t().call(templateRoutes.screenshots, { cookie: template.cookie, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hash, screenshots });
    for (const e of [a, b]) {
      const stored = await getEvent(e.slugDate);
      expect(stored.screenshots).toEqual(screenshots);
      expect(stored.screenshotsHash).toBe(hash);
    }

    // Bad input: a hash that is not sha-256 hex, an unknown group, an extra field, no events.
    const bad = [
      { ...body, hash: 'abc' },
      { ...body, screenshots: [{ group: 'Nope', screen: 'landing', title: 'x' }] },
      { ...body, screenshots: [{ ...screenshots[0], url: '/x' }] },
      { ...body, eventIds: [] },
      { eventIds: [a._id], screenshots },
    ];
    for (const b2 of bad) {
      const r = await t().call(templateRoutes.screenshots, { cookie: template.cookie, body: b2 });
      expect(r.status).toBe(400);
    }
    // An unknown id among the selected: 404, nothing written.
    const other = { eventIds: [a._id, 'no-such-event'], hash: hashOf('colours-b'), screenshots: [] };
    const unknown = await t().call(templateRoutes.screenshots, { cookie: template.cookie, body: other });
    expect(unknown).toMatchObject({ status: 404, body: { error: MSG.events.eventNotFound } });
    expect((await getEvent(a.slugDate)).screenshotsHash).toBe(hash);
    expect((await getEvent(a.slugDate)).screenshots).toEqual(screenshots);
  });

  it('POST /api/events/screenshots/preview answers each screen URL, fresh:false for a hash already seen; 404 unknown slugDate, 400 bad input, 403 without Template', async () => {
    const e = await createEvent(48);
    const template = await t().userWith([P.TEMPLATE]);
    const graphics = await t().userWith([P.GRAPHICS]);
    const hash = hashOf(`preview-${randomBytes(8).toString('hex')}`);
    const colors = structuredClone(DEFAULT_COLORS);
    const body = {
      hash,
      slugDate: e.slugDate,
      screenshots: PREVIEW_SCREENS,
      theme: colors.theme,
      iconColor: colors.iconColor,
      emailSettings: colors.emailSettings,
    };
    const preview = (b: unknown, cookie = template.cookie) =>
      t().call(templateRoutes.screenshotsPreview, { cookie, body: b as never });

    expect((await preview(body, graphics.cookie)).status).toBe(403);
    expect((await t().call(templateRoutes.screenshotsPreview, { body })).status).toBe(401);

    const first = await preview(body);
    expect(first.status).toBe(200);
    expect(first.body.hash).toBe(hash);
    expect(first.body.fresh).toBe(true);
    expect(first.body.screenshots).toEqual(
      PREVIEW_SCREENS.map((s) => ({
        ...s,
        url: s.screen === 'email' ? '' : `/app/?preview=1&event=${encodeURIComponent(e.slugDate)}#/${s.screen}`,
      })),
    );
    const again = await preview(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, fresh: false });
    // Another colour set is fresh again.
    expect((await preview({ ...body, hash: hashOf(`${hash}-2`) })).body.fresh).toBe(true);

    expect(await preview({ ...body, hash: hashOf(`${hash}-3`), slugDate: 'stadiumcam-1999-01-01' })).toMatchObject({
      status: 404,
      body: { error: MSG.events.eventNotFound },
    });
    const bad = [
      { ...body, hash: 'not-a-hash' },
      { ...body, theme: { ...body.theme, primaryColor: 'red' } },
      { ...body, screenshots: [{ group: 'Email', screen: '', title: 'x' }] },
      { ...body, extra: true },
      (({ emailSettings: _e, ...rest }) => rest)(body),
    ];
    for (const b of bad) expect((await preview(b)).status).toBe(400);
    // The preview writes nothing into the event.
    expect((await getEvent(e.slugDate)).screenshotsHash).toBe('');
  });
});

type Format = 'png' | 'jpeg' | 'webp';
/** A flat image (compresses to a few KB) or noise (does not compress: far above the byte rules). */
const image = (width: number, height: number, format: Format, noise = false) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 30, g: 110, b: 200 },
      ...(noise ? { noise: { type: 'gaussian' as const, mean: 128, sigma: 60 } } : {}),
    },
  })
    .toFormat(format, format === 'jpeg' ? { quality: 95 } : {})
    .toBuffer();

describeEachDb('template graphics uploads (spec 2 §5 image rules)', (t) => {
  let url = '';
  let cookie = '';
  let slugDate = '';
  let eventId = '';
  const imagesDir = () => path.join(t().config.mediaDir, slugDate, 'images');
  const stored = async () => (existsSync(imagesDir()) ? (await readdir(imagesDir())).sort() : []);
  const post = async (key: string, form: FormData | string, who = cookie, slug = slugDate) => {
    const res = await fetch(`${url}/api/events/${slug}/images/${key}`, {
      method: 'POST',
      headers: {
        origin: url,
        ...(who ? { cookie: who } : {}),
        ...(typeof form === 'string' ? { 'content-type': 'application/json' } : {}),
      },
      body: form,
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  const upload = (key: string, data: Buffer, name: string, type: string, who = cookie, slug = slugDate) => {
    const form = new FormData();
    form.append('image', new Blob([data], { type }), name);
    return post(key, form, who, slug);
  };
  const getEvent = async () =>
    (await t().call(eventsRoutes.get, { cookie, params: { slugDate } })).body as Record<string, any>;

  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    const gameDate = addDays(todayIn(TZ), 50);
    const res = await t().call(eventsRoutes.create, {
      cookie,
      body: {
        gameDate,
        slugDate: `stadiumcam-${gameDate}`,
        startTime: zonedInstant(gameDate, '18:00', TZ).toISOString(),
        endTime: zonedInstant(gameDate, '22:00', TZ).toISOString(),
        title: 'Graphics night',
      },
    });
    expect(res.status).toBe(200);
    ({ _id: eventId, slugDate } = res.body);
  });

  it('refuses each broken rule with its exact text and stores nothing', async () => {
    const M = MSG.templateImages;
    const cases: [key: string, data: Buffer, format: Format, text: string][] = [
      ['watermark', await image(1080, 1000, 'png'), 'png', M.watermarkSquare],
      ['watermark', await image(1000, 1000, 'png'), 'png', M.watermarkDimensions],
      ['watermark', await image(2200, 2200, 'png'), 'png', M.watermarkDimensions],
      ['watermark', await image(1080, 1080, 'jpeg', true), 'jpeg', M.watermarkTooLarge],
      ['frontPage', await image(700, 1280, 'webp'), 'webp', M.frontPageMin],
      ['frontPage', await image(720, 1280, 'jpeg', true), 'jpeg', M.frontPageTooLarge],
      ['frontPage', await image(1000, 1280, 'webp'), 'webp', M.frontPageAspect],
      ['logo', await image(500, 300, 'png'), 'png', M.logoMin],
      ['logo', await image(800, 450, 'jpeg', true), 'jpeg', M.logoTooLarge],
      ['logo', await image(600, 400, 'png'), 'png', M.logoAspect],
      ['slideshowBanner', await image(1920, 181, 'png'), 'png', M.slideshowBannerSize],
      ['slideshowBanner', await image(1900, 180, 'png'), 'png', M.slideshowBannerSize],
    ];
    for (const [key, data, format, text] of cases) {
      const ext = format === 'jpeg' ? 'jpg' : format;
      // The rule is the server's own check on the real pixels, whatever the console did.
      const broken = checkImageRules(key as ImageKey, { ...(await sharp(data).metadata()), bytes: data.length });
      expect(broken && M[broken]).toBe(text);
      const res = await upload(key, data, `${key}.${ext}`, `image/${format}`);
      expect({ key, status: res.status, body: res.body }).toEqual({ key, status: 422, body: { error: text } });
    }
    expect(await stored()).toEqual([]);
  });

  it('refuses what is not a jpeg, png or webp image, a renamed file, a huge or empty one, and stores nothing', async () => {
    const M = MSG.templateImages;
    const png = await image(720, 1280, 'png');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="720" height="1280"></svg>');
    const refused: [name: string, data: Buffer, type: string, status: number, text: string][] = [
      ['front.webp', png, 'image/webp', 415, M.typeMismatch],
      ['front.webp', png, 'image/png', 415, M.typeMismatch],
      ['front.png', hugePng(), 'image/png', 413, M.tooManyPixels],
      ['front.png', Buffer.alloc(0), 'image/png', 415, M.onlyImages],
      ['front.svg', svg, 'image/svg+xml', 415, M.onlyImages],
      ['front.png', svg, 'image/png', 415, M.onlyImages],
      ['front.gif', await sharp(png).gif().toBuffer(), 'image/gif', 415, M.onlyImages],
      ['front.png', png.subarray(0, Math.floor(png.length / 2)), 'image/png', 415, M.onlyImages],
    ];
    for (const [name, data, type, status, text] of refused) {
      const res = await upload('frontPage', data, name, type);
      expect({ name, type, status: res.status, body: res.body }).toEqual({ name, type, status, body: { error: text } });
    }
    // Above the byte ceiling: refused unread.
    const big = await upload('frontPage', randomBytes(MAX_TEMPLATE_IMAGE_BYTES + 1), 'big.png', 'image/png');
    expect(big).toEqual({ status: 413, body: { error: M.fileTooLarge(2) } });
    const two = new FormData();
    two.append('image', new Blob([png], { type: 'image/png' }), 'a.png');
    two.append('image', new Blob([png], { type: 'image/png' }), 'b.png');
    expect(await post('frontPage', two)).toEqual({ status: 400, body: { error: M.singleFile } });
    const other = new FormData();
    other.append('file', new Blob([png], { type: 'image/png' }), 'a.png');
    expect(await post('frontPage', other)).toEqual({
      status: 400,
      body: { error: M.fieldImage },
    });
    expect(await post('frontPage', '{}')).toEqual({ status: 415, body: { error: M.onlyImages } });
    expect((await upload('nope', png, 'a.png', 'image/png')).status).toBe(400);
    expect(await stored()).toEqual([]);
    expect((await getEvent()).images).toEqual({});
  });

  it('needs Graphics or Template, and a known event', async () => {
    const png = await image(1920, 180, 'png');
    const none = await t().userWith([P.EVENT_WRITE]);
    const graphics = await t().userWith([P.GRAPHICS]);
    expect((await upload('slideshowBanner', png, 'b.png', 'image/png', none.cookie)).status).toBe(403);
    expect((await upload('slideshowBanner', png, 'b.png', 'image/png', '')).status).toBe(401);
    expect(await upload('slideshowBanner', png, 'b.png', 'image/png', cookie, 'stadiumcam-1999-01-01')).toEqual({
      status: 404,
      body: { error: MSG.events.eventNotFound },
    });
    expect(await stored()).toEqual([]);
    const ok = await upload('slideshowBanner', png, 'b.png', 'image/png', graphics.cookie);
    expect(ok.status).toBe(200);
    const del = await fetch(`${url}/api/events/${slugDate}/images/${ok.body.id}/slideshowBanner`, {
      method: 'DELETE',
      headers: { origin: url, cookie: none.cookie },
    });
    expect(del.status).toBe(403);
    expect(
      (
        await t().call(templateRoutes.deleteImage, {
          cookie: graphics.cookie,
          params: { slugDate, id: ok.body.id, key: 'slideshowBanner' },
        })
      ).status,
    ).toBe(204);
    expect(await stored()).toEqual([]);
  });

  it('stores a valid image as {key}Url and {key}RawUrl; Update Event puts it in the event and the attendee app', async () => {
    const front = await image(720, 1280, 'webp');
    const res = await upload('frontPage', front, 'front.webp', 'image/webp');
    expect(res.status).toBe(200);
    const { id } = res.body;
    expect(res.body).toEqual({
      key: 'frontPage',
      id,
      url: `/media/${slugDate}/images/frontPage-${id}.webp`,
      rawUrl: `/media/${slugDate}/images/frontPage-${id}-raw.webp`,
      width: 720,
      height: 1280,
      bytes: front.length,
    });
    expect(await stored()).toEqual([`frontPage-${id}-raw.webp`, `frontPage-${id}.webp`]);
    const served = await fetch(`${url}${res.body.url}`);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('webp');
    // Uploading alone changes no event: 'Update Event' does.
    expect((await getEvent()).images).toEqual({});

    const images = { frontPageUrl: res.body.url, frontPageRawUrl: res.body.rawUrl };
    const save = await t().call(templateRoutes.images, {
      cookie,
      body: { eventIds: [eventId], images, venueType: 'zone' },
    });
    expect(save.status).toBe(200);
    expect(save.body).toEqual({ images, venueType: 'zone' });
    expect((await getEvent()).images).toEqual(images);
    const pub = await t().call(attendeeRoutes.event, { query: { slugDate } });
    expect(pub.body.images).toEqual({ frontPageUrl: res.body.url });
    expect(pub.body.venueType).toBe('zone');

    // A URL this server did not store for that section is refused, and the event keeps its image.
    for (const bad of [
      { frontPageUrl: `/media/${slugDate}/images/frontPage-0000000000000000.webp` },
      { logoUrl: res.body.url },
      { frontPageUrl: '/media/snapshots/x.jpg' },
    ]) {
      const field = Object.keys(bad)[0];
      const r = await t().call(templateRoutes.images, {
        cookie,
        body: { eventIds: [eventId], images: bad, venueType: 'arena' },
      });
      expect(r).toMatchObject({ status: 422, body: { error: MSG.template.imageNotFound(field) } });
    }
    expect((await getEvent()).images).toEqual(images);
    expect((await getEvent()).venueType).toBe('zone');

    // An image an event uses survives the delete call; once saved without it, it goes.
    const params = { slugDate, id, key: 'frontPage' as const };
    expect((await t().call(templateRoutes.deleteImage, { cookie, params })).status).toBe(204);
    expect(await stored()).toHaveLength(2);
    await t().call(templateRoutes.images, { cookie, body: { eventIds: [eventId], images: {}, venueType: 'zone' } });
    expect((await t().call(templateRoutes.deleteImage, { cookie, params })).status).toBe(204);
    expect(await stored()).toEqual([]);
  });

  it('accepts each section at its limits', async () => {
    for (const [key, data, format] of [
      ['watermark', await image(1080, 1080, 'png'), 'png'],
      ['watermark', await image(2160, 2160, 'png'), 'png'],
      ['logo', await image(640, 360, 'jpeg'), 'jpeg'],
      ['slideshowBanner', await image(1920, 180, 'jpeg'), 'jpeg'],
      ['seo', await image(600, 600, 'png'), 'png'],
      ['srsIcon', await image(128, 128, 'png'), 'png'],
    ] as const) {
      const res = await upload(key, data, `x.${format === 'jpeg' ? 'jpg' : format}`, `image/${format}`);
      expect({ key, status: res.status }).toEqual({ key, status: 200 });
      if (key !== 'slideshowBanner') continue;
      // The banner reaches the slideshow of the current event (this one: the next to come).
      const save = await t().call(templateRoutes.images, {
        cookie,
        body: {
          eventIds: [eventId],
          images: { slideshowBannerUrl: res.body.url, slideshowBannerRawUrl: res.body.rawUrl },
          venueType: 'stadium',
        },
      });
      expect(save.status).toBe(200);
      const show = await t().call(slideshowRoutes.images, { cookie });
      expect(show.body.slugDate).toBe(slugDate);
      expect(show.body.slideshowSettings?.slideshowBannerUrl).toBe(res.body.url);
    }
  });

  it('puts the event watermark on the photo a fan shares', async () => {
    const red = await sharp({ create: { width: 1080, height: 1080, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const wm = await upload('watermark', red, 'wm.png', 'image/png');
    expect(wm.status).toBe(200);
    const save = await t().call(templateRoutes.images, {
      cookie,
      body: {
        eventIds: [eventId],
        images: { watermarkUrl: wm.body.url, watermarkRawUrl: wm.body.rawUrl },
        venueType: 'stadium',
      },
    });
    expect(save.status).toBe(200);
    const dir = path.join(t().config.mediaDir, 'snapshots', slugDate);
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'wm-raw.jpg'),
      await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#00ff00' } })
        .jpeg()
        .toBuffer(),
    );
    const raw = `/media/snapshots/${slugDate}/wm-raw.jpg`;
    await insertSnapshot(t().app.deps.db, {
      id: 'wm-photo',
      slug: 'stadiumcam',
      slugDate,
      userId: 'fan-wm',
      camera: 'cam1',
      seatType: 'section',
      section: '101',
      row: 'A',
      seat: '1',
      date: new Date(),
      rawCroppedUri: raw,
      sharedUri: raw,
    });
    const res = await t().call(attendeeRoutes.chooseOverlay, {
      params: { id: 'wm-photo' },
      body: { userId: 'fan-wm', overlay: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.sharedURI).not.toBe(raw);
    const shared = await readFile(path.join(t().config.mediaDir, res.body.sharedURI.slice('/media/'.length)));
    const pixel = async (x: number, y: number) => {
      const { data } = await sharp(shared)
        .extract({ left: x, top: y, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [...data];
    };
    // 18% of 800 = 144 px square, 24 px from the bottom-right edges: red there, green elsewhere.
    const [r1, g1] = await pixel(1200 - 24 - 72, 800 - 24 - 72);
    expect(r1).toBeGreaterThan(200);
    expect(g1).toBeLessThan(60);
    const [r2, g2] = await pixel(100, 100);
    expect(r2).toBeLessThan(60);
    expect(g2).toBeGreaterThan(200);
  });

  it('sends the photo e-mail with the event e-mail colours and header image', async () => {
    const logo = await upload('logo', await image(640, 360, 'png'), 'logo.png', 'image/png');
    expect(logo.status).toBe(200);
    const colors = structuredClone(DEFAULT_COLORS);
    colors.emailSettings = {
      bodyBgColor: '#fafa01',
      bodyTextColor: '#202002',
      buttonColor: '#c0c003',
      buttonTextColor: '#f0f004',
      headerBgColor: '#101005',
      headerTextColor: '#e0e006',
    };
    expect((await t().call(templateRoutes.colors, { cookie, body: { eventIds: [eventId], colors } })).status).toBe(200);
    expect(
      (
        await t().call(templateRoutes.images, {
          cookie,
          body: {
            eventIds: [eventId],
            images: { logoUrl: logo.body.url, logoRawUrl: logo.body.rawUrl },
            venueType: 'stadium',
          },
        })
      ).status,
    ).toBe(200);
    await insertSnapshot(t().app.deps.db, {
      id: 'mail-photo-1',
      slug: 'stadiumcam',
      slugDate,
      userId: 'fan-mail',
      camera: 'cam1',
      seatType: 'section',
      section: '101',
      row: 'A',
      seat: '1',
      date: new Date(),
      rawCroppedUri: `/media/snapshots/${slugDate}/mail-photo-1-raw.jpg`,
    });
    const outbox = async () => (existsSync(t().config.outboxDir) ? await readdir(t().config.outboxDir) : []);
    const before = await outbox();
    const sent = await t().call(attendeeAppRoutes.email, {
      params: { id: 'mail-photo-1' },
      body: { userId: 'fan-mail', userEmail: 'fan@example.com' },
    });
    expect(sent).toMatchObject({ status: 200, body: { ok: true } });
    const added = (await outbox()).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    // Quoted-printable: soft line breaks and =XX escapes.
    const eml = (await readFile(path.join(t().config.outboxDir, added[0]), 'utf8'))
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(eml).toContain('To: fan@example.com');
    // The header text colour is for the title, shown only when there is no header image.
    const { headerTextColor, ...shown } = colors.emailSettings;
    for (const c of Object.values(shown)) expect(eml).toContain(c);
    expect(eml).not.toContain(headerTextColor);
    expect(eml).toContain(`${t().config.publicUrl}${logo.body.url}`);
    expect(eml).toContain(`${t().config.publicUrl}/media/snapshots/${slugDate}/mail-photo-1-raw.jpg`);
    // Someone else's photo: refused, nothing sent.
    const other = await t().call(attendeeAppRoutes.email, {
      params: { id: 'mail-photo-1' },
      body: { userId: 'fan-other', userEmail: 'x@example.com' },
    });
    expect(other.status).toBe(404);
    expect(await outbox()).toHaveLength(before.length + 1);
  });
});
