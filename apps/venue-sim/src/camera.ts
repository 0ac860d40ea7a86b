import {
  HostCamera,
  formatPosition,
  type CameraDriver,
  type CameraIo,
  type Ptz,
  type Scene,
  type Still,
} from '@stadiumcam/camera-host';
import type { CameraPower } from '@stadiumcam/contract';
import { SimCameraSettings } from './camera-settings.ts';
import { PAN_LIMIT, TILT_LIMIT, panAndZoomOf, renderFrame, viewOfSeat, type View } from './bowl.ts';
import type { PhotoPool } from './photos.ts';

const HOME: View = { pan: 0, tilt: 0, zoom: 0 };
/** How far a continuous move at full speed goes per second (PTU counts). */
const CONTINUOUS_UNITS_PER_S = 200 * 500_000;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/**
 * The simulator's camera driver: a robotic camera looking at the bowl (bowl.ts). Moves are
 * instant, continuous moves run until stop, frames are the view of the panorama, stills come
 * from the photo pool (group pictures with face data).
 */
export class SimDriver implements CameraDriver {
  readonly canMove = true;
  view: View = { ...HOME };
  private velocity = { pan: 0, tilt: 0, at: 0 };
  private cache: { key: string; jpeg: Promise<Buffer> } | null = null;
  /** Pre-rendered frames played in turn instead of rendering (benchmarks: the load is not the bottleneck). */
  replay: Buffer[] | null = null;
  private replayed = 0;

  constructor(
    private readonly name: string,
    private readonly settings: SimCameraSettings,
    private readonly pool: PhotoPool,
  ) {}

  async aim(to: Ptz): Promise<void> {
    this.applyVelocity();
    this.moveTo(to);
  }
  async settled(): Promise<void> {}
  async relative(by: Ptz): Promise<void> {
    this.applyVelocity();
    this.moveTo({ pan: this.view.pan + by.pan, tilt: this.view.tilt + by.tilt, zoom: this.view.zoom + by.zoom });
  }
  async continuous(speed: { pan: number; tilt: number }): Promise<void> {
    this.applyVelocity();
    this.velocity = { pan: speed.pan, tilt: speed.tilt, at: Date.now() };
  }
  async stop(): Promise<void> {
    this.applyVelocity();
    this.velocity = { pan: 0, tilt: 0, at: 0 };
    this.moveTo(this.view);
  }
  home(): Promise<void> {
    return this.aim(HOME);
  }
  async position(): Promise<Ptz> {
    return this.now();
  }
  /** The view now (a continuous move advanced). */
  now(): View {
    this.applyVelocity();
    return { ...this.view };
  }
  still(): Promise<Still> {
    return this.pool.take();
  }
  panAndZoom(at: Ptz) {
    return panAndZoomOf(at);
  }

  private applyVelocity(): void {
    if (!this.velocity.at) return;
    const now = Date.now();
    const dt = (now - this.velocity.at) / 1000;
    this.velocity.at = now;
    this.view = {
      pan: clamp(this.view.pan + this.velocity.pan * CONTINUOUS_UNITS_PER_S * dt, -PAN_LIMIT, PAN_LIMIT),
      tilt: clamp(this.view.tilt + this.velocity.tilt * CONTINUOUS_UNITS_PER_S * dt, -TILT_LIMIT, TILT_LIMIT),
      zoom: this.view.zoom,
    };
  }

  private moveTo(v: View): void {
    this.view = {
      pan: clamp(Math.round(v.pan), -PAN_LIMIT, PAN_LIMIT),
      tilt: clamp(Math.round(v.tilt), -TILT_LIMIT, TILT_LIMIT),
      zoom: clamp(v.zoom, 0, 1),
    };
  }

  /** A JPEG of what the camera sees now; re-rendered only when the picture changes. */
  frame(scene: Scene): Promise<Buffer> {
    if (this.replay?.length) return Promise.resolve(this.replay[this.replayed++ % this.replay.length]);
    this.applyVelocity();
    const { target, label } = scene;
    const { jpegQuality: quality, brightness } = this.settings;
    const key = `${Math.round(this.view.pan / 1e5)},${Math.round(this.view.tilt / 1e5)},${this.view.zoom},${label},${quality},${brightness}`;
    if (this.cache?.key !== key) {
      const jpeg = renderFrame(this.view, { camera: this.name, target, label, quality, brightness });
      this.cache = { key, jpeg };
      jpeg.catch(() => {
        if (this.cache?.jpeg === jpeg) this.cache = null;
      });
    }
    return this.cache.jpeg;
  }
}

/**
 * One simulated robotic camera: the host brain's camera (queue, turns, power, PTZ commands:
 * packages/camera-host) over the simulator's driver. Without a seat map it aims by the bowl's
 * own geometry.
 */
export class SimCamera extends HostCamera<SimDriver> {
  declare readonly settings: SimCameraSettings;

  constructor(name: string, io: CameraIo, turnMs: number, initial: CameraPower, fps: number, pool: PhotoPool) {
    const settings = new SimCameraSettings(fps);
    super(name, new SimDriver(name, settings, pool), io, turnMs, initial, settings, (seat) => viewOfSeat(seat));
  }

  /** Where the camera points now (the driver's view); tests may turn it by hand. */
  get view(): View {
    return this.driver.view;
  }
  set view(v: View) {
    this.driver.view = v;
  }

  /** `pan,tilt,zoom` now (the simulated camera answers at once). */
  position(): string {
    return formatPosition(this.driver.now());
  }

  set replay(frames: Buffer[] | null) {
    this.driver.replay = frames;
  }
  get replay(): Buffer[] | null {
    return this.driver.replay;
  }
}
