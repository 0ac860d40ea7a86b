import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_COLORS, P, eventsRoutes, snapshotsRoutes, templateRoutes } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { addDays, todayIn, zonedInstant } from '../events/events.time.ts';
import { listenUrl } from '../../test/realtime.ts';
import { makePhoto } from '../../test/factories.ts';

const TZ = 'America/Winnipeg';

/** The album's share-by-e-mail is the photo e-mail of the photo's event (issue 11 point 6). */
describeEachDb('album share by e-mail: the event e-mail colours and header image', (t) => {
  let url = '';
  let cookie = '';
  let slugDate = '';
  let eventId = '';
  const outbox = async () => (existsSync(t().config.outboxDir) ? (await readdir(t().config.outboxDir)).sort() : []);
  /** The one mail added since `before`, quoted-printable decoded. */
  const newMail = async (before: string[]) => {
    const added = (await outbox()).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    return (await readFile(path.join(t().config.outboxDir, added[0]), 'utf8'))
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  };

  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    const gameDate = addDays(todayIn(TZ), 60);
    const res = await t().call(eventsRoutes.create, {
      cookie,
      body: {
        gameDate,
        slugDate: `stadiumcam-${gameDate}`,
        startTime: zonedInstant(gameDate, '18:00', TZ).toISOString(),
        endTime: zonedInstant(gameDate, '22:00', TZ).toISOString(),
        title: 'Mail night',
      },
    });
    expect(res.status).toBe(200);
    ({ _id: eventId, slugDate } = res.body as { _id: string; slugDate: string });
  });

  const emailSettings = {
    bodyBgColor: '#fbfb11',
    bodyTextColor: '#212112',
    buttonColor: '#c1c113',
    buttonTextColor: '#f1f114',
    headerBgColor: '#111115',
    headerTextColor: '#e1e116',
  };

  it('mails the album photos with the event e-mail colours and its header image, the operator subject and text', async () => {
    // The header image, uploaded as the Graphics page does, then saved with custom e-mail colours.
    const form = new FormData();
    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#204080' } })
      .png()
      .toBuffer();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
    const up = await fetch(`${url}/api/events/${slugDate}/images/logo`, {
      method: 'POST',
      headers: { origin: url, cookie },
      body: form,
    });
    expect(up.status).toBe(200);
    const logo = (await up.json()) as { url: string; rawUrl: string };
    const colors = { ...structuredClone(DEFAULT_COLORS), emailSettings };
    expect((await t().call(templateRoutes.colors, { cookie, body: { eventIds: [eventId], colors } })).status).toBe(200);
    const images = { logoUrl: logo.url, logoRawUrl: logo.rawUrl };
    expect(
      (await t().call(templateRoutes.images, { cookie, body: { eventIds: [eventId], images, venueType: 'stadium' } }))
        .status,
    ).toBe(200);

    // A fan's photo of this event, where the ingest puts it: /media/<slugDate>/<id>/.
    const photo = await makePhoto(t().app.deps.db, {
      id: 'album-mail-1',
      slugDate,
      userId: 'fan-album-mail',
      rawCroppedUri: `/media/${slugDate}/album-mail-1/raw.jpg`,
      sharedUri: `/media/${slugDate}/album-mail-1/raw.jpg`,
    });

    const before = await outbox();
    const sender = await t().userWith([P.PHOTOS_EMAIL]);
    const res = await t().call(snapshotsRoutes.shareByEmail, {
      cookie: sender.cookie,
      body: {
        emailAddress: 'friend@example.com',
        emailSubject: 'Your night at the game',
        emailBodyText: 'Here is the photo from the big screen.',
        snapshots: [photo.sharedUri],
      },
    });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    const eml = await newMail(before);
    expect(eml).toContain('To: friend@example.com');
    expect(eml).toContain('Subject: Your night at the game');
    expect(eml).toContain('Here is the photo from the big screen.');
    expect(eml).toContain(`${t().config.publicUrl}/media/${slugDate}/album-mail-1/raw.jpg`);
    // The header image stands where the title would be, so the header text colour is unused.
    expect(eml).toContain(`src="${t().config.publicUrl}${logo.url}"`);
    const { headerTextColor, ...shown } = emailSettings;
    for (const c of Object.values(shown)) expect(eml).toContain(c);
    expect(eml).not.toContain(headerTextColor);
    // None of the default e-mail colours remain.
    for (const c of Object.values(DEFAULT_COLORS.emailSettings))
      if (!Object.values(emailSettings).includes(c)) expect(eml).not.toContain(c);
  });

  it('without a header image the mail shows the event title in the header text colour', async () => {
    expect(
      (
        await t().call(templateRoutes.images, {
          cookie,
          body: { eventIds: [eventId], images: {}, venueType: 'stadium' },
        })
      ).status,
    ).toBe(200);
    const before = await outbox();
    const res = await t().call(snapshotsRoutes.shareByEmail, {
      cookie,
      body: {
        emailAddress: 'friend@example.com',
        emailSubject: 'Again',
        emailBodyText: 'Once more.',
        snapshots: [`${t().config.publicUrl}/media/${slugDate}/album-mail-1/raw.jpg`],
      },
    });
    expect(res.status).toBe(200);
    const eml = await newMail(before);
    expect(eml).toContain(emailSettings.headerTextColor);
    expect(eml).toContain(emailSettings.headerBgColor);
    expect(eml).toContain('Mail night');
    expect(eml).not.toContain('/images/logo');
  });
});
