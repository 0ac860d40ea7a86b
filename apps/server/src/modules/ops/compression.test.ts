import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import { analyticsRoutes, exportRoutes, opsRoutes, snapshotsRoutes, toQueryString } from '@stadiumcam/contract';
import { describeEachDb } from '../../test/harness.ts';
import { makeEvent, makePhoto } from '../../test/factories.ts';
import { SocketPool, listenUrl, uploadPhoto } from '../../test/realtime.ts';
import { readAmpZip } from '../template/amp.zip.ts';

const PAST = 'stadiumcam-2024-03-01';
/**
 * Above this a body is compressed as a stream, after the handler has returned (below it,
 * @fastify/compress compresses at once; its sync threshold is 4-64 KiB by core count).
 */
const STREAMED = 64 * 1024;
/** Event users CSV rows: enough for a file above STREAMED. */
const PHOTOS = 800;

/**
 * Routes whose handler sends its own answer (CSV, archives, metrics) asked as Prometheus and
 * browsers ask, with compression on (issue 27 §12): a compressed send finishes after the
 * handler returns, and the route must not be answered a second time (it was: 204, no body).
 */
describeEachDb('compressed answers of routes that reply themselves', (t) => {
  let url = '';
  let cookie = '';
  let photoIds: string[] = [];
  const pool = new SocketPool(() => url);
  afterAll(() => pool.closeAll());

  beforeAll(async () => {
    url = await listenUrl(t());
    cookie = await t().adminCookie();
    await makeEvent(t().app.deps.db, PAST);
    for (let i = 0; i < PHOTOS; i++) {
      await makePhoto(t().app.deps.db, {
        id: `cmp-${i}`,
        slugDate: PAST,
        userId: `fan-compression-${i}`,
        section: String(100 + (i % 7)),
        row: 'ABCDEFGH'[i % 8],
        seat: String(i),
      });
    }
    // Real photos for the archive: its entries are the stored files.
    await pool.host('host-compression', [{ camera: 'cmp1' }]);
    const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2a6' } })
      .jpeg()
      .toBuffer();
    photoIds = [];
    for (const userId of ['fan-zip-1', 'fan-zip-2']) {
      const res = await uploadPhoto(url, {
        metadata: { slugDate: 'stadiumcam', userId, camera: 'cmp1', section: '104', row: 'F', seat: '12' },
        image,
      });
      expect(res.status).toBe(200);
      photoIds.push((res.body as { _id: string })._id);
    }
    // A busy server's metrics: every route answered once (most 401 without a session), so the
    // latency histogram holds a series per route, well above STREAMED.
    for (const def of t().app.routeDefs) {
      await t().app.inject({ method: def.method, url: def.path.replace(/:\w+/g, 'x') });
    }
  });

  /** One GET over real HTTP; fetch decodes gzip and br. */
  const get = async (path: string, acceptEncoding: string) => {
    const res = await fetch(`${url}${path}`, { headers: { cookie, 'accept-encoding': acceptEncoding } });
    return {
      status: res.status,
      encoding: res.headers.get('content-encoding'),
      type: res.headers.get('content-type'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  it('answers /metrics 200 with the whole Prometheus text to a gzip/br client', async () => {
    const res = await get(opsRoutes.metrics.path, 'gzip, br');
    expect(res.status).toBe(200);
    expect(res.encoding).toMatch(/^(br|gzip)$/);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body.toString();
    expect(text.length).toBeGreaterThan(STREAMED);
    expect(text).toMatch(
      /stadiumcam_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/,
    );
    expect(text).toContain('# TYPE stadiumcam_resident_memory_bytes gauge');
    expect(text.trimEnd()).toMatch(/stadiumcam_\w+(\{[^}]*\})? [\d.e+-]+$/);
    // Gzip alone, as Prometheus asks.
    const gzip = await get(opsRoutes.metrics.path, 'gzip');
    expect(gzip.status).toBe(200);
    expect(gzip.encoding).toBe('gzip');
    expect(gzip.body.toString()).toContain('# HELP stadiumcam_socket_clients');
  });

  it('answers the event users and analytics CSV exports 200 with the whole file, compressed', async () => {
    const csvPath = `${snapshotsRoutes.eventUsersExport.path}${toQueryString({ slugDate: [PAST] })}`;
    const plain = await get(csvPath, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.encoding).toBeNull();
    const packed = await get(csvPath, 'gzip, br');
    expect(packed.status).toBe(200);
    expect(packed.encoding).toMatch(/^(br|gzip)$/);
    expect(packed.type).toBe('text/csv; charset=utf-8');
    expect(packed.body.length).toBeGreaterThan(STREAMED);
    expect(packed.body.toString()).toBe(plain.body.toString());
    expect(packed.body.toString().trimEnd().split('\r\n')).toHaveLength(PHOTOS + 1);

    const analyticsPath = analyticsRoutes.export.path.replace(':slugDate', PAST);
    const a = await get(analyticsPath, 'identity');
    const b = await get(analyticsPath, 'gzip, br');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.encoding).toMatch(/^(br|gzip)$/);
    expect(b.body.length).toBeGreaterThan(1024);
    expect(b.body.toString()).toBe(a.body.toString());
  });

  it('answers the photo archive and the .amp export 200 with every entry', async () => {
    const archive = await get(
      `${snapshotsRoutes.downloadArchive.path}${toQueryString({ snapshots: photoIds })}`,
      'gzip, br',
    );
    expect(archive.status).toBe(200);
    expect(archive.type).toBe('application/zip');
    const photos = readAmpZip(archive.body);
    expect(photos.size).toBe(2);
    for (const data of photos.values()) expect((await sharp(data).metadata()).width).toBe(640);

    const ampPath = exportRoutes.export.path.replace(':slugDate', 'stadiumcam');
    const amp = await get(ampPath, 'gzip, br');
    expect(amp.status).toBe(200);
    expect(amp.encoding).toMatch(/^(br|gzip)$/);
    const entries = readAmpZip(amp.body);
    expect([...entries.keys()]).toContain('manifest.json');
    expect(JSON.parse(entries.get('manifest.json')!.toString())).toHaveProperty('formatVersion');
  });
});
