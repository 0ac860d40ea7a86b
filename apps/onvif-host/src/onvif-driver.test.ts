import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAN_LIMIT, TILT_LIMIT } from '@stadiumcam/venue-sim';
import { parseConfig, type CameraConfig } from './config.ts';
import { OnvifDriver, describeError } from './onvif-driver.ts';
import { fromCamera, stepToCamera, toCamera, type Space } from './space.ts';
import { OnvifEmulator } from './test/onvif-emulator.ts';

const HOST = { moveTimeoutMs: 2000, snapshotTimeoutMs: 1500, maxSnapshotBytes: 2_000_000, requestTimeoutMs: 2000 };
const camConfig = (emu: OnvifEmulator, over: Partial<CameraConfig> = {}): CameraConfig => ({
  id: 'cam1',
  url: emu.url,
  username: 'admin',
  passwordEnv: 'CAM1_PASSWORD',
  password: 'secret',
  ranges: { pan: [-PAN_LIMIT, PAN_LIMIT], tilt: [-TILT_LIMIT, TILT_LIMIT] },
  ...over,
});

describe('seat-map units and the camera space', () => {
  const space: Space = {
    pan: { units: [-8e8, 8e8], camera: [-1, 1] },
    tilt: { units: [-3e8, 3e8], camera: [-1, 1] },
    zoom: { units: [0, 1], camera: [0, 1] },
  };

  it('round-trips a position exactly (whole counts), both ways', () => {
    for (const p of [
      { pan: 0, tilt: 0, zoom: 0 },
      { pan: 123_456_789, tilt: -98_765_432, zoom: 0.8 },
      { pan: -8e8, tilt: 3e8, zoom: 1 },
    ]) {
      expect(fromCamera(space, toCamera(space, p))).toEqual(p);
    }
    expect(toCamera(space, { pan: 4e8, tilt: -1.5e8, zoom: 0.25 })).toEqual({ x: 0.5, y: -0.5, zoom: 0.25 });
    // A camera space that is not symmetric (a camera that reports 0..360 degrees of pan).
    const degrees: Space = { ...space, pan: { units: [-1e9, 1e9], camera: [0, 360] } };
    expect(toCamera(degrees, { pan: 0, tilt: 0, zoom: 0 }).x).toBe(180);
    expect(fromCamera(degrees, { x: 90, y: 0, zoom: 0 }).pan).toBe(-5e8);
  });

  it('clamps an aim beyond the camera to its range, and scales relative steps without offset', () => {
    expect(toCamera(space, { pan: 2e9, tilt: -2e9, zoom: 1.5 })).toEqual({ x: 1, y: -1, zoom: 1 });
    expect(stepToCamera(space, { pan: 8e7, tilt: -3e7, zoom: 0.1 })).toEqual({ x: 0.1, y: -0.1, zoom: 0.1 });
  });
});

describe('the cameras config', () => {
  const file = {
    server: 'http://127.0.0.1:3000',
    hostId: 'onvif-1',
    cameras: [
      { id: 'cam5', url: 'http://10.0.0.5/onvif/device_service', username: 'admin', passwordEnv: 'CAM5_PASSWORD' },
    ],
  };

  it('takes passwords and the device token from the environment only', () => {
    const c = parseConfig(file, { CAM5_PASSWORD: 'pw5', DEVICE_TOKEN: 'tok' });
    expect(c.cameras[0].password).toBe('pw5');
    expect(c.deviceToken).toBe('tok');
    expect(c.fps).toBe(3);
    expect(() => parseConfig(file, { DEVICE_TOKEN: 'tok' })).toThrow(
      'cameras config: set the environment variable(s) CAM5_PASSWORD',
    );
  });

  it('refuses a password in the file and names every wrong field', () => {
    const withPassword = { ...file, cameras: [{ ...file.cameras[0], password: 'oops' }] };
    expect(() => parseConfig(withPassword, { CAM5_PASSWORD: 'x', DEVICE_TOKEN: 't' })).toThrow(
      /cameras\.0: .*password/,
    );
    const badId = { ...file, cameras: [{ ...file.cameras[0], id: 'front' }] };
    expect(() => parseConfig(badId, {})).toThrow('cameras.0.id: A camera id is cam<N> (the seat map names cameras so)');
  });
});

describe('the ONVIF driver against the emulator', () => {
  let emu: OnvifEmulator;
  let driver: OnvifDriver;

  beforeAll(async () => {
    emu = await new OnvifEmulator({ name: 'cam1', moveMs: 300 }).start();
    driver = new OnvifDriver(camConfig(emu), HOST);
    await driver.connect();
  });
  afterAll(async () => {
    await emu.stop();
  });

  it('reads the PTZ space and aims with AbsoluteMove; settled waits for the move to be done', async () => {
    expect(driver.canMove).toBe(true);
    expect(driver.space.pan.camera).toEqual([-1, 1]);
    await driver.aim({ pan: PAN_LIMIT / 2, tilt: -TILT_LIMIT / 4, zoom: 0.8 });
    const move = emu.calls.findLast((c) => c.action === 'AbsoluteMove');
    expect(move?.position).toEqual({ x: 0.5, y: -0.25, zoom: 0.8 });
    await driver.settled();
    expect(emu.now()).toEqual({ x: 0.5, y: -0.25, zoom: 0.8 });
    expect(await driver.position()).toEqual({ pan: PAN_LIMIT / 2, tilt: -TILT_LIMIT / 4, zoom: 0.8 });
  });

  it('relative, continuous, stop and home are RelativeMove, ContinuousMove, Stop and GotoHomePosition', async () => {
    const before = emu.calls.length;
    await driver.relative({ pan: PAN_LIMIT / 10, tilt: 0, zoom: 0 });
    await driver.settled();
    expect(emu.now().x).toBeCloseTo(0.6, 6);
    await driver.continuous({ pan: -1, tilt: 0 });
    await driver.stop();
    await driver.home();
    await driver.settled();
    expect(
      emu.calls
        .slice(before)
        .map((c) => c.action)
        .filter((a) => a !== 'GetStatus'),
    ).toEqual(['RelativeMove', 'ContinuousMove', 'Stop', 'GotoHomePosition']);
    expect(emu.calls.find((c) => c.action === 'ContinuousMove' && c.position)?.position).toEqual({
      x: -1,
      y: 0,
      zoom: 0,
    });
    expect(emu.now()).toEqual({ x: 0, y: 0, zoom: 0 });
  });

  it('takes a still through the snapshot URI with digest auth, rendered at the emulated position', async () => {
    const { jpeg } = await driver.still();
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    expect(emu.snapshots.at(-1)).toEqual({ x: 0, y: 0, zoom: 0 });
    const frame = await driver.frame({ target: null, label: '' });
    expect([frame[0], frame[1]]).toEqual([0xff, 0xd8]);
  });

  it('refuses a slow snapshot (timeout), one that is not a JPEG, and a huge one', async () => {
    emu.snapshotMode = 'slow';
    await expect(driver.still()).rejects.toThrow('Snapshot timed out after 1500 ms');
    emu.snapshotMode = 'html';
    await expect(driver.still()).rejects.toThrow('Snapshot is not a JPEG (text/html)');
    emu.snapshotMode = 'huge';
    await expect(driver.still()).rejects.toThrow('Snapshot larger than 2000 KB refused');
    emu.snapshotMode = 'ok';
    expect((await driver.still()).jpeg.length).toBeGreaterThan(1000);
  });

  it('says plainly when the credentials are wrong or the camera is unreachable', async () => {
    const wrong = new OnvifDriver(camConfig(emu, { password: 'wrong' }), HOST);
    const err = await wrong.connect().catch((e: Error) => e);
    expect(describeError(err as Error)).toBe('Wrong username or password: the camera refused the ONVIF login');
    const gone = await new OnvifEmulator({ name: 'gone' }).start();
    await gone.stop();
    const unreachable = new OnvifDriver(camConfig(gone), HOST);
    const err2 = await unreachable.connect().catch((e: Error) => e);
    expect(describeError(err2 as Error)).toMatch(/^Unreachable: connection refused/);
  });

  it('reads 401 as a login refusal only as a status, never inside an address or a port', () => {
    const said = (m: string) => describeError(new Error(m));
    // A refused connection to a port holding 401 was once called a wrong password (a CI run).
    expect(said('connect ECONNREFUSED 127.0.0.1:40123')).toBe('Unreachable: connection refused (127.0.0.1:40123)');
    expect(said('connect ETIMEDOUT 10.0.40.1:8401')).toBe('Unreachable: connect ETIMEDOUT 10.0.40.1:8401');
    expect(said('Unexpected answer from 10.4.0.1:3401')).toBe('Unexpected answer from 10.4.0.1:3401');
    for (const m of ['ONVIF SOAP Fault: Sender not authorized', 'Request failed with status 401', '401 Unauthorized'])
      expect(said(m)).toBe('Wrong username or password: the camera refused the ONVIF login');
  });

  it('a camera without PTZ connects, streams, and cannot move', async () => {
    const fixed = await new OnvifEmulator({ name: 'fixed', ptz: false }).start();
    try {
      const d = new OnvifDriver(camConfig(fixed), HOST);
      await d.connect();
      expect(d.canMove).toBe(false);
      expect((await d.still()).jpeg[0]).toBe(0xff);
    } finally {
      await fixed.stop();
    }
  });
});
