import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { MSG, type PhotoMetadata } from '@stadiumcam/contract';
import { uploadPhoto as hostUpload } from '@stadiumcam/camera-host';
import { describeEachDb, DEVICE_TOKEN } from '../../test/harness.ts';
import { SocketPool, listenUrl } from '../../test/realtime.ts';
import { findSnapshotRow } from '../attendee/attendee.repository.ts';

/*
 * Issue 30 §5(b): past the image work's ceiling a photo is not queued for long. Its host is told
 * to send it again later (503, Retry-After, the catalogue's text), nothing is stored, and the
 * camera host's upload honours the wait and lands the photo.
 */
describeEachDb('photo ingest past the ceiling: shed, retried, landed', (t) => {
  let url = '';
  const pool = new SocketPool(() => url);
  const meta = (userId: string): PhotoMetadata => ({
    slugDate: 'stadiumcam',
    userId,
    camera: 'shed1',
    section: '104',
    row: 'F',
    seat: '12',
  });

  beforeAll(async () => {
    url = await listenUrl(t());
    await pool.host('host-shed', [{ camera: 'shed1' }]);
  });
  afterAll(() => pool.closeAll());

  const count = async (c: { get: () => Promise<{ values: { value: number }[] }> }) =>
    (await c.get()).values[0]?.value ?? 0;

  it('answers 503 with Retry-After while the image work is saturated; the host waits, sends again and the photo lands', async () => {
    const deps = t().app.deps;
    const saved = deps.config.images.maxWaitMs;
    const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#a53' } })
      .jpeg()
      .toBuffer();
    const image = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#35a' } })
      .jpeg()
      .toBuffer();
    // Saturate: the pool's every slot busy and a queue behind, refilled as jobs end.
    let saturated = true;
    const work: Promise<unknown>[] = [];
    const keepBusy = (): Promise<unknown> =>
      deps.images.renditions(big, new Date()).then(() => (saturated ? keepBusy() : undefined));
    for (let i = 0; i < 8; i++) work.push(keepBusy());
    deps.config.images.maxWaitMs = 1;
    try {
      await vi.waitFor(() => expect(deps.images.waitMs()).toBeGreaterThan(1));
      const ingested = await count(deps.ops.photosIngested);
      const form = new FormData();
      form.append('metadata', JSON.stringify(meta('fan-shed-refused')));
      form.append('image', new Blob([image], { type: 'image/jpeg' }), 'p.jpg');
      const res = await fetch(`${url}/api/devices/snapshots`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEVICE_TOKEN}` },
        body: form,
      });
      const seconds = Number(res.headers.get('retry-after'));
      expect(res.status).toBe(503);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(30);
      expect(((await res.json()) as { error: string }).error).toBe(MSG.devices.photosBusy(seconds));
      expect(await count(deps.ops.photosShed)).toBeGreaterThanOrEqual(1);
      expect(await count(deps.ops.photosIngested)).toBe(ingested);

      // The camera host's own upload: told to wait, it waits; the load ends meanwhile; it lands.
      const told: number[] = [];
      const landing = hostUpload({ serverUrl: url, deviceToken: DEVICE_TOKEN }, meta('fan-shed-landed'), image, {
        onBusy: (s) => {
          told.push(s);
          saturated = false;
        },
      });
      const landed = await landing;
      expect(told.length).toBeGreaterThanOrEqual(1);
      const row = await findSnapshotRow(deps.db, landed._id);
      expect(row?.userId).toBe('fan-shed-landed');
    } finally {
      saturated = false;
      deps.config.images.maxWaitMs = saved;
      await Promise.all(work);
    }
  });
});
