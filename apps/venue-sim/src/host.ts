import { MAGIC_USER_PREFIX, type CameraReport, type PhotoMetadata, type Seat } from '@stadiumcam/contract';
import { SimCamera } from './camera.ts';
import { HostLink, type HelloAnswer, type HostSocket } from './host-link.ts';
import { bindCameraSettings } from './host-settings.ts';
import { PhotoPool } from './photos.ts';
import type { Rng } from './rng.ts';

export type SimLog = {
  info: (obj: unknown, msg?: string) => void;
  warn: (obj: unknown, msg?: string) => void;
};

export type HostOptions = {
  serverUrl: string;
  deviceToken: string;
  hostId: string;
  cameras: string[];
  fps: number;
  turnMs: number;
  /** Delay before a power command takes effect (PTU relays are slow). */
  powerDelayMs: number;
  rng: Rng;
  log: SimLog;
};

type AckFn = (a: { ok: false; error: string }) => void;

/**
 * A simulated camera host: connects to /devices, streams frames, runs queues, uploads photos.
 * The protocol's plumbing (connection, hello, reports, frames, uploads) is its `HostLink`.
 */
export class SimHost {
  private readonly link: HostLink;
  readonly socket: HostSocket;
  readonly cameras = new Map<string, SimCamera>();
  private readonly banned = new Set<string>();
  /** Each fan's last seat in this host's queues: a join from another seat is checked (check distinct). */
  private readonly lastSeat = new Map<string, string>();
  private readonly pool: PhotoPool;
  private frameTimer: NodeJS.Timeout | null = null;
  private fpsTimer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  demo = false;
  uploads = 0;
  private stopped = false;
  /** Resolves after the first hello was answered (the server knows the cameras). */
  readonly ready: Promise<void>;
  /** Uploads under way; stop() waits for them so the server can close its connections. */
  private readonly inFlightUploads = new Set<Promise<void>>();

  constructor(private readonly opts: HostOptions) {
    this.pool = new PhotoPool(opts.rng.fork(7));
    for (const name of opts.cameras) {
      this.cameras.set(
        name,
        new SimCamera(
          name,
          {
            report: (r) => this.report(r),
            taking: (userId) => this.socket.emit('taking snapshot', { camera: name, userId }),
            photograph: (shot) => this.photograph(name, shot),
            log: (msg, extra) => opts.log.warn({ host: opts.hostId, ...extra }, msg),
          },
          opts.turnMs,
          'on',
          opts.fps,
        ),
      );
    }
    this.link = new HostLink({
      serverUrl: opts.serverUrl,
      deviceToken: opts.deviceToken,
      hostId: opts.hostId,
      hello: () => ({
        name: `Venue simulator ${opts.hostId}`,
        version: '1.0.0',
        ip: '127.0.0.1',
        platform: `${process.platform}-${process.arch}`,
        cameras: [...this.cameras.values()].map((c) => ({ camera: c.name, status: c.status })),
      }),
      onHello: (answer) => this.helloAnswered(answer),
      onConnectError: (err) => opts.log.warn({ host: opts.hostId, error: err.message }, 'venue host cannot connect'),
      onFrameSent: (camera) => this.cameras.get(camera)!.framesSent++,
    });
    this.socket = this.link.socket;
    this.ready = this.link.ready;
    this.bind();
    bindCameraSettings(this.socket, this.cameras);
    this.frameTimer = setInterval(() => this.sendFrames(), Math.round(1000 / opts.fps));
    this.fpsTimer = setInterval(() => this.reportFps(), 1000);
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private report(r: CameraReport): void {
    this.link.report(r);
  }

  private helloAnswered(answer: HelloAnswer): void {
    if (!answer.ok) {
      this.opts.log.warn({ host: this.opts.hostId, error: answer.error }, 'venue host hello refused');
      return;
    }
    this.demo = answer.demo;
    for (const c of this.cameras.values()) {
      this.report(c.fullReport());
      this.socket.emit('camera configs', { camera: c.name, configs: c.settings.configs });
    }
  }

  private camera(name: unknown, ack: AckFn): SimCamera | null {
    const cam = typeof name === 'string' ? this.cameras.get(name) : undefined;
    if (!cam) ack({ ok: false, error: `No camera "${String(name)}" on this host` });
    return cam ?? null;
  }

  private bind(): void {
    const s = this.socket;
    s.on('power', ({ camera, on }, ack) => {
      const targets = camera === undefined ? [...this.cameras.values()] : [this.camera(camera, ack)];
      if (targets.includes(null)) return;
      ack({ ok: true });
      this.later(this.opts.powerDelayMs, () => targets.forEach((c) => c!.setPower(on)));
    });
    s.on('ptz', ({ camera, command }, ack) => {
      const cam = this.camera(camera, ack);
      if (!cam) return;
      try {
        ack({ ok: true, answer: cam.ptz(command) });
      } catch (err) {
        ack({ ok: false, error: (err as Error).message });
      }
    });
    s.on('queue join', ({ camera, slugDate, userId, seat, aim }, ack) => {
      const cam = this.camera(camera, ack);
      if (!cam) return;
      if (this.banned.has(userId)) return ack({ ok: false, error: 'You may not use the cameras at this event' });
      if (cam.status !== 'on') return ack({ ok: false, error: `Camera ${camera} is off` });
      ack({ ok: true, position: cam.join({ userId, slugDate, seat, heldUntil: 0, aim }) });
      // The same fan from another seat: ask the server to run the suspicious-user check.
      const seatKey = `${seat.seatType}/${seat.section}/${seat.row}/${seat.seat}`;
      const before = this.lastSeat.get(userId);
      if (this.lastSeat.size > 50_000) this.lastSeat.clear();
      this.lastSeat.set(userId, seatKey);
      if (before !== undefined && before !== seatKey)
        this.socket.emit('check distinct', { camera, slugDate, userId, seat });
    });
    s.on('magicshot', ({ camera, slugDate, userId }, ack) => {
      const cam = this.camera(camera, ack);
      if (!cam) return;
      if (cam.status !== 'on') return ack({ ok: false, error: `Camera ${camera} is off` });
      if (!userId.startsWith(MAGIC_USER_PREFIX))
        return ack({ ok: false, error: 'MagicShot user ids start with MAGIC' });
      this.socket.emit('taking snapshot', { camera, userId });
      this.photograph(camera, { userId, slugDate, seat: cam.current?.seat ?? null, magicshot: true }).then(
        () => ack({ ok: true }),
        (err: Error) => {
          this.socket.emit('magicshot error', { camera, message: err.message });
          ack({ ok: false, error: err.message });
        },
      );
    });
    s.on('kick', ({ userId }, ack) => {
      for (const c of this.cameras.values()) c.remove(userId);
      ack({ ok: true });
    });
    s.on('ban', ({ userId }, ack) => {
      this.banned.add(userId);
      for (const c of this.cameras.values()) c.remove(userId);
      ack({ ok: true });
    });
    s.on('snooze', ({ userId, minutes }, ack) => {
      for (const c of this.cameras.values()) c.snooze(userId, minutes);
      ack({ ok: true });
    });
    s.on('live time', ({ camera }, ack) => {
      const cam = this.camera(camera, ack);
      if (cam) ack({ ok: true, liveTime: cam.liveTime() });
    });
    s.on('shot', ({ camera }, ack) => {
      const cam = this.camera(camera, ack);
      if (!cam) return;
      cam.frame().then(
        (image) => ack({ ok: true, image }),
        (err: Error) => ack({ ok: false, error: err.message }),
      );
    });
    s.on('restart', ({ camera }, ack) => {
      const cam = this.camera(camera, ack);
      if (!cam) return;
      ack({ ok: true });
      cam.settings.restart();
      if (cam.status === 'on') {
        cam.setPower(false);
        this.later(1500, () => cam.setPower(true));
      }
    });
    s.on('demo', ({ demo }) => {
      this.demo = demo;
    });
  }

  private sendFrames(): void {
    if (!this.socket.connected) return;
    for (const cam of this.cameras.values()) {
      if (cam.status !== 'on' || !cam.frameDue()) continue;
      cam.framesDue++;
      if (this.inFlight.has(cam.name)) continue;
      this.inFlight.add(cam.name);
      cam
        .frame()
        .then((jpeg) => {
          if (cam.status === 'on') this.link.sendFrame(cam.name, jpeg);
        })
        .catch((err: Error) => this.opts.log.warn({ camera: cam.name, error: err.message }, 'frame render failed'))
        .finally(() => this.inFlight.delete(cam.name));
    }
  }

  private readonly lastFps = new Map<string, number>();
  private reportFps(): void {
    for (const cam of this.cameras.values()) {
      const fps = cam.status === 'on' ? cam.framesSent : 0;
      cam.framesSent = 0;
      if (this.lastFps.get(cam.name) !== fps) {
        this.lastFps.set(cam.name, fps);
        this.report({ camera: cam.name, fps, liveTime: cam.liveTime() });
      }
    }
  }

  private photograph(
    camera: string,
    shot: { userId: string; slugDate: string; seat: Seat | null; magicshot: boolean },
  ): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('The host is stopping'));
    const p = this.upload(camera, shot);
    const tracked = p.catch(() => {}).finally(() => this.inFlightUploads.delete(tracked));
    this.inFlightUploads.add(tracked);
    return p;
  }

  /** Takes the picture (from the pool) and uploads it as a real host does. */
  private async upload(
    camera: string,
    shot: { userId: string; slugDate: string; seat: Seat | null; magicshot: boolean },
  ): Promise<void> {
    const photo = await this.pool.take();
    const metadata: PhotoMetadata = {
      slugDate: shot.slugDate,
      userId: shot.userId,
      camera,
      seatType: shot.seat?.seatType ?? 'section',
      section: shot.seat?.section ?? '',
      row: shot.seat?.row ?? '',
      seat: shot.seat?.seat ?? '',
      magicshot: shot.magicshot,
      date: new Date().toISOString(),
      faces: photo.faces,
    };
    await this.link.upload(metadata, photo.jpeg);
    this.uploads++;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.frameTimer) clearInterval(this.frameTimer);
    if (this.fpsTimer) clearInterval(this.fpsTimer);
    for (const t of this.timers) clearTimeout(t);
    for (const c of this.cameras.values()) c.stop();
    this.link.close();
    await Promise.all(this.inFlightUploads);
  }
}
