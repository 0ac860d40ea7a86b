import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  MAX_PHOTO_BYTES,
  attendeeRoutes,
  type PhotoMetadata,
  type Snapshot,
  type UploadFace,
} from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { SocketPool, ask, listenUrl, next, uploadPhoto, type TestHost } from '../../test/realtime.ts';
import { findSnapshotRow } from '../attendee/attendee.repository.ts';

const photo = (width = 1600, height = 900, format: 'jpeg' | 'png' = 'jpeg') =>
  sharp({ create: { width, height, channels: 3, background: '#3355aa' } })
    .toFormat(format)
    .toBuffer();

const face = (gender: 'Female' | 'Male', low: number, high: number, emotion: string): UploadFace => {
  const t = { Value: false, Confidence: 90 };
  return {
    BoundingBox: { Top: 0.2, Left: 0.3, Width: 0.1, Height: 0.15 },
    AgeRange: { Low: low, High: high },
    Smile: { Value: true, Confidence: 95 },
    Gender: { Value: gender, Confidence: 99 },
    Eyeglasses: t,
    Sunglasses: t,
    Beard: t,
    Mustache: t,
    EyesOpen: { Value: true, Confidence: 97 },
    MouthOpen: t,
    Emotions: [
      { Type: emotion, Confidence: 88 },
      { Type: 'SAD', Confidence: 12 },
    ],
  };
};

describeEachDb('photo ingest, overlays and shares', (t) => {
  let url = '';
  let host: TestHost;
  const pool = new SocketPool(() => url);
  const meta = (over: Partial<PhotoMetadata> = {}): PhotoMetadata => ({
    slugDate: 'stadiumcam',
    userId: 'fan-ingest',
    camera: 'in1',
    section: '104',
    row: 'F',
    seat: '12',
    ...over,
  });

  beforeAll(async () => {
    url = await listenUrl(t());
    host = await pool.host('host-ingest', [{ camera: 'in1' }]);
  });
  afterAll(() => pool.closeAll());

  it('stores raw, small and thumbnail, fills the face columns and tells the event consoles', async () => {
    const console = await pool.console(await t().adminCookie(), ['stadiumcam']);
    const announced = next<Snapshot>(console, 'monitor newSnapshot');
    const faces = [face('Female', 20, 28, 'HAPPY'), face('Male', 31, 39, 'CALM')];
    const res = await uploadPhoto(url, { metadata: meta({ faces }), image: await photo() });
    expect(res.status).toBe(200);
    const snap = res.body as Snapshot;
    expect(snap).toMatchObject({
      slugDate: 'stadiumcam',
      userId: 'fan-ingest',
      camera: 'in1',
      section: '104',
      row: 'F',
      seat: '12',
      magicshot: false,
      postObj: [],
      mediaType: 'image',
    });
    expect(snap.rawCroppedURI).toBe(`/media/stadiumcam/${snap._id}/raw.jpg`);
    expect(snap.sharedURI).toBe(snap.rawCroppedURI);
    expect((await announced)._id).toBe(snap._id);

    for (const [uri, max] of [
      [snap.smallURI, 800],
      [snap.thumbURI, 300],
      [snap.rawCroppedURI, 1600],
    ] as const) {
      const file = await fetch(`${url}${uri}`);
      expect(file.status).toBe(200);
      const m = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      expect(m.format).toBe('jpeg');
      expect(m.width).toBe(max);
    }
    const row = await findSnapshotRow(t().app.deps.db, snap._id);
    expect(row).toMatchObject({ groupSize: 2, ageMin: 20, ageMax: 39, genders: 'Both', emotions: ['calm', 'happy'] });
  });

  it('rejects non-images (415), oversized files (413) and bad metadata (400); the host stays connected', async () => {
    const image = await photo(320, 180);
    const text = await uploadPhoto(url, {
      metadata: meta(),
      image: Buffer.from('hello, not an image'),
      imageType: 'image/jpeg',
    });
    expect(text).toMatchObject({ status: 415, body: { error: 'The file is not a JPEG, PNG or WebP image' } });
    const big = await uploadPhoto(url, {
      metadata: meta(),
      image: Buffer.concat([image, Buffer.alloc(MAX_PHOTO_BYTES)]),
    });
    expect(big).toMatchObject({ status: 413, body: { error: 'The image is larger than 15 MB' } });
    const notJson = await uploadPhoto(url, { metadata: '{"slugDate":', image });
    expect(notJson).toMatchObject({ status: 400, body: { error: 'Metadata is not valid JSON' } });
    const wrongType = await uploadPhoto(url, { metadata: { ...meta(), magicshot: 'yes' } as never, image });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toBe('Invalid metadata');
    expect(wrongType.body.details[0].path).toEqual(['magicshot']);
    const extra = await uploadPhoto(url, { metadata: { ...meta(), hack: 1 } as never, image });
    expect(extra.status).toBe(400);
    expect((await uploadPhoto(url, { metadata: meta(), image: undefined })).body).toEqual({
      error: 'The "image" file is missing',
    });
    expect((await uploadPhoto(url, { image })).body).toEqual({ error: 'The "metadata" field is missing' });
    expect((await uploadPhoto(url, { metadata: meta({ camera: 'cam404' }), image })).body).toEqual({
      error: 'Unknown camera "cam404"',
    });
    expect((await uploadPhoto(url, { metadata: meta({ slugDate: 'x-2020-01-01' }), image })).body).toEqual({
      error: 'Unknown event "x-2020-01-01"',
    });
    expect((await uploadPhoto(url, { metadata: meta(), image, token: 'wrong' })).status).toBe(401);
    // A PNG is accepted and converted.
    const png = await uploadPhoto(url, { metadata: meta(), image: await photo(400, 300, 'png') });
    expect(png.status).toBe(200);
    expect(host.connected).toBe(true);
  });

  it('an attendee picks an overlay (composited into sharedURI) and shares; consoles hear both', async () => {
    const console = await pool.console(await t().adminCookie(), ['stadiumcam']);
    const { body: snap } = (await uploadPhoto(url, {
      metadata: meta({ userId: 'fan-share' }),
      image: await photo(),
    })) as {
      body: Snapshot;
    };
    const event = await t().call(attendeeRoutes.event);
    expect(event.body.slugDate).toBe('stadiumcam');
    expect(event.body.overlays).toHaveLength(3);
    const overlay = event.body.overlays[1] as { storageKey: string; urlFullSize: string };
    const overlayPng = await sharp(
      Buffer.from(await (await fetch(`${url}${overlay.urlFullSize}`)).arrayBuffer()),
    ).metadata();
    expect(overlayPng).toMatchObject({ format: 'png', width: 2160, height: 2160, hasAlpha: true });

    const shared = next<Snapshot>(console, 'monitor snapshotShared');
    const chosen = await t().call(attendeeRoutes.chooseOverlay, {
      params: { id: snap._id },
      body: { userId: 'fan-share', overlay: overlay.storageKey },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.overlay).toBe(overlay.storageKey);
    expect(chosen.body.sharedURI).toMatch(new RegExp(`^/media/stadiumcam/${snap._id}/shared-[0-9a-f]{32}\\.jpg$`));
    expect((await shared).sharedURI).toBe(chosen.body.sharedURI);
    const composed = await sharp(Buffer.from(await (await fetch(`${url}${chosen.body.sharedURI}`)).arrayBuffer()))
      .raw()
      .toBuffer({
        resolveWithObject: true,
      });
    expect(composed.info).toMatchObject({ width: 1600, height: 900 });
    // The frame's edge is the overlay's colour, not the photo's blue.
    expect([...composed.data.subarray(0, 3)]).not.toEqual([0x33, 0x55, 0xaa]);

    expect(
      (
        await t().call(attendeeRoutes.chooseOverlay, {
          params: { id: snap._id },
          body: { userId: 'fan-share', overlay: 'nope' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t().call(attendeeRoutes.chooseOverlay, {
          params: { id: snap._id },
          body: { userId: 'someone-else', overlay: null },
        })
      ).status,
    ).toBe(404);

    const again = next<Snapshot>(console, 'monitor snapshotShared');
    const share = await t().call(attendeeRoutes.share, {
      params: { id: snap._id },
      body: { userId: 'fan-share', socialSource: 'Email', userEmail: 'fan@example.com' },
    });
    expect(share.status).toBe(200);
    const post = (await again).postObj;
    expect(post).toHaveLength(1);
    // The push reaches every console of the event: never the attendee's address (docs/security.md §6).
    expect(post[0]).toEqual({ socialSource: 'Email', imgURL: chosen.body.sharedURI, date: expect.any(String) });
    const stored = await findSnapshotRow(t().app.deps.db, snap._id);
    expect(stored?.postObj[0]).toMatchObject({ socialSource: 'Email', userEmail: 'fan@example.com' });
    await t().call(attendeeRoutes.share, {
      params: { id: snap._id },
      body: { userId: 'fan-share', socialSource: 'Download' },
    });
    const row = await findSnapshotRow(t().app.deps.db, snap._id);
    expect(row).toMatchObject({ sharedCount: 2, shareSources: ['Email', 'Download'] });
    const bad = await t().call(attendeeRoutes.share, {
      params: { id: snap._id },
      body: { userId: 'fan-share', socialSource: 'Fax' as never },
    });
    expect(bad.status).toBe(400);

    const mine = await t().call(attendeeRoutes.snapshots, { query: { slugDate: 'stadiumcam', userId: 'fan-share' } });
    expect(mine.body.map((s: { _id: string }) => s._id)).toEqual([snap._id]);
  });

  it('a MagicShot from the console is photographed by the host and arrives as a magicshot', async () => {
    const console = await pool.console(await t().adminCookie(), ['stadiumcam']);
    const image = await photo(640, 360);
    host.on('magicshot', ({ camera, slugDate, userId }, ack) => {
      void uploadPhoto(url, { metadata: { slugDate, userId, camera, magicshot: true }, image }).then((r) =>
        ack(r.status === 200 ? { ok: true } : { ok: false, error: r.body.error }),
      );
    });
    const arrived = next<Snapshot>(console, 'monitor newSnapshot', (s) => s.magicshot);
    const answer = await ask(console, 'take MagicShot', { camera: 'in1' });
    expect(answer).toMatchObject({ ok: true, cameras: ['in1'], shots: [{ camera: 'in1' }] });
    const shot = await arrived;
    expect(shot.userId).toMatch(/^MAGIC-/);
    expect(shot.userId).toBe((answer as unknown as { shots: { userId: string }[] }).shots[0].userId);
    expect(shot.camera).toBe('in1');
  });

  it('banning a user from the monitor keeps them off the cameras and hides their photos', async () => {
    const console = await pool.console(await t().adminCookie(), ['stadiumcam']);
    const up = await uploadPhoto(url, { metadata: meta({ userId: 'fan-banned' }), image: await photo(640, 360) });
    expect(up.status).toBe(200);
    const before = await findSnapshotRow(t().app.deps.db, up.body._id);
    expect(before?.hidden).toBe(false);
    const toldHost = new Promise<string>((resolve) =>
      host.on('ban', ({ userId }, ack) => (ack?.({ ok: true }), resolve(userId))),
    );
    const banned = next<{ userId?: string; hidden: boolean }>(console, 'bannedChanged');
    expect(await ask(console, 'ban user', { userId: 'fan-banned' })).toEqual({ ok: true });
    expect(await toldHost).toBe('fan-banned');
    expect(await banned).toMatchObject({ userId: 'fan-banned', hidden: true });
    const after = await findSnapshotRow(t().app.deps.db, up.body._id);
    expect(after?.hidden).toBe(true);
    // "Photos moved": the banned photo no longer answers at its old address.
    expect(after?.rawCroppedUri).not.toBe(before?.rawCroppedUri);
    // A user with no photos is still banned from the cameras.
    expect(await ask(console, 'ban user', { userId: 'fan-without-photos' })).toEqual({ ok: true });
  });
});
