import {
  parsePtzCommand,
  type Aim,
  type CameraPower,
  type CameraReport,
  type FirstSrs,
  type Seat,
} from '@stadiumcam/contract';
import { CameraSettings } from './camera-settings.ts';
import { PAN_LIMIT, TILT_LIMIT, panAndZoomOf, renderFrame, viewOfSeat, type View } from './bowl.ts';

/** `aim`: where the server's seat map says to point for this seat. */
export type QueueEntry = { userId: string; slugDate: string; seat: Seat; heldUntil: number; aim?: Aim };

export type CameraIo = {
  report: (r: CameraReport) => void;
  taking: (userId: string) => void;
  /** Photographs the current view and uploads it; resolves when the server answered. */
  photograph: (shot: { userId: string; slugDate: string; seat: Seat | null; magicshot: boolean }) => Promise<void>;
  log: (msg: string, extra?: Record<string, unknown>) => void;
};

const HOME: View = { pan: 0, tilt: 0, zoom: 0 };
/** How far a continuous move at full speed goes per second (PTU counts). */
const CONTINUOUS_UNITS_PER_S = 200 * 500_000;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/**
 * One simulated robotic camera: power, PTZ, its attendee queue and its turn timer. Each
 * attendee gets `turnMs` of live time, then the camera photographs them and moves on.
 */
export class SimCamera {
  status: CameraPower;
  view: View = { ...HOME };
  queue: QueueEntry[] = [];
  current: QueueEntry | null = null;
  private turnEndsAt = 0;
  private turnTimer: NodeJS.Timeout | null = null;
  private velocity = { pan: 0, tilt: 0, at: 0 };
  private cache: { key: string; jpeg: Promise<Buffer> } | null = null;
  /** Pre-rendered frames played in turn instead of rendering (benchmarks: the load is not the bottleneck). */
  replay: Buffer[] | null = null;
  private replayed = 0;
  /** Frames emitted since the last fps report. */
  framesSent = 0;
  /** Frame ticks while on (what a console should get at best); a running total for tests. */
  framesDue = 0;
  readonly settings: CameraSettings;
  private lastFrameAt = 0;

  constructor(
    readonly name: string,
    private readonly io: CameraIo,
    private readonly turnMs: number,
    initial: CameraPower,
    fps = 3,
  ) {
    this.status = initial;
    this.settings = new CameraSettings(fps);
  }

  /** True when this camera's own frame rate (its fps setting) allows the next frame now. */
  frameDue(now = Date.now()): boolean {
    if (now - this.lastFrameAt < 1000 / this.settings.fps - 20) return false;
    this.lastFrameAt = now;
    return true;
  }

  get firstSrs(): FirstSrs | null {
    const c = this.current;
    return c ? { id: c.userId, section: c.seat.section, row: c.seat.row, seat: c.seat.seat } : null;
  }

  position(): string {
    this.applyVelocity();
    return `${Math.round(this.view.pan)},${Math.round(this.view.tilt)},${Math.round(this.view.zoom * 1000) / 1000}`;
  }

  liveTime(): number {
    return this.current ? Math.max(0, Math.ceil((this.turnEndsAt - Date.now()) / 1000)) : 0;
  }

  /** Full state, sent after hello and whenever a lot changed. */
  fullReport(): CameraReport {
    return {
      camera: this.name,
      status: this.status,
      queue: this.queue.map((q) => q.userId),
      firstSrs: this.firstSrs,
      panAndZoom: panAndZoomOf(this.view),
      liveTime: this.liveTime(),
      position: this.position(),
    };
  }

  setPower(on: boolean): void {
    const status: CameraPower = on ? 'on' : 'off';
    if (status === this.status) {
      this.io.report({ camera: this.name, status });
      return;
    }
    this.status = status;
    if (!on) this.stopTurn();
    this.io.report({ camera: this.name, status, fps: on ? undefined : 0 });
    if (on) this.next();
  }

  /** Executes a PTZ command string; answers `pan,tilt,zoom` or throws the error text. */
  ptz(command: string): string {
    const cmd = parsePtzCommand(command);
    if ('error' in cmd) throw new Error(cmd.error);
    this.applyVelocity();
    switch (cmd.kind) {
      case 'absolute':
        this.moveTo({ pan: cmd.pan, tilt: cmd.tilt, zoom: cmd.zoom });
        break;
      case 'relative':
        this.moveTo({ pan: this.view.pan + cmd.pan, tilt: this.view.tilt + cmd.tilt, zoom: this.view.zoom + cmd.zoom });
        break;
      case 'continuous':
        this.velocity = { pan: cmd.pan, tilt: cmd.tilt, at: Date.now() };
        break;
      case 'stop':
        this.velocity = { pan: 0, tilt: 0, at: 0 };
        this.moveTo(this.view);
        break;
      case 'position':
        break;
    }
    return this.position();
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
    this.io.report({ camera: this.name, panAndZoom: panAndZoomOf(this.view), position: this.position() });
  }

  /** A JPEG of what the camera sees now; re-rendered only when the picture changes. */
  frame(): Promise<Buffer> {
    if (this.replay?.length) return Promise.resolve(this.replay[this.replayed++ % this.replay.length]);
    this.applyVelocity();
    const target = this.current?.seat ?? null;
    const label = target ? `Sec ${target.section} Row ${target.row} Seat ${target.seat}` : 'LIVE';
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

  join(entry: QueueEntry): number {
    const existing = this.queue.findIndex((q) => q.userId === entry.userId);
    if (existing >= 0) this.queue[existing] = entry;
    else this.queue.push(entry);
    this.reportQueue();
    if (!this.current) this.next();
    return this.current?.userId === entry.userId ? 1 : this.queue.findIndex((q) => q.userId === entry.userId) + 2;
  }

  /** Drops a user (kick or ban); true when they were here. */
  remove(userId: string): boolean {
    const before = this.queue.length;
    this.queue = this.queue.filter((q) => q.userId !== userId);
    const wasCurrent = this.current?.userId === userId;
    if (wasCurrent) {
      this.stopTurn();
      this.next();
    } else if (this.queue.length !== before) {
      this.reportQueue();
    }
    return wasCurrent || this.queue.length !== before;
  }

  snooze(userId: string, minutes: number): boolean {
    const until = Date.now() + minutes * 60_000;
    let entry = this.queue.find((q) => q.userId === userId);
    if (this.current?.userId === userId) {
      entry = this.current;
      this.stopTurn();
    }
    if (!entry) return false;
    this.queue = [...this.queue.filter((q) => q !== entry), { ...entry, heldUntil: until }];
    this.next();
    return true;
  }

  private reportQueue(): void {
    const queue = [...(this.current ? [this.current.userId] : []), ...this.queue.map((q) => q.userId)];
    this.io.report({ camera: this.name, queue, firstSrs: this.firstSrs, liveTime: this.liveTime() });
  }

  private stopTurn(): void {
    if (this.turnTimer) clearTimeout(this.turnTimer);
    this.turnTimer = null;
    this.current = null;
  }

  /** Starts the next attendee's turn when the camera is on and idle. */
  private next(): void {
    if (this.status !== 'on' || this.current) {
      this.reportQueue();
      return;
    }
    const now = Date.now();
    const i = this.queue.findIndex((q) => q.heldUntil <= now);
    if (i < 0) {
      this.reportQueue();
      if (this.queue.length) this.turnTimer = setTimeout(() => this.next(), 1000);
      return;
    }
    const [entry] = this.queue.splice(i, 1);
    this.current = entry;
    this.turnEndsAt = now + this.turnMs;
    // The server's aim (the seat map's region interpolation); without a seat map, the bowl's own geometry.
    const view = entry.aim ?? viewOfSeat(entry.seat);
    if (view && this.settings.roverMode === 'auto') this.moveTo(view);
    this.reportQueue();
    this.turnTimer = setTimeout(() => this.finishTurn(entry), this.turnMs);
  }

  /** Photographs the attendee and moves on at once; the upload runs meanwhile (as on a real host). */
  private finishTurn(entry: QueueEntry): void {
    if (this.current !== entry) return;
    this.io.taking(entry.userId);
    this.io
      .photograph({ userId: entry.userId, slugDate: entry.slugDate, seat: entry.seat, magicshot: false })
      .catch((err: Error) => this.io.log('photo upload failed', { camera: this.name, error: err.message }));
    this.current = null;
    this.turnTimer = null;
    this.next();
  }

  stop(): void {
    this.stopTurn();
    this.queue = [];
  }
}
