import { expect, it, afterAll } from 'vitest';
import {
  DEFAULT_COLORS,
  MSG,
  P,
  eventsRoutes,
  templateRoutes,
  attendeeRoutes,
  defaultLanguageTable,
  ATTENDEE_TEXTS,
} from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { addDays, todayIn, zonedInstant } from '../events/events.time.ts';
import { SocketPool, listenUrl } from '../cameras/realtime.test-util.ts';
import { TEMPLATE_RULE_MSG } from './template.parts.ts';

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
});
