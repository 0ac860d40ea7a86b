import {
  parsePtzCommand,
  type Aim,
  type CameraPower,
  type CameraReport,
  type FirstSrs,
  type Seat,
} from '@stadiumcam/contract';
import { formatPosition, type CameraDriver, type Ptz, type Still } from './driver.ts';
import type { CameraSettings } from './settings.ts';

/** `aim`: where the server's seat map says to point for this seat. */
export type QueueEntry = { userId: string; slugDate: string; seat: Seat; heldUntil: number; aim?: Aim };

export type Shot = { userId: string; slugDate: string; seat: Seat | null; magicshot: boolean };

export type CameraIo = {
  report: (r: CameraReport) => void;
  taking: (userId: string) => void;
  /** Uploads the photo (the driver's still, being taken); resolves when the server answered. */
  photograph: (shot: Shot, still: Promise<Still>) => Promise<void>;
  log: (msg: string, extra?: Record<string, unknown>) => void;
};

/** Where a fan's seat is when the server sent no aim (no seat map yet); a driver may know its venue. */
export type Fallback = (seat: Seat) => Ptz | null;

/**
 * One camera as the host brain runs it: power, its attendee queue and its turn timer, the PTZ
 * commands, over a `CameraDriver`. Each attendee gets `turnMs` of live time (the camera aims at
 * their seat), then the camera waits for the move to be done, photographs them and moves on.
 */
export class HostCamera<D extends CameraDriver = CameraDriver> {
  /** What the console sees: on only while powered on and the camera answers. */
  status: CameraPower;
  /** The power the operator asked for; a camera with a `problem` stays off until it recovers. */
  private wanted: CameraPower;
  /** Why the camera cannot work now (unreachable, wrong credentials...); null when it is fine. */
  problem: string | null = null;
  queue: QueueEntry[] = [];
  current: QueueEntry | null = null;
  /** The last position the camera reported (or was sent to). */
  at: Ptz = { pan: 0, tilt: 0, zoom: 0 };
  private turnEndsAt = 0;
  private turnTimer: NodeJS.Timeout | null = null;
  /** Frames emitted since the last fps report. */
  framesSent = 0;
  /** Frame ticks while on (what a console should get at best); a running total for tests. */
  framesDue = 0;
  private lastFrameAt = 0;
  /** The last photo's upload, answered (stored, refused or failed) or not yet. */
  private lastUpload: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly driver: D,
    private readonly io: CameraIo,
    private readonly turnMs: number,
    initial: CameraPower,
    readonly settings: CameraSettings,
    private readonly fallback: Fallback = () => null,
  ) {
    this.status = initial;
    this.wanted = initial;
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
      ...(this.driver.panAndZoom ? { panAndZoom: this.driver.panAndZoom(this.at) } : {}),
      liveTime: this.liveTime(),
      position: formatPosition(this.at),
    };
  }

  setPower(on: boolean): void {
    this.wanted = on ? 'on' : 'off';
    this.driver.power?.(on).catch((err: Error) => this.io.log('power command failed', { error: err.message }));
    this.applyStatus();
  }

  /**
   * The camera's trouble (a reason) or its recovery (null): while in trouble it is off for the
   * console and takes nobody; when it recovers it comes back to the power the operator wanted.
   */
  setProblem(problem: string | null): void {
    if (problem === this.problem) return;
    this.problem = problem;
    this.applyStatus();
  }

  private applyStatus(): void {
    const status: CameraPower = this.problem ? 'off' : this.wanted;
    if (status === this.status) {
      this.io.report({ camera: this.name, status });
      return;
    }
    this.status = status;
    if (status === 'off') this.stopTurn();
    this.io.report({ camera: this.name, status, fps: status === 'on' ? undefined : 0 });
    if (status === 'on') this.next();
  }

  private noPtz(): Error {
    return new Error(`Camera ${this.name} has no pan/tilt/zoom`);
  }

  /** Executes a PTZ command string; answers `pan,tilt,zoom` or throws the error text. */
  async ptz(command: string): Promise<string> {
    const cmd = parsePtzCommand(command);
    if ('error' in cmd) throw new Error(cmd.error);
    if (cmd.kind !== 'position' && !this.driver.canMove) throw this.noPtz();
    switch (cmd.kind) {
      case 'absolute':
        if (cmd.pan === 0 && cmd.tilt === 0 && cmd.zoom === 0) await this.driver.home();
        else await this.driver.aim({ pan: cmd.pan, tilt: cmd.tilt, zoom: cmd.zoom });
        break;
      case 'relative':
        await this.driver.relative({ pan: cmd.pan, tilt: cmd.tilt, zoom: cmd.zoom });
        break;
      case 'continuous':
        await this.driver.continuous({ pan: cmd.pan, tilt: cmd.tilt });
        break;
      case 'stop':
        await this.driver.stop();
        break;
      case 'position':
        break;
    }
    await this.readPosition(cmd.kind !== 'position');
    return formatPosition(this.at);
  }

  /** Asks the camera where it is; `report` sends the new position to the console. */
  async readPosition(report = false): Promise<Ptz> {
    this.at = await this.driver.position();
    if (report) this.reportPosition();
    return this.at;
  }

  private reportPosition(): void {
    const pz = this.driver.panAndZoom?.(this.at);
    this.io.report({ camera: this.name, ...(pz ? { panAndZoom: pz } : {}), position: formatPosition(this.at) });
  }

  /** A live frame of what the camera sees now. */
  frame(): Promise<Buffer> {
    const target = this.current?.seat ?? null;
    const label = target ? `Sec ${target.section} Row ${target.row} Seat ${target.seat}` : 'LIVE';
    return this.driver.frame({ target, label });
  }

  /** Queues a fan; answers their place (1 = now). Throws when this camera cannot take a queue. */
  join(entry: QueueEntry): number {
    if (!this.driver.canMove) throw new Error(`Camera ${this.name} has no pan/tilt/zoom and takes no queue`);
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
    // The server's aim (the seat map's region interpolation); without a seat map, the driver's own idea.
    const view = entry.aim ?? this.fallback(entry.seat);
    if (view && this.settings.roverMode === 'auto') this.aimAt({ pan: view.pan, tilt: view.tilt, zoom: view.zoom });
    this.reportQueue();
    this.turnTimer = setTimeout(() => this.finishTurn(entry), this.turnMs);
  }

  private aimAt(to: Ptz): void {
    this.at = to;
    this.driver
      .aim(to)
      // Where the camera says it is (a driver clamps an aim beyond its range).
      .then(() => this.readPosition(true))
      .catch((err: Error) => this.io.log('aim failed', { camera: this.name, error: err.message }));
  }

  /**
   * Photographs the attendee once the camera reports its move done (or the driver's timeout),
   * and moves on as soon as the still is taken; the upload runs meanwhile (as on a real host).
   * At most one upload per camera is in flight: a shot waits for the previous photo's answer.
   * A server past its ceiling answers "send it again in n s" (docs/protocol.md §1); meanwhile
   * this camera holds its queue (its fans keep their places) instead of piling up more photos
   * that would each be refused and sent again.
   */
  private finishTurn(entry: QueueEntry): void {
    if (this.current !== entry) return;
    this.current = null;
    this.turnTimer = null;
    const shot = { userId: entry.userId, slugDate: entry.slugDate, seat: entry.seat, magicshot: false };
    const still = this.lastUpload
      .then(() => this.driver.settled())
      .catch(() => undefined)
      .then(() => {
        this.io.taking(entry.userId);
        return this.driver.still();
      });
    void still.catch(() => undefined).finally(() => this.next());
    this.lastUpload = this.io
      .photograph(shot, still)
      .catch((err: Error) => this.io.log('photo upload failed', { camera: this.name, error: err.message }));
  }

  stop(): void {
    this.stopTurn();
    this.queue = [];
  }
}
