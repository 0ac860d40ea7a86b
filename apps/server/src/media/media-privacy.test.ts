import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import exifr from 'exifr';
import { attendeeRoutes, buildPath, P, snapshotsRoutes, type PhotoMetadata, type Snapshot } from '@stadiumcam/contract';
import { describeEachDb } from '../test/harness.ts';
import { SocketPool, listenUrl, uploadPhoto } from '../test/realtime.ts';

/** A camera JPEG that says where it was taken (GPS) and by which camera. */
const gpsPhoto = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3355aa' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Acme', Model: 'PTZ-9', Software: 'host 1.2' },
      IFD2: { DateTimeOriginal: '2025:06:01 19:30:00', BodySerialNumber: 'SN-12345' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '49/1 53/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '97/1 8/1 0/1' },
    })
    .toBuffer();

// Issue 16 §4 and §5: nothing public keeps a location; a ban or delete leaves no rendition behind.
describeEachDb('public media: no location, nothing left after ban or delete', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  const meta = (userId: string): PhotoMetadata => ({
    slugDate: 'stadiumcam',
    userId,
    camera: 'mp1',
    section: '104',
    row: 'F',
    seat: '12',
    date: '2025-06-01T19:30:00Z',
  });
  const get = async (u: string) => fetch(`${url}${u}`);
  const upload = async (userId: string) => {
    const res = await uploadPhoto(url, { metadata: meta(userId), image: await gpsPhoto() });
    expect(res.status).toBe(200);
    return res.body as Snapshot;
  };
  const overlays = async () =>
    ((await t().call(attendeeRoutes.event)).body.overlays as { storageKey: string }[]).map((o) => o.storageKey);
  const choose = async (s: Snapshot, userId: string, overlay: string) => {
    const res = await t().call(attendeeRoutes.chooseOverlay, { params: { id: s._id }, body: { userId, overlay } });
    expect(res.status).toBe(200);
    return res.body.sharedURI as string;
  };
  const filesOf = async (s: Snapshot) =>
    readdir(path.join(t().config.mediaDir, 'stadiumcam', s._id)).catch(() => [] as string[]);

  beforeAll(async () => {
    url = await listenUrl(t());
    await pool.host('host-privacy', [{ camera: 'mp1' }]);
  });
  afterAll(() => pool.closeAll());

  it('serves every rendition without GPS or camera tags, keeping only the capture time', async () => {
    const s = await upload('fan-gps');
    const [a] = await overlays();
    const shared = await choose(s, 'fan-gps', a);
    for (const u of [s.rawCroppedURI, s.smallURI, s.thumbURI, shared]) {
      const res = await get(u);
      expect(res.status, u).toBe(200);
      const tags = ((await exifr.parse(Buffer.from(await res.arrayBuffer()), true)) ?? {}) as Record<string, unknown>;
      expect(
        Object.keys(tags).filter((k) => k.startsWith('GPS')),
        u,
      ).toEqual([]);
      for (const k of ['Make', 'Model', 'Software', 'BodySerialNumber']) expect(tags[k], `${u} ${k}`).toBeUndefined();
      if (u === s.rawCroppedURI) expect(tags.DateTimeOriginal).toEqual(new Date('2025-06-01T19:30:00Z'));
    }
  });

  it('serves the disk store as @fastify/static did: type, length, ETag and 304, a range, HEAD; nothing outside its keys', async () => {
    const s = await upload('fan-disk');
    const raw = await get(s.rawCroppedURI);
    expect([raw.status, raw.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const body = Buffer.from(await raw.arrayBuffer());
    expect(Number(raw.headers.get('content-length'))).toBe(body.length);
    expect(raw.headers.get('cache-control')).toBe('public, max-age=0');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = raw.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // A browser's revalidation (fetch itself would add `cache-control: no-cache`, which asks past it).
    const revalidated = await new Promise<number | undefined>((resolve, reject) =>
      http
        .get(`${url}${s.rawCroppedURI}`, { headers: { 'if-none-match': etag } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on('error', reject),
    );
    expect(revalidated).toBe(304);
    const part = await fetch(`${url}${s.rawCroppedURI}`, { headers: { range: 'bytes=0-9' } });
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 0-9/${body.length}`]);
    expect(Buffer.from(await part.arrayBuffer()).equals(body.subarray(0, 10))).toBe(true);
    const head = await fetch(`${url}${s.thumbURI}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    for (const u of [
      '/media/stadiumcam/nope/raw.jpg',
      s.rawCroppedURI.toUpperCase().replace('/MEDIA/', '/media/'),
      '/media/%2e%2e/originals/x.jpg',
      '/media/stadiumcam/..%2f..%2foriginals/x.jpg',
      `/media/stadiumcam/${s._id}`,
      `/media/stadiumcam/${s._id}/`,
    ])
      expect((await get(u)).status, u).toBe(404);
  });

  it('a ban moves or removes every rendition the photo ever had, composites of earlier overlays too', async () => {
    const s = await upload('fan-ban');
    const [a, b] = await overlays();
    const first = await choose(s, 'fan-ban', a);
    const second = await choose(s, 'fan-ban', b);
    // Names are random, not derived from the photo or the overlay.
    expect(first).toMatch(/\/shared-[0-9a-f]{32}\.jpg$/);
    expect(await choose(s, 'fan-ban', a)).not.toBe(first);
    const old = [s.rawCroppedURI, s.smallURI, s.thumbURI, first, second];
    const ban = await t().call(snapshotsRoutes.ban, {
      cookie: await t().adminCookie(),
      body: { ids: [s._id], banStatus: true },
    });
    expect(ban.status).toBe(200);
    for (const u of old) expect((await get(u)).status, u).toBe(404);
    // What is left is exactly the banned photo's four (moved) renditions.
    const now = ban.body.snapshots[0] as Snapshot;
    const names = new Set(
      [now.rawCroppedURI, now.smallURI, now.thumbURI, now.sharedURI].map((u) => u.split('/').pop()),
    );
    expect((await filesOf(s)).sort()).toEqual([...names].sort());
  });

  it('a delete removes every rendition and the photo folder', async () => {
    const s = await upload('fan-delete');
    const [a, b] = await overlays();
    const first = await choose(s, 'fan-delete', a);
    const second = await choose(s, 'fan-delete', b);
    const del = await t().call(snapshotsRoutes.remove, { cookie: await t().adminCookie(), body: { ids: [s._id] } });
    expect(del.status).toBe(200);
    for (const u of [s.rawCroppedURI, s.smallURI, s.thumbURI, first, second])
      expect((await get(u)).status, u).toBe(404);
    expect(await filesOf(s)).toEqual([]);
  });

  it('keeps the camera original, GPS included, only behind a session and the Exif permission', async () => {
    const s = await upload('fan-original');
    const path_ = buildPath(snapshotsRoutes.original.path, { id: s._id });
    expect((await get(path_)).status).toBe(401);
    const nobody = (await t().userWith([])).cookie;
    const refused = await fetch(`${url}${path_}`, { headers: { cookie: nobody } });
    expect(refused.status).toBe(403);
    const reader = (await t().userWith([P.EXIF_ACCORDITION])).cookie;
    const res = await fetch(`${url}${path_}`, { headers: { cookie: reader } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const tags = (await exifr.parse(Buffer.from(await res.arrayBuffer()), true)) as Record<string, unknown>;
    expect(tags.Make).toBe('Acme');
    expect(Object.keys(tags).some((k) => k.startsWith('GPS'))).toBe(true);
    // Nothing under /media is the original: it lives outside the served store.
    const original = path.join(t().config.dataDir, 'originals', s._id);
    expect((await stat(original)).isFile()).toBe(true);
    expect(path.relative(t().config.mediaDir, original).startsWith('..')).toBe(true);
    const del = await t().call(snapshotsRoutes.remove, { cookie: await t().adminCookie(), body: { ids: [s._id] } });
    expect(del.status).toBe(200);
    await expect(stat(original)).rejects.toThrow();
    expect((await fetch(`${url}${path_}`, { headers: { cookie: reader } })).status).toBe(404);
  });
});
