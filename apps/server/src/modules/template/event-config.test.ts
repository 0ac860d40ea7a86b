import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  DEFAULT_TIMEZONE,
  defaultEventConfig,
  eventsRoutes,
  partRoutes,
  triviaRoutes,
  type Event,
  type PublicTemplate,
} from '@stadiumcam/contract';
import { events } from '../../db/schema/index.ts';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, listenUrl, next } from '../../test/realtime.ts';
import { newFan } from '../attendee/fan.test-util.ts';
import { ensureDemoOverlays } from '../devices/overlays.bootstrap.ts';
import { addDays, todayIn, zonedInstant } from '../events/events.time.ts';

type Updated = { slugDate: string; event?: Event };

describeEachDb('the one writer of events.config (issue 29 §1)', (t) => {
  let url = '';
  let cookie = '';
  let templateId = '';
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    templateId = (await t().call(eventsRoutes.get, { cookie, params: { slugDate: 'stadiumcam' } })).body._id;
  });
  afterAll(() => pool.closeAll());

  /** An open attendee app's live template stream; `next()` is the next template it is pushed. */
  async function attendeeStream(slugDate: string) {
    const fan = await newFan(t());
    const stop = new AbortController();
    const res = await fetch(`${url}/api/public/event/stream?slugDate=${slugDate}`, {
      headers: fan.headers,
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Open once its first line is in.
    while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value);
    text = '';
    return {
      next: async (): Promise<PublicTemplate> => {
        const message = /event: template\ndata: (.*)\n\n/;
        while (!message.test(text)) text += decoder.decode((await reader.read()).value);
        const data = message.exec(text)![1];
        text = text.slice(text.indexOf(data) + data.length + 2);
        return JSON.parse(data) as PublicTemplate;
      },
      close: () => stop.abort(),
    };
  }

  it("every writer's follow-up: consoles told, the event's open attendee apps pushed (save, trivia, demo overlays, new event)", async () => {
    const consoleSocket = await pool.console(cookie);
    const phone = await attendeeStream('stadiumcam');
    // Each wait names what it waits for: a console may still be getting the previous write's news.
    const told = (slugDate: string, when: (e: Event) => boolean = () => true) =>
      next<Updated>(
        consoleSocket,
        'monitor event updated',
        (p) => p.slugDate === slugDate && !!p.event && when(p.event),
      );

    // A screen's save.
    const share = [
      { platform: 'print', enabled: true },
      { platform: 'download', enabled: true },
    ];
    let heard = told('stadiumcam', (e) => e.share.length === 2);
    expect((await t().call(partRoutes.share, { cookie, body: { eventIds: [templateId], share } })).status).toBe(200);
    expect((await heard).event?.share).toEqual(share);
    expect((await phone.next()).share).toEqual(share);

    // Trivia.
    heard = told('stadiumcam', (e) => JSON.stringify(e.triviaQuestions ?? {}).includes('Who won?'));
    const question = { _id: 'x', question: 'Who won?', answer1: 'Us', answer2: 'Them', correctAnswer: 1 };
    const added = await t().call(triviaRoutes.add, {
      cookie,
      params: { language: 'english' },
      body: { language: 'english', eventIds: [templateId], questions: [question] } as never,
    });
    expect(added.status).toBe(200);
    expect((await heard).event?.triviaQuestions).toEqual({ english: [{ ...question, _id: 'Who won?' }] });
    await phone.next();

    // The demo overlays of a first start: written only into an empty list.
    expect(
      (await t().call(partRoutes.overlays, { cookie, body: { eventIds: [templateId], overlays: [] } })).status,
    ).toBe(200);
    await phone.next();
    heard = told('stadiumcam', (e) => e.overlays.length > 0);
    await ensureDemoOverlays(t().app.deps);
    expect((await heard).event?.overlays).toHaveLength(3);
    await phone.next();

    // A new event: the template's configuration copied, every console told.
    const gameDate = addDays(todayIn(DEFAULT_TIMEZONE), 40);
    heard = told(`stadiumcam-${gameDate}`);
    const created = await t().call(eventsRoutes.create, {
      cookie,
      body: {
        gameDate,
        slugDate: `stadiumcam-${gameDate}`,
        title: 'Copy',
        startTime: zonedInstant(gameDate, '18:00', DEFAULT_TIMEZONE).toISOString(),
        endTime: zonedInstant(gameDate, '21:00', DEFAULT_TIMEZONE).toISOString(),
      },
    });
    expect(created.status).toBe(200);
    expect((await heard).event).toMatchObject({ share, overlays: expect.any(Array) });
    expect(created.body.share).toEqual(share);
    phone.close();
  });

  it('reads a stored value that no longer parses as its default, and logs it (never cast)', async () => {
    const [row] = await t()
      .app.deps.db.select({ id: events.id, config: events.config })
      .from(events)
      .where(eq(events.id, templateId));
    const warn = vi.spyOn(t().app.deps.log, 'warn');
    try {
      await t()
        .app.deps.db.update(events)
        .set({ config: { ...row.config, theme: 'red', share: 5, availableLanguages: ['english'] } })
        .where(eq(events.id, templateId));
      const read = (await t().call(eventsRoutes.get, { cookie, params: { slugDate: 'stadiumcam' } })).body as Event;
      expect([read.theme, read.share, read.availableLanguages]).toEqual([
        defaultEventConfig().theme,
        defaultEventConfig().share,
        ['english'],
      ]);
      expect(warn).toHaveBeenCalledWith(
        { slugDate: 'stadiumcam', fields: ['theme', 'share'] },
        'stored configuration replaced by defaults',
      );
    } finally {
      warn.mockRestore();
      await t().app.deps.db.update(events).set({ config: row.config }).where(eq(events.id, templateId));
    }
  });
});
