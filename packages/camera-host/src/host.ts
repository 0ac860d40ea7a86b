import { MAGIC_USER_PREFIX, type CameraReport, type HostHello, type PhotoMetadata } from '@stadiumcam/contract';
import { HostCamera, type CameraIo, type Shot } from './camera.ts';
import type { Still } from './driver.ts';
import { HostLink, type HelloAnswer, type HostSocket } from './host-link.ts';

export type HostLog = {
  info: (obj: unknown, msg?: string) => void;
  warn: (obj: unknown, msg?: string) => void;
};

export type CameraHostOptions = {
  serverUrl: string;
  deviceToken: string;
  hostId: string;
  /** The host's name, version and platform for its hello (the cameras are added). */
  about: Omit<HostHello, 'cameras'>;
  /** How often the frame loop looks for due frames (each camera's own fps setting paces it). */
  tickMs: number;
  /** Delay before a power command takes effect (PTU relays are slow). */
  powerDelayMs: number;
  log: HostLog;
};

type AckFn = (a: { ok: false; error: string }) => void;

/**
 * The camera host's brain, the same for every kind of camera: connects to /devices (`HostLink`),
 * answers every server command of docs/protocol.md (power, PTZ, queue join, MagicShot, kick, ban,
 * snooze, live time, shot, restart, configs, demo), runs each camera's queue and turns, streams
 * frames at each camera's fps, uploads photos and sends `check distinct`. The cameras come from
 * `makeCameras`, each a `HostCamera` over a `CameraDriver` (the simulator's bowl, or ONVIF).
 */
export class CameraHost<C extends HostCamera = HostCamera> {
  readonly link: HostLink;
  readonly socket: HostSocket;
  readonly cameras = new Map<string, C>();
  private readonly banned = new Set<string>();
  /** Each fan's last seat in this host's queues: a join from another seat is checked (check distinct). */
  private readonly lastSeat = new Map<string, string>();
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

  constructor(
    private readonly opts: CameraHostOptions,
    makeCameras: (io: (camera: string) => CameraIo) => C[],
  ) {
    for (const cam of makeCameras((name) => this.io(name))) this.cameras.set(cam.name, cam);
    this.link = new HostLink({
      serverUrl: opts.serverUrl,
      deviceToken: opts.deviceToken,
      hostId: opts.hostId,
      hello: () => ({
        ...opts.about,
        cameras: [...this.cameras.values()].map((c) => ({ camera: c.name, status: c.status })),
      }),
      onHello: (answer) => this.helloAnswered(answer),
      onConnectError: (err) => opts.log.warn({ host: opts.hostId, error: err.message }, 'camera host cannot connect'),
      onFrameSent: (camera) => this.cameras.get(camera)!.framesSent++,
    });
    this.socket = this.link.socket;
    this.ready = this.link.ready;
    this.bind();
    this.frameTimer = setInterval(() => this.sendFrames(), opts.tickMs);
    this.fpsTimer = setInterval(() => this.reportFps(), 1000);
  }

  private io(name: string): CameraIo {
    return {
      report: (r) => this.report(r),
      taking: (userId) => this.socket.emit('taking snapshot', { camera: name, userId }),
      photograph: (shot, still) => this.photograph(name, shot, still),
      log: (msg, extra) => this.opts.log.warn({ host: this.opts.hostId, camera: name, ...extra }, msg),
    };
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  report(r: CameraReport): void {
    // A camera's state may change while the host is built (before its link exists).
    (this.link as HostLink | undefined)?.report(r);
  }

  /** Sends a camera's settings to the server (after hello and after each change). */
  reportConfigs(cam: C): void {
    if (this.socket.connected) this.socket.emit('camera configs', { camera: cam.name, configs: cam.settings.configs });
  }

  private helloAnswered(answer: HelloAnswer): void {
    if (!answer.ok) {
      this.opts.log.warn({ host: this.opts.hostId, error: answer.error }, 'camera host hello refused');
      return;
    }
    this.demo = answer.demo;
    for (const c of this.cameras.values()) {
      this.report(c.fullReport());
      this.reportConfigs(c);
    }
  }

  private camera(name: unknown, ack: AckFn): C | null {
    const cam = typeof name === 'string' ? this.cameras.get(name) : undefined;
    if (!cam) ack({ ok: false, error: `No camera "${String(name)}" on this host` });
    return cam ?? null;
  }

  /** Why a camera that is off cannot take a fan or a shot. */
  private offError(cam: C): string {
    return cam.problem ? `Camera ${cam.name} is off: ${cam.problem}` : `Camera ${cam.name} is off`;
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
      cam.ptz(command).then(
        (answer) => ack({ ok: true, answer }),
        (err: Error) => ack({ ok: false, error: err.message }),
      );
    });
    s.on('queue join', ({ camera, slugDate, userId, seat, aim }, ack) => {
      const cam = this.camera(camera, ack);
      if (!cam) return;
      if (this.banned.has(userId)) return ack({ ok: false, error: 'You may not use the cameras at this event' });
      if (cam.status !== 'on') return ack({ ok: false, error: this.offError(cam) });
      try {
        ack({ ok: true, position: cam.join({ userId, slugDate, seat, heldUntil: 0, aim }) });
      } catch (err) {
        return ack({ ok: false, error: (err as Error).message });
      }
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
      if (cam.status !== 'on') return ack({ ok: false, error: this.offError(cam) });
      if (!userId.startsWith(MAGIC_USER_PREFIX))
        return ack({ ok: false, error: 'MagicShot user ids start with MAGIC' });
      this.socket.emit('taking snapshot', { camera, userId });
      const shot = { userId, slugDate, seat: cam.current?.seat ?? null, magicshot: true };
      this.photograph(camera, shot, cam.driver.still()).then(
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
    s.on('configs', ({ camera, configs }, ack) => {
      const cam = this.cameras.get(camera);
      if (!cam) return ack({ ok: false, error: `No camera "${camera}" on this host` });
      const error = cam.settings.apply(configs);
      if (error) return ack({ ok: false, error });
      ack({ ok: true });
      this.reportConfigs(cam);
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
          this.frameSent(cam);
          if (cam.status === 'on') this.link.sendFrame(cam.name, jpeg);
        })
        .catch((err: Error) => this.frameFailed(cam, err))
        .finally(() => this.inFlight.delete(cam.name));
    }
  }

  /** A camera's frame could not be had (a driver may count these to notice a camera in trouble). */
  protected frameFailed(cam: C, err: Error): void {
    this.opts.log.warn({ camera: cam.name, error: err.message }, 'frame failed');
  }
  /** A camera's frame came (what `frameFailed` counted can reset). */
  protected frameSent(_cam: C): void {}

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

  private photograph(camera: string, shot: Shot, still: Promise<Still>): Promise<void> {
    if (this.stopped) {
      still.catch(() => undefined);
      return Promise.reject(new Error('The host is stopping'));
    }
    const p = this.upload(camera, shot, still);
    const tracked = p.catch(() => {}).finally(() => this.inFlightUploads.delete(tracked));
    this.inFlightUploads.add(tracked);
    return p;
  }

  /** Uploads the still as docs/protocol.md says (multipart, the device token). */
  private async upload(camera: string, shot: Shot, still: Promise<Still>): Promise<void> {
    const photo = await still;
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
      ...(photo.faces ? { faces: photo.faces } : {}),
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
    for (const c of this.cameras.values()) await c.driver.close?.().catch(() => undefined);
  }
}
