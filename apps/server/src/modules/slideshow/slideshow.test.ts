import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import { SLIDESHOW_DEFAULTS, slideshowRoutes, snapshotsRoutes } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, listenUrl, next, uploadPhoto } from '../../test/realtime.ts';

describeEachDb('slideshow images (spec 3 §2.9, §7)', (t) => {
  let url = '';
  let screen: Socket | undefined;
  const pool = new SocketPool(() => url);
  beforeAll(async () => {
    url = await listenUrl(t());
    await pool.host('host-slideshow', [{ camera: 'ss1' }]);
  });
  afterAll(() => {
    screen?.disconnect();
    pool.closeAll();
  });

  it('answers favourited, unbanned photos of the current event with its settings, without a login', async () => {
    const empty = await t().call(slideshowRoutes.images);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ slugDate: 'stadiumcam', snapshots: [], slideshowSettings: SLIDESHOW_DEFAULTS });

    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
    const ids: string[] = [];
    for (const seat of ['1', '2', '3']) {
      const up = await uploadPhoto(url, {
        metadata: { slugDate: 'stadiumcam', userId: `fan-${seat}`, camera: 'ss1', section: '101', row: 'A', seat },
        image,
      });
      expect(up.status).toBe(200);
      ids.push(up.body._id);
    }

    // A venue screen listens on /slideshow without a session and hears every favourite change.
    screen = io(`${url}/slideshow`, { transports: ['websocket'], forceNew: true });
    await new Promise<void>((resolve, reject) => {
      screen!.once('connect', resolve);
      screen!.once('connect_error', reject);
    });
    const heard = next<{ ids: string[]; favorite: boolean }>(screen, 'monitor favoritedSnapshots');
    const cookie = await t().adminCookie();
    const fav = await t().call(snapshotsRoutes.favorite, { cookie, body: { ids: ids.slice(0, 2), favorite: true } });
    expect(fav.status).toBe(200);
    expect((await heard).ids.sort()).toEqual(ids.slice(0, 2).sort());

    const ban = await t().call(snapshotsRoutes.ban, { cookie, body: { ids: [ids[0]], banStatus: true } });
    expect(ban.status).toBe(200);

    const res = await t().call(slideshowRoutes.images);
    expect(res.status).toBe(200);
    expect(res.body.snapshots).toHaveLength(1);
    expect(res.body.snapshots[0]).toEqual({
      _id: ids[1],
      sharedURI: expect.stringMatching(/^\/media\//),
      smallURI: expect.stringMatching(/^\/media\//),
    });
  });
});
