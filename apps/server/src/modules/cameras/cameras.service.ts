import type { Socket } from 'socket.io';
import type {
  CameraPower,
  CameraReport,
  CameraState,
  CameraStatus,
  DeviceClientEvents,
  DeviceServerEvents,
  HostHello,
  HostInfo,
  MsgKey,
} from '@stadiumcam/contract';
import { CameraReportSchema, HostHelloSchema, MAX_FRAME_BYTES, MSG } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { ERR } from '../../errors.ts';
import { listKnownCameras, upsertHostCameras } from './cameras.repository.ts';
import { listenQueueUsers, queueUsers } from '../events/index.ts';
import { FramePacer, type LiveFrame } from './frame-pacer.ts';

export type DeviceSocket = Socket<DeviceClientEvents, DeviceServerEvents, Record<string, never>, { hostId: string }>;

/** Consoles allowed to see cameras join this room at connect. */
export const CAMERAS_ROOM = 'cameras';
/** Every host joins its own room: commands reach it through any instance (socket.io's adapter). */
export const hostRoom = (hostId: string) => `host:${hostId}`;

/**
 * A camera's host: connected to this instance (`socket`) or to another one (`remote`, mirrored
 * from that instance's messages, DESIGN §13).
 */
type Entry = {
  state: CameraState;
  socket: DeviceSocket | null;
  remote: { instance: string; hostId: string } | null;
  /** The other instance whose message set `state` last (its host may since have left it). */
  heardFrom?: string;
};

/** A command to a camera's host, wherever it is connected. */
export type HostRef = {
  hostId: string;
  /** The host's socket when it is connected to this instance. */
  socket: DeviceSocket | null;
  /** Sends one command; resolves with the host's answer, rejects when none comes in `timeoutMs`. */
  ask: (event: keyof DeviceServerEvents, payload: unknown, timeoutMs: number) => Promise<any>;
};
type Emitter = { emitWithAck: (event: string, payload: unknown) => Promise<unknown> };

const offState = (camera: string): CameraState => ({
  camera,
  status: 'off',
  queue: [],
  firstSrs: null,
  panAndZoom: null,
  fps: 0,
  liveTime: 0,
  position: null,
  host: null,
});

const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/**
 * Live state of every camera and the host serving it. Kept in memory: it is what the hosts
 * last reported, and it all turns 'off' when they go away.
 */
export class CameraHub {
  private readonly cameras = new Map<string, Entry>();
  private readonly warned = new Set<string>();
  private demoOn = false;
  /** Users an operator banned from the cameras (kept in Redis when several instances share them). */
  private readonly bannedUsers = new Set<string>();
  private active: string | null = null;
  /** Frames relayed and dropped, for the benchmark and the logs. */
  readonly counters = { framesIn: 0, framesDropped: 0 };
  private readonly frames: FramePacer;
  /** When each camera's last live frame arrived (ms), here or on another instance: the pre-live checklist's "streaming". */
  private readonly frameTimes = new Map<string, number>();
  /** When each camera's `liveTime` was last reported (states() counts it down from then). */
  private readonly liveSince = new Map<string, number>();

  constructor(private readonly deps: Deps) {
    this.frames = new FramePacer(() => deps.realtime.consoles);
    const cluster = deps.cluster;
    listenQueueUsers(deps);
    cluster.on('camera', (p: { state: CameraState; hostId: string | null }, from) => this.mirror(p, from));
    cluster.on('demo', (demo: boolean) => (this.demoOn = demo === true));
    cluster.on('active', (slugDate: string | null) => (this.active = typeof slugDate === 'string' ? slugDate : null));
    cluster.on('ban', (userId: string) => typeof userId === 'string' && this.bannedUsers.add(userId));
    // Frames from hosts on other instances, for this instance's consoles.
    cluster.onFrame((meta, jpeg) => {
      this.frameTimes.set(meta.camera, Date.now());
      this.frames.push({ ...meta, frame: jpeg });
    });
    // A new instance (or one back after Redis was away) learns the cameras served here.
    cluster.onInstanceSeen(() => {
      for (const [key, e] of this.cameras) if (e.socket) this.share(key, e);
    });
    cluster.onInstanceGone((instance) => this.forgetInstance(instance));
  }

  private get consoles() {
    return this.deps.realtime.consoles.to(CAMERAS_ROOM);
  }

  async load(): Promise<void> {
    for (const c of await listKnownCameras(this.deps.db)) {
      if (!this.cameras.has(c.cameraKey))
        this.cameras.set(c.cameraKey, { state: offState(c.cameraKey), socket: null, remote: null });
    }
    const redis = this.deps.cluster.redis;
    if (!redis) return;
    const [demo, active, banned] = await Promise.all([
      redis.get(this.deps.cluster.key('demo')),
      redis.get(this.deps.cluster.key('active')),
      redis.smembers(this.deps.cluster.key('banned')),
    ]);
    this.demoOn = demo === '1';
    this.active = active || null;
    for (const u of banned) this.bannedUsers.add(u);
  }

  get demo(): boolean {
    return this.demoOn;
  }

  /** The event the cameras are photographing for: the last queue join, MagicShot or photo. */
  setActive(slugDate: string): void {
    if (this.active === slugDate) return;
    this.active = slugDate;
    this.deps.cluster.publish('active', slugDate);
    this.deps.cluster.redis?.set(this.deps.cluster.key('active'), slugDate).catch(() => {});
  }

  isBanned(userId: string): boolean {
    return this.bannedUsers.has(userId);
  }

  ban(userId: string): void {
    this.bannedUsers.add(userId);
    this.deps.cluster.publish('ban', userId);
    this.deps.cluster.redis?.sadd(this.deps.cluster.key('banned'), userId).catch(() => {});
  }

  private readonly stateListeners: ((before: CameraState | undefined, after: CameraState) => void)[] = [];

  /**
   * Told of every change of a camera's state, reported here or mirrored from another instance, so
   * every instance can push queue places to the fans it holds streams of (modules/attendee).
   */
  onStateChange(listener: (before: CameraState | undefined, after: CameraState) => void): void {
    this.stateListeners.push(listener);
  }

  private changed(before: CameraState | undefined, after: CameraState): void {
    // A new figure or a new attendee restarts the count; an fps report repeating it does not.
    if (before?.liveTime !== after.liveTime || before?.queue[0] !== after.queue[0])
      this.liveSince.set(after.camera, Date.now());
    for (const listener of this.stateListeners) listener(before, after);
  }

  /** Tells the other instances what this one's host last said about a camera. */
  private share(camera: string, e: Entry): void {
    this.deps.cluster.publish('camera', { state: e.state, hostId: e.socket?.data.hostId ?? null });
  }

  /** Another instance's camera: kept for reads and commands; its consoles were told by that instance. */
  private mirror(p: { state: CameraState; hostId: string | null }, from: string): void {
    const camera = p?.state?.camera;
    if (typeof camera !== 'string') return;
    const e = this.cameras.get(camera);
    if (e?.socket?.connected) return; // its host moved here: this instance's word counts
    if (p.hostId)
      this.cameras.set(camera, {
        state: p.state,
        socket: null,
        remote: { instance: from, hostId: p.hostId },
        heardFrom: from,
      });
    else if (!e?.remote || e.remote.instance === from)
      this.cameras.set(camera, { state: offState(camera), socket: null, remote: null, heardFrom: from });
    const after = this.cameras.get(camera)?.state;
    if (after && after !== e?.state) this.changed(e?.state, after);
  }

  /** An instance died with its hosts: their cameras are off here until the hosts reconnect somewhere. */
  private forgetInstance(instance: string): void {
    const local = this.deps.realtime.consoles.local.to(CAMERAS_ROOM);
    for (const [key, e] of this.cameras) {
      if (e.heardFrom !== instance) continue;
      e.heardFrom = undefined;
      if (e.remote) {
        if (this.active && e.state.queue.length) queueUsers(this.deps, this.active, key, []);
        const before = e.state;
        e.state = offState(key);
        e.remote = null;
        this.changed(before, e.state);
      }
      // Also when its host had already left it: the instance's own broadcast of that can be lost
      // as it dies (its Redis message to this hub went out, the adapter's to the consoles did not).
      local.emit('monitor power', { camera: key, status: 'off' });
      local.emit('monitor camera', e.state);
    }
  }

  /** When the camera's last live frame arrived (ms since the epoch), or null when none did. */
  lastFrameAt(camera: string): number | null {
    return this.frameTimes.get(camera) ?? null;
  }

  get(camera: string): CameraState | undefined {
    return this.cameras.get(camera)?.state;
  }

  /**
   * Every camera's state as of now: `liveTime` is what is left of the last report's figure (a
   * console or a fan that opens mid-turn counts down from the truth, not from the turn's start).
   */
  states(): CameraState[] {
    const now = Date.now();
    return [...this.cameras.values()]
      .map(({ state }) => {
        const elapsed = (now - (this.liveSince.get(state.camera) ?? now)) / 1000;
        return state.liveTime > 0 ? { ...state, liveTime: Math.max(0, Math.ceil(state.liveTime - elapsed)) } : state;
      })
      .sort((a, b) => a.camera.localeCompare(b.camera));
  }

  status(): CameraStatus {
    const cameras: Record<string, CameraPower> = {};
    for (const s of this.states()) cameras[s.camera] = s.status;
    return { cameras, demo: this.demo };
  }

  private hostRef(e: Entry): HostRef | null {
    const socket = e.socket?.connected ? e.socket : null;
    if (socket) {
      return {
        hostId: socket.data.hostId,
        socket,
        ask: (event, payload, ms) => (socket.timeout(ms) as unknown as Emitter).emitWithAck(event, payload),
      };
    }
    if (!e.remote) return null;
    const { hostId } = e.remote;
    const devices = this.deps.realtime.devices;
    return {
      hostId,
      socket: null,
      // Through the adapter to the instance holding the host; the broadcast answers a list.
      ask: async (event, payload, ms) => {
        const answers = (await (devices.to(hostRoom(hostId)).timeout(ms) as unknown as Emitter).emitWithAck(
          event,
          payload,
        )) as unknown[];
        if (!answers.length) throw new Error('No host answered');
        return answers[0];
      },
    };
  }

  /** The host serving `camera`, or the reason there is none (its text, and its key as `code`). */
  hostOf(camera: string): HostRef | { error: string; code: MsgKey } {
    const entry = this.cameras.get(camera);
    const hostRef = entry && this.hostRef(entry);
    if (hostRef) return hostRef;
    const why = entry ? ERR.cameras.noConnectedHost(camera) : ERR.cameras.unknownCamera(camera);
    return { error: why.text, code: why.code };
  }

  /** Every connected host with the cameras it serves (or only those in `only`). */
  hosts(only?: string[]): Map<string, { host: HostRef; cameras: string[] }> {
    const out = new Map<string, { host: HostRef; cameras: string[] }>();
    for (const [key, e] of this.cameras) {
      if (only && !only.includes(key)) continue;
      const host = this.hostRef(e);
      if (!host) continue;
      const seen = out.get(host.hostId);
      if (seen) seen.cameras.push(key);
      else out.set(host.hostId, { host, cameras: [key] });
    }
    return out;
  }

  /** The camera that is on with the shortest queue (ties: by name); null when none is on. */
  pickCamera(): string | null {
    let best: CameraState | null = null;
    for (const e of this.cameras.values()) {
      const s = e.state;
      if (s.status !== 'on' || !this.hostRef(e)) continue;
      if (!best || s.queue.length < best.queue.length) best = s;
    }
    return best?.camera ?? null;
  }

  hello(socket: DeviceSocket, raw: HostHello): { ok: true; demo: boolean } | { ok: false; error: string } {
    const parsed = HostHelloSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log.warn({ hostId: socket.data.hostId, issues: parsed.error.issues.slice(0, 3) }, 'bad host hello');
      return { ok: false, error: MSG.cameras.malformedHello };
    }
    const h = parsed.data;
    const host: HostInfo = {
      hostId: socket.data.hostId,
      name: h.name,
      version: h.version,
      ip: h.ip || socket.handshake.address,
      ...(h.platform ? { platform: h.platform } : {}),
      connectedAt: new Date().toISOString(),
    };
    const keys = h.cameras.map((c) => c.camera);
    void socket.join(hostRoom(host.hostId));
    for (const c of h.cameras) {
      const entry = this.cameras.get(c.camera) ?? { state: offState(c.camera), socket: null, remote: null };
      entry.socket = socket;
      entry.remote = null;
      entry.heardFrom = undefined;
      entry.state = { ...entry.state, host, status: c.status };
      this.cameras.set(c.camera, entry);
      this.share(c.camera, entry);
    }
    this.consoles.emit('monitor socket connected', { hostId: host.hostId, cameras: keys });
    for (const key of keys) {
      const s = this.cameras.get(key)!.state;
      this.consoles.emit('monitor power', { camera: key, status: s.status });
      this.consoles.emit('monitor camera', s);
    }
    upsertHostCameras(this.deps.db, host.hostId, host, keys).catch((err: unknown) =>
      this.deps.log.error({ err }, 'could not record cameras'),
    );
    this.deps.log.info({ hostId: host.hostId, cameras: keys }, 'camera host connected');
    return { ok: true, demo: this.demo };
  }

  private owned(socket: DeviceSocket, camera: unknown): Entry | null {
    const entry = typeof camera === 'string' ? this.cameras.get(camera) : undefined;
    if (entry && entry.socket === socket) return entry;
    const key = `${socket.data.hostId}:${String(camera).slice(0, 40)}`;
    if (!this.warned.has(key)) {
      this.warned.add(key);
      this.deps.log.warn({ hostId: socket.data.hostId, camera }, 'report for a camera this host did not announce');
    }
    return null;
  }

  report(socket: DeviceSocket, raw: CameraReport): void {
    const parsed = CameraReportSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log.warn({ hostId: socket.data.hostId, issues: parsed.error.issues.slice(0, 3) }, 'bad camera report');
      return;
    }
    const r = parsed.data;
    const entry = this.owned(socket, r.camera);
    if (!entry) return;
    const before = entry.state;
    const next: CameraState = {
      ...before,
      ...(r.status !== undefined ? { status: r.status } : {}),
      ...(r.fps !== undefined ? { fps: r.fps } : {}),
      ...(r.queue !== undefined ? { queue: r.queue } : {}),
      ...(r.firstSrs !== undefined ? { firstSrs: r.firstSrs } : {}),
      ...(r.panAndZoom !== undefined ? { panAndZoom: r.panAndZoom } : {}),
      ...(r.liveTime !== undefined ? { liveTime: r.liveTime } : {}),
      ...(r.position !== undefined ? { position: r.position } : {}),
    };
    if (next.status === 'off') next.fps = 0;
    entry.state = next;
    this.changed(before, next);
    this.share(next.camera, entry);
    const camera = next.camera;
    if (next.status !== before.status) this.consoles.emit('monitor power', { camera, status: next.status });
    if (r.queue !== undefined) {
      this.consoles.emit('monitor queue', { camera, queue: next.queue });
      if (this.active) queueUsers(this.deps, this.active, camera, next.queue);
    }
    if (r.firstSrs !== undefined) this.consoles.emit('monitor firstSrs', { camera, firstSrs: next.firstSrs });
    if (r.panAndZoom !== undefined) this.consoles.emit('monitor panZoom', { camera, panAndZoom: r.panAndZoom });
    this.consoles.emit('monitor camera', next);
  }

  /** Relays one frame to the consoles watching this camera (latest-wins per console). Bad frames are dropped. */
  frame(socket: DeviceSocket, payload: unknown): void {
    const p = payload as { camera?: unknown; jpeg?: unknown } | null;
    const entry = p && typeof p === 'object' ? this.owned(socket, p.camera) : null;
    const jpeg = p?.jpeg;
    if (!entry || !Buffer.isBuffer(jpeg) || jpeg.length > MAX_FRAME_BYTES || !isJpeg(jpeg)) {
      this.counters.framesDropped++;
      if (this.counters.framesDropped % 100 === 1) {
        this.deps.log.warn(
          { hostId: socket.data.hostId, bytes: Buffer.isBuffer(jpeg) ? jpeg.length : typeof jpeg },
          'frame dropped (unknown camera, not a JPEG or above 512 KB)',
        );
      }
      return;
    }
    if (entry.state.status !== 'on') return;
    this.counters.framesIn++;
    const { camera, fps } = entry.state;
    const frame: LiveFrame = { camera, frame: jpeg, fps, ts: Date.now() };
    this.frameTimes.set(camera, frame.ts);
    this.frames.push(frame);
    this.deps.cluster.publishFrame({ camera, fps, ts: frame.ts }, jpeg);
  }

  disconnect(socket: DeviceSocket): void {
    const keys: string[] = [];
    for (const [key, e] of this.cameras) {
      if (e.socket !== socket) continue;
      keys.push(key);
      e.socket = null;
      if (this.active && e.state.queue.length) queueUsers(this.deps, this.active, key, []);
      const wasOn = e.state.status === 'on';
      const before = e.state;
      e.state = offState(key);
      this.changed(before, e.state);
      this.share(key, e);
      if (wasOn) this.consoles.emit('monitor power', { camera: key, status: 'off' });
      this.consoles.emit('monitor camera', e.state);
    }
    if (keys.length) this.consoles.emit('monitor socket disconnected', { hostId: socket.data.hostId, cameras: keys });
    this.deps.log.info({ hostId: socket.data.hostId, cameras: keys }, 'camera host disconnected');
  }

  setDemo(demo: boolean): void {
    this.demoOn = demo;
    this.deps.cluster.publish('demo', demo);
    this.deps.cluster.redis?.set(this.deps.cluster.key('demo'), demo ? '1' : '0').catch(() => {});
    this.consoles.emit('demoModeUpdated', { demo });
    this.deps.realtime.devices.emit('demo', { demo });
  }
}
