import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import S3rver from 's3rver';
import { count, sql } from 'drizzle-orm';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  MSG,
  buildPath,
  eventsRoutes,
  opsRoutes,
  snapshotsRoutes,
  templateRoutes,
  toQueryString,
  type Snapshot,
} from '@stadiumcam/contract';
import type { S3Settings } from '../config.ts';
import { snapshots } from '../db/schema/index.ts';
import { createTestApp, DB_KINDS, ORIGIN, type TestApp } from '../test/harness.ts';
import { MEDIA_CSP } from './media-guard.ts';
import { SocketPool, listenUrl, uploadPhoto } from '../test/realtime.ts';
import { sweepOrphans } from '../modules/snapshots/snapshots.service.ts';
import { addDays, todayIn, zonedInstant } from '../modules/events/events.time.ts';

const run = promisify(execFile);
const BUCKET = 'stadiumcam-media';
// s3rver's own key pair: it checks request signatures like S3 does.
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** s3rver on a free port over a temp folder; `stop` and `start` again on the same port and folder. */
async function startS3(dir: string, port = 0): Promise<{ server: S3rver; port: number }> {
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir });
  const info = await server.run();
  return { server, port: info.port };
}

const photo = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#2266aa' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Acme', Model: 'Cam 1' } })
    .toBuffer();

const watermark = () =>
  sharp({ create: { width: 1080, height: 1080, channels: 4, background: '#00000000' } })
    .png()
    .toBuffer();

for (const kind of DB_KINDS) {
  describe(`media in an S3 bucket (s3rver) [${kind}]`, () => {
    let dir = '';
    let s3: { server: S3rver; port: number };
    let client: S3Client;
    let t: TestApp;
    let url = '';
    let admin = '';
    const pool = new SocketPool(() => url);

    const objects = async (prefix = '') =>
      ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? [])
        .map((o) => o.Key)
        .sort();
    const object = async (key: string) =>
      Buffer.from(
        await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToByteArray(),
      );
    const get = (mediaUrl: string, headers: Record<string, string> = {}) => fetch(`${url}${mediaUrl}`, { headers });
    const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
    const ingest = async (image: Buffer, userId = 'fan-s3') =>
      uploadPhoto(url, {
        metadata: { slugDate: 'stadiumcam', userId, camera: 's3cam', section: '101', row: 'A', seat: '1' },
        image,
      });
    const uploadWatermark = async (slugDate = 'stadiumcam') => {
      const form = new FormData();
      form.append('image', new Blob([await watermark()], { type: 'image/png' }), 'mark.png');
      return fetch(`${url}/api/events/${slugDate}/images/watermark`, {
        method: 'POST',
        headers: { origin: url, cookie: admin },
        body: form,
      });
    };
    const rowCount = async () => (await t.app.deps.db.select({ n: count() }).from(snapshots))[0].n;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
      s3 = await startS3(path.join(dir, 'store'));
      const settings: S3Settings = {
        bucket: BUCKET,
        endpoint: `http://127.0.0.1:${s3.port}`,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: CREDENTIALS,
      };
      client = new S3Client({ ...settings, credentials: CREDENTIALS });
      await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
      t = await createTestApp(kind, { s3: settings });
      url = await listenUrl(t);
      admin = await t.adminCookie();
      await pool.host('host-s3', [{ camera: 's3cam' }]);
    });
    afterAll(async () => {
      pool.closeAll();
      await t?.close();
      client?.destroy();
      await s3?.server.close();
      await rm(dir, { recursive: true, force: true });
    });

    let snap: Snapshot;
    let image: Buffer;

    it('stores an ingested photo in the bucket and streams it at its /media URL', async () => {
      image = await photo();
      const res = await ingest(image);
      expect(res.status).toBe(200);
      snap = res.body as Snapshot;
      const base = `media/stadiumcam/${snap._id}`;
      expect(await objects(`${base}/`)).toEqual([`${base}/raw.jpg`, `${base}/small.jpg`, `${base}/thumb.jpg`]);
      // Nothing on disk: the bucket is the store.
      expect(existsSync(t.config.mediaDir)).toBe(false);
      expect(existsSync(path.join(t.config.dataDir, 'originals'))).toBe(false);

      const raw = await get(snap.rawCroppedURI);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toBe('image/jpeg');
      expect(raw.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const body = await bytes(raw);
      expect(body.equals(await object(`${base}/raw.jpg`))).toBe(true);
      expect(Number(raw.headers.get('content-length'))).toBe(body.length);
      expect((await sharp(body).metadata()).width).toBe(1200);

      const etag = raw.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      expect((await get(snap.rawCroppedURI, { 'if-none-match': etag })).status).toBe(304);
      const part = await get(snap.rawCroppedURI, { range: 'bytes=0-9' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 0-9/${body.length}`);
      expect((await bytes(part)).equals(body.subarray(0, 10))).toBe(true);
      const head = await fetch(`${url}${snap.thumbURI}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/jpeg');
      expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);

      expect((await get('/media/stadiumcam/nope/raw.jpg')).status).toBe(404);
      expect((await get('/media/%2e%2e/originals/x')).status).toBe(404);
    });

    it('serves only images from the bucket, never sniffed, never a page (docs/security.md §21)', async () => {
      // Objects of other types put straight into the bucket (an older import, a future bug).
      for (const [key, body] of [
        ['media/legacy/p.html', '<script>alert(1)</script>'],
        ['media/legacy/x.js', 'alert(1)'],
      ])
        await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: 'text/html' }));
      expect((await get('/media/legacy/p.html')).status).toBe(404);
      expect((await get('/media/legacy/x.js')).status).toBe(404);
      await t.app.deps.media.put('legacy/ok.png', await watermark());
      const raw = await get('/media/legacy/ok.png');
      expect([raw.status, raw.headers.get('content-type')]).toEqual([200, 'image/png']);
      expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
      expect(raw.headers.get('content-security-policy')).toBe(MEDIA_CSP);
      // An image object the bucket types as a page is answered as an attachment, not a page.
      await client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: 'media/legacy/page.png', Body: 'x', ContentType: 'text/html' }),
      );
      const page = await get('/media/legacy/page.png');
      expect([page.status, page.headers.get('content-disposition')]).toEqual([200, 'attachment']);
    });

    it('keeps the camera original under originals/, never served at /media, only behind a session', async () => {
      const key = `originals/${snap._id}`;
      expect((await object(key)).equals(image)).toBe(true);
      // /media serves the media/ prefix only: the same name under it is not the original.
      expect((await get(`/media/${snap._id}`)).status).toBe(404);
      expect((await get(`/media/originals/${snap._id}`)).status).toBe(404);
      const route = buildPath(snapshotsRoutes.original.path, { id: snap._id });
      expect((await get(route)).status).toBe(401);
      const res = await get(route, { cookie: admin });
      expect(res.status).toBe(200);
      expect((await bytes(res)).equals(image)).toBe(true);
    });

    it('puts the photo in a plain archive and in the encrypted export', async () => {
      const work = await mkdtemp(path.join(dir, 'zip-'));
      const unzip = async (zip: Buffer, password = '') => {
        const out = await mkdtemp(path.join(work, 'x-'));
        await writeFile(path.join(out, 'a.zip'), zip);
        await run('7z', ['x', `-p${password}`, '-y', `-o${out}/files`, path.join(out, 'a.zip')]);
        const files = await readdir(path.join(out, 'files'), { recursive: true, withFileTypes: true });
        return Promise.all(files.filter((f) => f.isFile()).map(async (f) => readFile(path.join(f.parentPath, f.name))));
      };
      const raw = await object(`media/stadiumcam/${snap._id}/raw.jpg`);
      const archive = await t.app.inject({
        method: 'GET',
        url: `/api/downloadArchive${toQueryString({ snapshots: [snap._id] })}`,
        headers: { cookie: admin, origin: ORIGIN },
      });
      expect(archive.statusCode).toBe(200);
      const plain = await unzip(archive.rawPayload);
      expect(plain).toHaveLength(1);
      expect(plain[0].equals(raw)).toBe(true);
      const exported = await t.app.inject({
        method: 'POST',
        url: '/api/snapshots/export',
        payload: { password: 'Ab3dE6gH9k', id: [snap._id] },
        headers: { cookie: admin, origin: ORIGIN, host: new URL(ORIGIN).host },
      });
      expect(exported.statusCode).toBe(200);
      const files = await unzip(exported.rawPayload, 'Ab3dE6gH9k');
      expect(files).toHaveLength(1);
      expect(files[0].equals(raw)).toBe(true);
    });

    it('moves every rendition to new keys on a ban (old URLs 404), and a delete removes them all', async () => {
      const before = [snap.rawCroppedURI, snap.smallURI, snap.thumbURI];
      const ban = await t.call(snapshotsRoutes.ban, { cookie: admin, body: { ids: [snap._id], banStatus: true } });
      expect(ban.status).toBe(200);
      const banned = ban.body.snapshots[0] as Snapshot;
      const after = [banned.rawCroppedURI, banned.smallURI, banned.thumbURI];
      for (const [i, old] of before.entries()) {
        expect(after[i]).not.toBe(old);
        expect((await get(old)).status).toBe(404);
        const res = await get(after[i]);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
      }
      expect(await objects(`media/stadiumcam/${snap._id}/`)).toEqual(
        after.map((u) => `media${u.slice('/media'.length)}`).sort(),
      );

      const del = await t.call(snapshotsRoutes.remove, { cookie: admin, body: { ids: [snap._id] } });
      expect(del.status).toBe(200);
      expect(await objects(`media/stadiumcam/${snap._id}/`)).toEqual([]);
      expect(await objects(`originals/${snap._id}`)).toEqual([]);
      for (const u of after) expect((await get(u)).status).toBe(404);
    });

    it('stores a template image in the bucket; saving it checks the object is there', async () => {
      const res = await uploadWatermark();
      expect(res.status).toBe(200);
      const up = (await res.json()) as { url: string; rawUrl: string };
      expect(await objects('media/stadiumcam/images/')).toEqual(
        [up.rawUrl, up.url].map((u) => `media${u.slice('/media'.length)}`).sort(),
      );
      expect((await object(`media${up.rawUrl.slice('/media'.length)}`)).equals(await watermark())).toBe(true);
      const served = await get(up.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      // Saving asks the bucket whether each named image is there.
      const event = await t.call(eventsRoutes.get, { cookie: admin, params: { slugDate: 'stadiumcam' } });
      const save = (images: Record<string, string>) =>
        t.call(templateRoutes.images, {
          cookie: admin,
          body: { eventIds: [event.body._id], images, venueType: 'zone' },
        });
      expect((await save({ watermarkUrl: up.url, watermarkRawUrl: up.rawUrl })).status).toBe(200);
      const missing = await save({ watermarkUrl: up.url.replace(/watermark-[0-9a-f]+/, 'watermark-0000000000000000') });
      expect(missing.status).toBe(422);
      expect(missing.body.error).toBe(MSG.template.imageNotFound('watermarkUrl'));
    });

    it("removes an event's objects with the event", async () => {
      const gameDate = addDays(todayIn('UTC'), 40);
      const created = await t.call(eventsRoutes.create, {
        cookie: admin,
        body: {
          gameDate,
          slugDate: `stadiumcam-${gameDate}`,
          startTime: zonedInstant(gameDate, '18:00', 'UTC').toISOString(),
          endTime: zonedInstant(gameDate, '22:00', 'UTC').toISOString(),
          title: 'Bucket night',
        },
      });
      expect(created.status).toBe(200);
      const slugDate = created.body.slugDate as string;
      expect((await uploadWatermark(slugDate)).status).toBe(200);
      expect(await objects(`media/${slugDate}/`)).toHaveLength(2);
      expect((await t.call(eventsRoutes.remove, { cookie: admin, params: { slugDate } })).status).toBe(204);
      expect(await objects(`media/${slugDate}/`)).toEqual([]);
    });

    it('sweeps a photo folder left without a row, and keeps the others', async () => {
      const orphan = `media/stadiumcam/${randomUUID()}/raw.jpg`;
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: orphan, Body: Buffer.from('x') }));
      const kept = await ingest(await photo());
      expect(kept.status).toBe(200);
      const removed = await sweepOrphans(t.app.deps, new Date(Date.now() + 60_000));
      expect(removed).toMatchObject({ folders: 1, originals: 0 });
      expect(await objects(orphan)).toEqual([]);
      expect((await get((kept.body as Snapshot).rawCroppedURI)).status).toBe(200);
    });

    /** Runs `body` while the database refuses, by a trigger, what `when` matches: a real refusal. */
    const refusing = async (on: 'insert' | 'update', when: string, body: () => Promise<void>) => {
      await t.app.deps.db.execute(sql`create or replace function refuse_row() returns trigger language plpgsql as $$
        begin raise exception 'row refused'; end $$`);
      await t.app.deps.db.execute(
        sql.raw(`create trigger refuse_row before ${on} on snapshots for each row when (${when})
          execute function refuse_row()`),
      );
      try {
        await body();
      } finally {
        await t.app.deps.db.execute(sql`drop trigger refuse_row on snapshots`);
      }
    };

    it('takes the files back when the row cannot be written', async () => {
      const stored = await objects();
      await refusing('insert', `new.user_id = 'fan-refused'`, async () => {
        expect((await ingest(await photo(), 'fan-refused')).status).toBe(500);
      });
      expect(await objects()).toEqual(stored);
    });

    it('moves the files back when a ban cannot be recorded', async () => {
      const res = await ingest(await photo());
      expect(res.status).toBe(200);
      const photoSnap = res.body as Snapshot;
      const stored = await objects(`media/stadiumcam/${photoSnap._id}/`);
      await refusing('update', 'new.hidden and not old.hidden', async () => {
        const ban = await t.call(snapshotsRoutes.ban, {
          cookie: admin,
          body: { ids: [photoSnap._id], banStatus: true },
        });
        expect(ban.status).toBe(500);
      });
      expect(await objects(`media/stadiumcam/${photoSnap._id}/`)).toEqual(stored);
      for (const u of [photoSnap.rawCroppedURI, photoSnap.smallURI, photoSnap.thumbURI])
        expect((await get(u)).status).toBe(200);
    });

    it('with S3 down: not ready, uploads fail with a clear error and no row names a missing object', async () => {
      expect((await t.call(opsRoutes.readyz)).status).toBe(200);
      const rows = await rowCount();
      const stored = await objects();
      const kept = stored.find((k) => k!.endsWith('/raw.jpg'))!.split('/')[2];
      await s3.server.close();
      try {
        const ready = await t.call(opsRoutes.readyz);
        expect(ready.status).toBe(503);
        expect(ready.body.status).toBe('not ready');
        expect(ready.body.checks.database).toBe('ok');
        expect(ready.body.checks.media).toMatch(/^bucket "stadiumcam-media": \S/);

        const res = await ingest(await photo());
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: MSG.media.storeUnavailable });
        expect(await rowCount()).toBe(rows);

        const ban = await t.call(snapshotsRoutes.ban, { cookie: admin, body: { ids: [kept], banStatus: true } });
        expect(ban.status).toBe(503);
        expect(ban.body).toEqual({ error: MSG.media.readUnavailable });

        const graphic = await uploadWatermark();
        expect(graphic.status).toBe(503);
        expect(await graphic.json()).toEqual({ error: MSG.media.storeUnavailable });

        const read = await get(stored.find((k) => k!.endsWith('raw.jpg'))!.replace(/^media/, '/media'));
        expect(read.status).toBe(503);
        expect(await read.json()).toEqual({ error: MSG.media.readUnavailable });
      } finally {
        s3 = await startS3(path.join(dir, 'store'), s3.port);
      }
      // Back up: ready again, and the failed upload left nothing in the bucket.
      expect((await t.call(opsRoutes.readyz)).status).toBe(200);
      expect(await objects()).toEqual(stored);
      // The refused ban changed nothing: the photo is visible at its URL.
      const row = await t.call(snapshotsRoutes.get, { cookie: admin, params: { id: kept } });
      expect(row.body.hidden).toBe(false);
      expect((await get(row.body.rawCroppedURI)).status).toBe(200);
    });
  });
}
