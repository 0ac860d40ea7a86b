import { io, type Socket } from 'socket.io-client';
import {
  devicesRoutes,
  type CameraReport,
  type DeviceClientEvents,
  type DeviceServerEvents,
  type HostHello,
  type PhotoMetadata,
} from '@stadiumcam/contract';

export type HostSocket = Socket<DeviceServerEvents, DeviceClientEvents>;
export type HelloAnswer = Parameters<Parameters<DeviceClientEvents['hello']>[1]>[0];

export type HostLinkOptions = {
  serverUrl: string;
  deviceToken: string;
  hostId: string;
  /** What the host says in its `hello`, asked on every connect (the cameras' state then). */
  hello: () => HostHello;
  /** The server's answer to each `hello`; `ready` resolves after the first accepted one. */
  onHello?: (answer: HelloAnswer) => void;
  /** A connection that failed (the socket retries by itself). */
  onConnectError?: (err: Error) => void;
  /** A frame that went out (not one replaced by a newer frame while the link was busy). */
  onFrameSent?: (camera: string) => void;
};

/**
 * The host side of the camera-host protocol (docs/protocol.md), without a camera: the /devices
 * socket with the device token, `hello` on every connect, reports, frames (latest-wins per
 * camera) and photo uploads. The venue simulator's hosts (`SimHost`) and the browser tests'
 * scripted host (`e2e/fixtures/host.ts`) are both built on it; each binds the commands it
 * answers on `socket`.
 */
export class HostLink {
  readonly socket: HostSocket;
  /** Resolves after the first hello the server accepted (it knows the cameras then). */
  readonly ready: Promise<void>;
  private markReady: () => void = () => {};

  constructor(private readonly opts: HostLinkOptions) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.socket = io(`${opts.serverUrl}/devices`, {
      auth: { token: opts.deviceToken, hostId: opts.hostId },
      transports: ['websocket'],
      reconnectionDelayMax: 5000,
    });
    this.socket.on('connect', () => this.hello());
    // A new connection has a new engine: frames waiting for the old one's drain are stale.
    this.socket.on('disconnect', () => this.pendingFrames.clear());
    this.socket.on('connect_error', (err) => {
      opts.onConnectError?.(err);
      // socket.io does not retry a handshake the server refused (its host id still held, a
      // throttle: docs/protocol.md §1); the host keeps trying, as after a network cut.
      if (!this.socket.active && !this.closed) this.retry = setTimeout(() => this.socket.connect(), 2_000);
    });
  }
  private closed = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  private hello(): void {
    this.socket.emit('hello', this.opts.hello(), (answer) => {
      this.opts.onHello?.(answer);
      if (answer.ok) this.markReady();
    });
  }

  /** A partial camera report (only what changed); dropped while disconnected. */
  report(r: CameraReport): void {
    if (this.socket.connected) this.socket.emit('report', r);
  }

  /**
   * Latest-wins per camera, as the server's relay does: a volatile emit drops every frame
   * that comes while the previous write is in flight, and the cameras' frames come back to
   * back, so all but the first camera starved. A frame that finds the link busy waits as
   * its camera's newest frame (replacing an older one) and goes out when the link drains:
   * a slow link sends fewer frames of every camera, never none, and nothing queues up.
   */
  private readonly pendingFrames = new Map<string, Buffer>();
  sendFrame(camera: string, jpeg: Buffer): void {
    const engine = this.socket.io.engine;
    if (!engine || !this.socket.connected) return;
    if (this.pendingFrames.size === 0 && engine.transport.writable) {
      this.socket.emit('frame', { camera, jpeg });
      this.opts.onFrameSent?.(camera);
      return;
    }
    if (this.pendingFrames.size === 0) {
      // The transport turns writable only after its 'drain' handlers ran: flush on the next tick.
      engine.once('drain', () => setImmediate(() => this.flushFrames()));
    }
    this.pendingFrames.set(camera, jpeg);
  }

  private flushFrames(): void {
    const frames = [...this.pendingFrames];
    this.pendingFrames.clear();
    for (const [camera, jpeg] of frames) this.sendFrame(camera, jpeg);
  }

  /** Uploads a photo the host took, as a real host does; answers the stored photo's id. */
  upload(metadata: PhotoMetadata, jpeg: Buffer): Promise<{ _id: string }> {
    return uploadPhoto(this.opts, metadata, jpeg);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.socket.disconnect();
  }
}

/** A busy server's 503 is tried again this many times before the upload fails. */
export const UPLOAD_BUSY_RETRIES = 20;

/**
 * A photo upload as a camera host makes it: multipart with the `metadata` JSON and the `image`
 * JPEG, the device token as bearer. A server past its photo ceiling answers 503 with
 * `Retry-After` (docs/protocol.md §1): the photo is sent again after that wait (and up to a
 * quarter more, so hosts told at once do not all come back at once). Throws the server's error
 * text when it refuses, or when it is still busy after UPLOAD_BUSY_RETRIES tries.
 */
export async function uploadPhoto(
  to: { serverUrl: string; deviceToken: string },
  metadata: PhotoMetadata,
  jpeg: Buffer,
  opts: { onBusy?: (seconds: number) => void } = {},
): Promise<{ _id: string }> {
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  form.append('image', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpg');
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${to.serverUrl}${devicesRoutes.uploadPhoto.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${to.deviceToken}` },
      body: form,
    });
    const body = (await res.json().catch(() => ({}))) as { _id?: string; error?: string };
    const seconds = Number(res.headers.get('retry-after'));
    if (res.status === 503 && seconds > 0 && attempt < UPLOAD_BUSY_RETRIES) {
      opts.onBusy?.(seconds);
      await new Promise((r) => setTimeout(r, seconds * 1000 * (1 + Math.random() / 4)));
      continue;
    }
    if (!res.ok) throw new Error(body.error ?? `Upload answered ${res.status}`);
    return body as { _id: string };
  }
}
