import onvif from 'onvif';
import sharp from 'sharp';
import type { CameraDriver, PanAndZoom, Ptz, Scene, Still } from '@stadiumcam/camera-host';
import type { CameraConfig, HostConfig } from './config.ts';
import { SnapshotClient } from './snapshot.ts';
import { DEFAULT_UNITS, GENERIC_CAMERA, fromCamera, stepToCamera, toCamera, type Range, type Space } from './space.ts';

/** The part of the `onvif` library's Cam this driver uses (callback style). */
type Cam = {
  connect(cb: (err: Error | null) => void): void;
  profiles?: { $: { token: string }; name?: string; PTZConfiguration?: unknown; videoEncoderConfiguration?: unknown }[];
  defaultProfile?: { $: { token: string }; PTZConfiguration?: unknown };
  uri?: { ptz?: unknown };
  getNodes(cb: (err: Error | null, nodes: Record<string, any>) => void): void;
  getSnapshotUri(o: { profileToken: string }, cb: (err: Error | null, r: { uri: string }) => void): void;
  absoluteMove(o: Record<string, unknown>, cb: (err: Error | null) => void): void;
  relativeMove(o: Record<string, unknown>, cb: (err: Error | null) => void): void;
  continuousMove(o: Record<string, unknown>, cb: (err: Error | null) => void): void;
  stop(o: Record<string, unknown>, cb: (err: Error | null) => void): void;
  gotoHomePosition(o: Record<string, unknown>, cb: (err: Error | null) => void): void;
  getStatus(
    o: { profileToken: string },
    cb: (
      err: Error | null,
      s: {
        position: { x: number; y: number; zoom: number };
        moveStatus?: { panTilt?: string; zoom?: string } | string;
      },
    ) => void,
  ): void;
};

/** Live frames are scaled to this width (the server takes frames up to 512 KB). */
const FRAME_WIDTH = 640;

/** A message for the camera's status line: wrong credentials said plainly, the rest as the network said. */
export function describeError(err: Error): string {
  const m = err.message;
  // The network first: its messages carry the camera's address, and a port such as 40123 holds
  // "401" (CI once read a refused connection as a wrong password that way).
  if (/ECONNREFUSED/.test(m)) return `Unreachable: connection refused (${m.replace(/^.*ECONNREFUSED\s*/, '')})`;
  if (/timeout|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE|fetch failed/i.test(m)) return `Unreachable: ${m}`;
  // 401 as an HTTP status, not inside an address or a port.
  if (/not ?authori[sz]ed|authentication failed|(^|[^\d.:])401($|[^\d.:])/i.test(m))
    return 'Wrong username or password: the camera refused the ONVIF login';
  return m;
}

/**
 * An ONVIF Profile S camera as the host brain drives it (docs/cameras-onvif.md): an aim is an
 * `AbsoluteMove` in the camera's normalised space (`space.ts`), `r` a `RelativeMove`, `c` a
 * `ContinuousMove`, `s` a `Stop`, `#` a `GetStatus`, Home a `GotoHomePosition`; stills and live
 * frames come from the snapshot URI. `connect()` must succeed before anything else; a failure
 * of any call throws (the host then marks the camera and reconnects).
 */
export class OnvifDriver implements CameraDriver {
  canMove = false;
  private cam: Cam | null = null;
  private profileToken = '';
  private snapshots: SnapshotClient | null = null;
  space: Space;
  private moving: Promise<void> = Promise.resolve();
  private target: { x: number; y: number; zoom: number } | null = null;

  constructor(
    readonly config: CameraConfig,
    private readonly host: Pick<
      HostConfig,
      'moveTimeoutMs' | 'snapshotTimeoutMs' | 'maxSnapshotBytes' | 'requestTimeoutMs'
    >,
  ) {
    this.space = this.spaceOf(GENERIC_CAMERA);
  }

  private spaceOf(camera: { pan: Range; tilt: Range; zoom: Range }): Space {
    const r = this.config.ranges ?? {};
    return {
      pan: { units: r.pan ?? DEFAULT_UNITS.pan, camera: camera.pan },
      tilt: { units: r.tilt ?? DEFAULT_UNITS.tilt, camera: camera.tilt },
      zoom: { units: r.zoom ?? DEFAULT_UNITS.zoom, camera: camera.zoom },
    };
  }

  /** Connects (device, media, PTZ services), picks the profile, reads the PTZ space and the snapshot URI. */
  async connect(): Promise<void> {
    const url = new URL(this.config.url);
    const cam = new onvif.Cam({
      hostname: url.hostname,
      port: Number(url.port || 80),
      path: url.pathname,
      username: this.config.username,
      password: this.config.password,
      timeout: this.host.requestTimeoutMs,
      autoconnect: false,
    }) as unknown as Cam;
    await new Promise<void>((resolve, reject) => cam.connect((err) => (err ? reject(err) : resolve())));
    const profiles = cam.profiles ?? [];
    const profile = this.config.profile
      ? profiles.find((p) => p.$.token === this.config.profile)
      : (cam.defaultProfile ?? profiles[0]);
    if (!profile) {
      throw new Error(
        this.config.profile
          ? `No media profile "${this.config.profile}" (the camera has: ${profiles.map((p) => p.$.token).join(', ') || 'none'})`
          : 'The camera has no media profile',
      );
    }
    this.profileToken = profile.$.token;
    this.canMove = Boolean(cam.uri?.ptz && profile.PTZConfiguration);
    let camera = GENERIC_CAMERA;
    if (this.canMove) {
      const nodes = await new Promise<Record<string, any>>((resolve) =>
        cam.getNodes((err, n) => resolve(err ? {} : (n ?? {}))),
      );
      const spaces = Object.values(nodes)[0]?.supportedPTZSpaces;
      const pt = spaces?.absolutePanTiltPositionSpace;
      const z = spaces?.absoluteZoomPositionSpace;
      const r = (x: any, fallback: Range): Range =>
        x && Number.isFinite(Number(x.min)) && Number.isFinite(Number(x.max)) && Number(x.min) !== Number(x.max)
          ? [Number(x.min), Number(x.max)]
          : fallback;
      camera = {
        pan: r(pt?.XRange, GENERIC_CAMERA.pan),
        tilt: r(pt?.YRange, GENERIC_CAMERA.tilt),
        zoom: r(z?.XRange, GENERIC_CAMERA.zoom),
      };
    }
    this.space = this.spaceOf(camera);
    const snap = await new Promise<{ uri: string }>((resolve, reject) =>
      cam.getSnapshotUri({ profileToken: this.profileToken }, (err, r) => (err ? reject(err) : resolve(r))),
    );
    if (!snap?.uri) throw new Error('The camera gave no snapshot URI');
    this.snapshots = new SnapshotClient(snap.uri, {
      username: this.config.username,
      password: this.config.password,
      timeoutMs: this.host.snapshotTimeoutMs,
      maxBytes: this.host.maxSnapshotBytes,
    });
    this.cam = cam;
  }

  private call<K extends 'absoluteMove' | 'relativeMove' | 'continuousMove' | 'stop' | 'gotoHomePosition'>(
    method: K,
    options: Record<string, unknown>,
  ): Promise<void> {
    const cam = this.live();
    return new Promise((resolve, reject) =>
      cam[method]({ profileToken: this.profileToken, ...options }, (err) => (err ? reject(err) : resolve())),
    );
  }

  private live(): Cam {
    if (!this.cam) throw new Error(`Camera ${this.config.id} is not connected`);
    return this.cam;
  }

  async aim(to: Ptz): Promise<void> {
    const c = toCamera(this.space, to);
    this.target = c;
    await this.call('absoluteMove', c);
    this.moving = this.waitIdle();
  }

  settled(): Promise<void> {
    return this.moving;
  }

  async relative(by: Ptz): Promise<void> {
    this.target = null;
    await this.call('relativeMove', stepToCamera(this.space, by));
    this.moving = this.waitIdle();
  }

  async continuous(speed: { pan: number; tilt: number }): Promise<void> {
    this.target = null;
    await this.call('continuousMove', { x: speed.pan, y: speed.tilt, zoom: 0 });
  }

  async stop(): Promise<void> {
    await this.call('stop', { panTilt: true, zoom: true });
  }

  async home(): Promise<void> {
    this.target = null;
    await this.call('gotoHomePosition', {});
    this.moving = this.waitIdle();
  }

  private status() {
    const cam = this.live();
    return new Promise<Parameters<Parameters<Cam['getStatus']>[1]>[1]>((resolve, reject) =>
      cam.getStatus({ profileToken: this.profileToken }, (err, s) => (err ? reject(err) : resolve(s))),
    );
  }

  async position(): Promise<Ptz> {
    if (!this.canMove) return { pan: 0, tilt: 0, zoom: 0 };
    const s = await this.status();
    return fromCamera(this.space, {
      x: Number(s.position.x),
      y: Number(s.position.y),
      zoom: Number(s.position.zoom),
    });
  }

  /**
   * Until the camera reports both axes IDLE (or, for a camera that reports no move status, is
   * at the target), or the move timeout: a photo waits for this.
   */
  private async waitIdle(): Promise<void> {
    const until = Date.now() + this.host.moveTimeoutMs;
    await new Promise((r) => setTimeout(r, 50));
    while (Date.now() < until) {
      const s = await this.status().catch(() => null);
      if (s) {
        const ms = s.moveStatus;
        const text = typeof ms === 'string' ? ms : `${ms?.panTilt ?? ''} ${ms?.zoom ?? ''}`;
        if (/MOVING/i.test(text)) {
          // still moving
        } else if (/IDLE/i.test(text)) return;
        else if (this.target) {
          const d = Math.abs(Number(s.position.x) - this.target.x) + Math.abs(Number(s.position.y) - this.target.y);
          if (d < 1e-3) return;
        } else return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async still(): Promise<Still> {
    if (!this.snapshots) throw new Error(`Camera ${this.config.id} is not connected`);
    return { jpeg: await this.snapshots.get() };
  }

  async frame(_scene: Scene): Promise<Buffer> {
    const { jpeg } = await this.still();
    const meta = await sharp(jpeg).metadata();
    if ((meta.width ?? 0) <= FRAME_WIDTH && jpeg.length < 400_000) return jpeg;
    return sharp(jpeg).resize({ width: FRAME_WIDTH, withoutEnlargement: true }).jpeg({ quality: 60 }).toBuffer();
  }

  panAndZoom(at: Ptz): PanAndZoom {
    const c = toCamera(this.space, at);
    const frac = (v: number, r: Range) => (v - r[0]) / (r[1] - r[0]);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return {
      scale: round(1 + 9 * frac(c.zoom, this.space.zoom.camera)),
      posX: round(frac(c.x, this.space.pan.camera)),
      // ONVIF's y grows upwards; the monitor's posY downwards.
      posY: round(1 - frac(c.y, this.space.tilt.camera)),
    };
  }

  async close(): Promise<void> {
    this.cam = null;
    this.snapshots = null;
  }
}
