import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { beforeAll, expect, it } from 'vitest';
import {
  MSG,
  P,
  SHARE_EMAIL_BODY_MAX,
  SHARE_EMAIL_SUBJECT_MAX,
  SHARE_EMAILS_PER_HOUR,
  snapshotsRoutes as r,
  toQueryString,
  type Permission,
} from '@stadiumcam/contract';
import { describeEachDb, ORIGIN } from '../../test/harness.ts';
import { makeEvent, makeFace, makePhoto } from '../../test/factories.ts';

/**
 * Issue 16 §6 and §8 (docs/security.md §6, §8): attendees' personal data and photos leave the
 * server only for users holding the permission; the console hiding a button is not enough.
 */
const EVENT = 'stadiumcam-2031-02-01';
const HOST = new URL(ORIGIN).host;
const EMAIL = 'fan@example.com';
const face = makeFace({ gender: ['Female', 99], age: [20, 28], emotions: [['HAPPY', 92]] });

describeEachDb('attendee data permissions (issue 16 §6, §8)', (t) => {
  const as = async (permissions: Permission[]) => (await t().userWith(permissions)).cookie;

  beforeAll(async () => {
    const db = t().app.deps.db;
    await makeEvent(db, EVENT, { eventStatus: 'post' });
    await makePhoto(db, {
      id: 'priv1',
      slugDate: EVENT,
      userId: 'fan-priv',
      date: new Date(Date.UTC(2031, 1, 1, 19)),
      postObj: [{ socialSource: 'Email', imgURL: 'x', date: new Date().toISOString(), userEmail: EMAIL }],
      faces: [face],
    });
  });

  it('strips contactInfo and userEmail from every answer without EventUsers:read', async () => {
    const nobody = await as([]);
    const list = await t().call(r.list, { query: { slugDate: [EVENT] }, cookie: nobody });
    expect(list.status).toBe(200);
    expect(list.body.items[0].contactInfo).toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(EMAIL);
    const one = await t().call(r.get, { params: { id: 'priv1' }, cookie: nobody });
    expect(one.status).toBe(200);
    expect(one.body.postObj).toEqual([expect.objectContaining({ socialSource: 'Email' })]);
    expect(JSON.stringify(one.body)).not.toContain(EMAIL);
    const fields = await t().call(r.get, { params: { id: 'priv1' }, query: { fields: ['postObj'] }, cookie: nobody });
    expect(JSON.stringify(fields.body)).not.toContain(EMAIL);
    // The moderation answers carry the photos too.
    const banned = await t().call(r.ban, {
      body: { ids: ['priv1'], banStatus: false },
      cookie: await as([P.PHOTOS_WRITE]),
    });
    expect(banned.status).toBe(200);
    expect(JSON.stringify(banned.body)).not.toContain(EMAIL);
    // The lightbox's User Information card shows the attendee, without the address.
    const card = await t().call(r.userStats, {
      params: { id: 'fan-priv' },
      cookie: await as([P.USER_INFO_ACCORDITION]),
    });
    expect(card.status).toBe(200);
    expect(card.body.socialData).toEqual([{ socialSource: 'Email', userName: 'fan-priv', userEmail: null }]);

    const reader = await as([P.EVENT_USERS_READ]);
    const full = await t().call(r.list, { query: { slugDate: [EVENT] }, cookie: reader });
    expect(full.body.items[0].contactInfo).toBe(EMAIL);
    expect((await t().call(r.get, { params: { id: 'priv1' }, cookie: reader })).body.postObj?.[0].userEmail).toBe(
      EMAIL,
    );
    const stats = await t().call(r.userStats, { params: { id: 'fan-priv' }, cookie: reader });
    expect(stats.body.socialData[0].userEmail).toBe(EMAIL);
  });

  it('refuses user stats, faces, archives, exports and the CSV to users without their permission', async () => {
    const nobody = await as([]);
    expect((await t().call(r.userStats, { params: { id: 'fan-priv' }, cookie: nobody })).status).toBe(403);
    const faces = await t().call(r.facesData, { params: { id: 'priv1' }, cookie: nobody });
    expect(faces.status).toBe(403);
    expect(faces.body.error).toBe(MSG.common.insufficientPermissions);
    const seer = await t().call(r.facesData, { params: { id: 'priv1' }, cookie: await as([P.VISION_ACCORDITION]) });
    expect(seer.status).toBe(200);
    expect(seer.body).toHaveLength(1);

    // Photo moderators may not carry the photos away either.
    for (const cookie of [nobody, await as([P.PHOTOS_WRITE, P.EVENT_USERS_WRITE])]) {
      const get = (url: string) =>
        t().app.inject({ method: 'GET', url, headers: { cookie, origin: ORIGIN, host: HOST } });
      const archive = await get(`/api/downloadArchive${toQueryString({ snapshots: ['priv1'] })}`);
      expect(archive.statusCode).toBe(403);
      expect(archive.json()).toMatchObject({ error: MSG.common.insufficientPermissions });
      const exported = await t().app.inject({
        method: 'POST',
        url: '/api/snapshots/export',
        payload: { password: 'Ab3dE6gH9k', slugDate: [EVENT] },
        headers: { cookie, origin: ORIGIN, host: HOST },
      });
      expect(exported.statusCode).toBe(403);
      expect(exported.json()).toMatchObject({ error: MSG.common.insufficientPermissions });
    }
    const csv = await t().app.inject({
      method: 'GET',
      url: `/api/snapshots/eventUsers/export${toQueryString({ slugDate: [EVENT] })}`,
      headers: { cookie: nobody, origin: ORIGIN, host: HOST },
    });
    expect(csv.statusCode).toBe(403);

    const holder = await as([P.PHOTOS_DOWNLOAD]);
    const archive = await t().app.inject({
      method: 'GET',
      url: `/api/downloadArchive${toQueryString({ snapshots: ['priv1'] })}`,
      headers: { cookie: holder, origin: ORIGIN, host: HOST },
    });
    expect(archive.statusCode).toBe(200);
    const exported = await t().app.inject({
      method: 'POST',
      url: '/api/snapshots/export',
      payload: { password: 'Ab3dE6gH9k', slugDate: [EVENT] },
      headers: { cookie: holder, origin: ORIGIN, host: HOST },
    });
    expect(exported.statusCode, exported.body.slice(0, 200)).toBe(200);
    expect(exported.headers['content-type']).toBe('application/zip');
  });

  it('refuses a password in the export URL and a weak one in the body', async () => {
    const holder = await as([P.PHOTOS_DOWNLOAD]);
    const inUrl = await t().app.inject({
      method: 'GET',
      url: `/api/snapshots/export${toQueryString({ password: 'Ab3dE6gH9k', slugDate: [EVENT] })}`,
      headers: { cookie: holder, origin: ORIGIN, host: HOST },
    });
    // GET /api/snapshots/export is /api/snapshots/:id, which refuses a password field.
    expect(inUrl.statusCode).toBe(400);
    expect(inUrl.headers['content-type']).not.toBe('application/zip');
    for (const password of ['short', 'aaaaabbbbb', 'abcdefghij', '9876543210', 'Password123', 'qwertyuiop1']) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/snapshots/export',
        payload: { password, slugDate: [EVENT] },
        headers: { cookie: holder, origin: ORIGIN, host: HOST },
      });
      expect(res.statusCode, password).toBe(400);
      expect(JSON.stringify(res.json())).toContain(MSG.album.exportPasswordWeak);
    }
  });

  it('mails only with Photos:email, at most SHARE_EMAILS_PER_HOUR an hour per user, with bounded texts', async () => {
    const outbox = async () => (existsSync(t().config.outboxDir) ? (await readdir(t().config.outboxDir)).length : 0);
    const body = {
      emailAddress: 'friend@example.com',
      emailSubject: 'Our photos',
      emailBodyText: 'Look!',
      snapshots: ['/media/snapshots/a-shared.jpg'],
    };
    const before = await outbox();
    const refused = await t().call(r.shareByEmail, { body, cookie: await as([P.PHOTOS_WRITE, P.EVENT_USERS_WRITE]) });
    expect(refused.status).toBe(403);
    expect(await outbox()).toBe(before);

    const mailer = await as([P.PHOTOS_EMAIL]);
    for (const bad of [
      { ...body, emailSubject: 'x'.repeat(SHARE_EMAIL_SUBJECT_MAX + 1) },
      { ...body, emailBodyText: 'x'.repeat(SHARE_EMAIL_BODY_MAX + 1) },
    ]) {
      expect((await t().call(r.shareByEmail, { body: bad, cookie: mailer })).status).toBe(400);
    }
    // Parallel sends cannot slip past the count: exactly the hour's quota goes out.
    const results = await Promise.all(
      Array.from({ length: SHARE_EMAILS_PER_HOUR + 5 }, () => t().call(r.shareByEmail, { body, cookie: mailer })),
    );
    expect(results.filter((res) => res.status === 200)).toHaveLength(SHARE_EMAILS_PER_HOUR);
    const limited = results.filter((res) => res.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0].body.error).toBe(MSG.album.emailRateLimited(SHARE_EMAILS_PER_HOUR));
    expect(await outbox()).toBe(before + SHARE_EMAILS_PER_HOUR);
    // The quota is the user's own: another operator still sends.
    expect((await t().call(r.shareByEmail, { body, cookie: await as([P.PHOTOS_EMAIL]) })).status).toBe(200);
  });

  it('filters by faces and tells of face data only with a face permission', async () => {
    const nobody = await as([]);
    for (const filter of [{ emotion: ['happy'] }, { ageMin: 18 }, { groupSizeMax: 3 }, { gender: 'Female' as const }]) {
      const list = await t().call(r.list, { query: { slugDate: [EVENT], ...filter }, cookie: nobody });
      expect(list.status, JSON.stringify(filter)).toBe(403);
      const stats = await t().call(r.stats, { query: { slugDate: [EVENT], ...filter }, cookie: nobody });
      expect(stats.status, JSON.stringify(filter)).toBe(403);
    }
    // The defaults the album leaves out are no face filter.
    expect((await t().call(r.list, { query: { slugDate: [EVENT], gender: 'All' }, cookie: nobody })).status).toBe(200);
    const hidden = await t().call(r.filterOptions, { query: { slugDate: [EVENT] }, cookie: nobody });
    expect(hidden.body.hasFaceData).toBe(false);

    for (const perm of [P.VISION_ACCORDITION, P.ANALYTICS_VISION_READ]) {
      const seer = await as([perm]);
      const list = await t().call(r.list, { query: { slugDate: [EVENT], emotion: ['happy'] }, cookie: seer });
      expect(list.status).toBe(200);
      expect(list.body.items.map((i: { _id: string }) => i._id)).toEqual(['priv1']);
      expect((await t().call(r.filterOptions, { query: { slugDate: [EVENT] }, cookie: seer })).body.hasFaceData).toBe(
        true,
      );
    }
  });
});
