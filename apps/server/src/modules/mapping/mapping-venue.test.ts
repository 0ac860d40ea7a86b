import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  cameraConfigsRoutes,
  mappingRoutes,
  ROVER_MODE_KEY,
  type CameraWithConfigs,
  type Event,
} from '@stadiumcam/contract';
import { startVenue, viewOfSeat, type Venue } from '@stadiumcam/venue-sim';
import { ADMIN_PASSWORD, DEVICE_TOKEN, describeEachDb } from '../../test/harness.ts';
import { ensureTodayEventLive } from '../events/events.service.ts';
import { listenUrl } from '../../test/realtime.ts';
import { joinAs, newFan } from '../attendee/fan.test-util.ts';

/** Polls `check` until it holds (the simulator works asynchronously); no fixed sleeps. */
async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeEachDb('venue simulator: map files, aiming by region, camera configs', (t) => {
  let url = '';
  let venue: Venue;
  let event: Event;
  let cookie = '';

  beforeAll(async () => {
    url = await listenUrl(t());
    event = await ensureTodayEventLive(t().app.deps);
    cookie = await t().adminCookie();
    venue = await startVenue({
      serverUrl: url,
      deviceToken: DEVICE_TOKEN,
      seed: 7,
      camerasPerHost: 2,
      fps: 2,
      attendeeRate: 0,
      turnMs: 60_000,
      powerDelayMs: 10,
      technician: { username: 'admin', password: ADMIN_PASSWORD },
    });
  });
  afterAll(async () => {
    await venue?.stop();
  });

  it('uploads its map files and row dictionary on a first start and the seat map is loaded', async () => {
    const files = await t().call(mappingRoutes.list, { cookie });
    expect(files.body.files.map((f: { name: string }) => f.name)).toEqual(['cam1.json', 'cam2.json', 'row_dict.txt']);
    expect(t().app.deps.seatMap.current.cameras.map((c) => c.camera)).toEqual(['cam1', 'cam2']);
  });

  it('a fan is aimed at by the camera covering the seat, and a changed region moves the camera', async () => {
    const seat = { seatType: 'section', section: '210', row: 'G', seat: '13' };
    const [first, second] = [await newFan(t()), await newFan(t())];
    const join = await joinAs(t(), first, { slugDate: event.slugDate, seat });
    expect(join.body.camera).toBe('cam2');
    const cam2 = venue.hosts[0].cameras.get('cam2')!;
    const want = viewOfSeat(seat)!;
    await until(() => cam2.current?.userId === first.userId || undefined, 'the fan’s turn');
    expect({ pan: cam2.view.pan, tilt: cam2.view.tilt }).toEqual({ pan: want.pan, tilt: want.tilt });

    // The technician shifts section 210's region by 1,000,000 counts of pan: the next fan there follows it.
    const map = t().app.deps.seatMap.current.cameras[1];
    const region = map.sections.find((s) => s.name === '210')!.regions[0];
    const shift = (c: typeof region.topLeft, position: string) => ({ ...c, position, pan: c.pan + 1_000_000 });
    const updated = await t().call(mappingRoutes.updateRegion, {
      cookie,
      params: { camera: 'cam2', type: 'section', section: '210', index: 0 },
      body: {
        name: '210',
        type: 'section',
        regionType: 'default',
        corners: [
          shift(region.topLeft, 'top_left'),
          shift(region.topRight, 'top_right'),
          shift(region.bottomLeft, 'bottom_left'),
          shift(region.bottomRight, 'bottom_right'),
        ] as never,
        angle: 0,
        zoomFactor: 0.8,
      },
    });
    expect(updated.status).toBe(200);
    await joinAs(t(), second, { slugDate: event.slugDate, seat });
    // Kick the first fan so the second one's turn starts.
    cam2.remove(first.userId);
    await until(() => cam2.current?.userId === second.userId || undefined, 'the second fan’s turn');
    expect(cam2.view.pan).toBe(want.pan + 1_000_000);
  });

  it('reports camera configs with widgets, and a change reaches the host (and is refused out of bounds)', async () => {
    const list = await until(async () => {
      const r = await t().call(cameraConfigsRoutes.list, { cookie });
      const cams = r.body as CameraWithConfigs[];
      return cams.length === 2 && cams.every((c) => c.configs.length) ? cams : undefined;
    }, 'camera configs');
    const cam1 = list[0];
    expect(cam1.host?.name).toContain('Venue simulator');
    expect(cam1.configs.map((c) => c.widgetType)).toEqual(expect.arrayContaining(['RADIO', 'MENU', 'RANGE', 'TEXT']));

    const ok = await t().call(cameraConfigsRoutes.update, {
      cookie,
      params: { key: 'cam1' },
      body: {
        camera: 'cam1',
        _id: 'cam1',
        configs: [
          { configKey: 'jpegQuality', configValue: 70 },
          { configKey: ROVER_MODE_KEY, configValue: 'manual' },
        ],
      },
    });
    expect(ok.status).toBe(200);
    const sim = venue.hosts[0].cameras.get('cam1')!;
    expect(sim.settings.jpegQuality).toBe(70);
    // The rover mode waits for 'restart acs'.
    expect(sim.settings.roverMode).toBe('auto');
    const stored = (await t().call(cameraConfigsRoutes.list, { cookie })).body as CameraWithConfigs[];
    expect(stored[0].configs.find((c) => c.configKey === 'jpegQuality')?.configValue).toBe(70);

    const bad = await t().call(cameraConfigsRoutes.update, {
      cookie,
      params: { key: 'cam1' },
      body: { camera: 'cam1', configs: [{ configKey: 'jpegQuality', configValue: 500 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('JPEG quality must be at most 90');
    expect(sim.settings.jpegQuality).toBe(70);
    const unknown = await t().call(cameraConfigsRoutes.update, {
      cookie,
      params: { key: 'cam1' },
      body: { camera: 'cam1', configs: [{ configKey: 'nope', configValue: 1 }] },
    });
    expect(unknown.status).toBe(400);
  });
});
