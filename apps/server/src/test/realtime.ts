import { createServer, type AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type {
  ConsoleClientEvents,
  ConsoleServerEvents,
  DeviceClientEvents,
  DeviceServerEvents,
  PhotoMetadata,
} from '@stadiumcam/contract';
import { DEVICE_TOKEN, type TestApp } from './harness.ts';

export type TestConsole = Socket<ConsoleServerEvents, ConsoleClientEvents>;
export type TestHost = Socket<DeviceServerEvents, DeviceClientEvents>;
type Answer = { ok: boolean; error?: string; [k: string]: unknown };

/**
 * A port nobody listens on now, for a server started later (a child process, a camera that
 * comes up late). Picked below Linux's ephemeral range (32768–60999), where no server listening
 * on port 0 and no outgoing connection of another test file is given a port: a port from
 * `listen(0)` could be taken by one in the moments before this test binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const srv = createServer();
    const free = await new Promise<boolean>((r) => {
      srv.once('error', () => r(false));
      srv.listen(port, '127.0.0.1', () => r(true));
    });
    if (free) {
      await new Promise((r) => srv.close(r));
      return port;
    }
  }
}

/** Makes the app listen on a free port (once) and answers its base URL. */
export async function listenUrl(t: TestApp): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** Sockets opened by a suite; closed by closeAll(). */
export class SocketPool {
  private readonly all: Socket[] = [];
  constructor(private readonly url: () => string) {}

  private async connected<S extends Socket>(socket: S): Promise<S> {
    this.all.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  async console(cookie: string, slugDates: string[] = []): Promise<TestConsole> {
    const s: TestConsole = io(`${this.url()}/console`, {
      transports: ['websocket'],
      extraHeaders: { cookie },
      forceNew: true,
    });
    await this.connected(s);
    await new Promise<void>((resolve) => s.emit('select events', slugDates, () => resolve()));
    return s;
  }

  /** A bare camera host; `hello` announces its cameras (all on unless told). */
  async host(
    hostId: string,
    cameras: { camera: string; status?: 'on' | 'off' }[] | null,
    token = DEVICE_TOKEN,
  ): Promise<TestHost> {
    const s: TestHost = io(`${this.url()}/devices`, {
      transports: ['websocket'],
      auth: { token, hostId },
      forceNew: true,
      reconnection: false,
    });
    await this.connected(s);
    if (cameras) {
      const answer = await s.emitWithAck('hello', {
        name: `Test ${hostId}`,
        version: '0.1',
        ip: '10.0.0.9',
        cameras: cameras.map((c) => ({ camera: c.camera, status: c.status ?? 'on' })),
      });
      if (!answer.ok) throw new Error(answer.error);
    }
    return s;
  }

  closeAll(): void {
    for (const s of this.all) s.disconnect();
  }
}

/** Emits with an acknowledgement; resolves with the answer. */
export function ask(socket: TestConsole, event: string, ...args: unknown[]): Promise<Answer> {
  return (socket as unknown as { emitWithAck: (e: string, ...a: unknown[]) => Promise<Answer> }).emitWithAck(
    event,
    ...args,
  );
}

/** Resolves with the next `event` whose payload passes `filter`. */
export function next<T = unknown>(socket: Socket, event: string, filter: (p: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const listener = (payload: T) => {
      if (!filter(payload)) return;
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

/** Uploads a photo as a camera host does (multipart over real HTTP). */
export async function uploadPhoto(
  url: string,
  input: { metadata?: PhotoMetadata | string; image?: Buffer; imageType?: string; token?: string },
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  if (input.metadata !== undefined) {
    form.append('metadata', typeof input.metadata === 'string' ? input.metadata : JSON.stringify(input.metadata));
  }
  if (input.image) form.append('image', new Blob([input.image], { type: input.imageType ?? 'image/jpeg' }), 'p.jpg');
  const res = await fetch(`${url}/api/devices/snapshots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${input.token ?? DEVICE_TOKEN}` },
    body: form,
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}
