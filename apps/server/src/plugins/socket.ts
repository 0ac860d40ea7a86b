import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Server, type Namespace, type ServerOptions, type Socket } from 'socket.io';
import {
  MSG,
  hasForbiddenChars,
  type ConsoleClientEvents,
  type ConsoleServerEvents,
  type DeviceClientEvents,
  type DeviceServerEvents,
} from '@stadiumcam/contract';
import type { AppConfig } from '../config.ts';
import { handshakeOriginAllowed } from './origin.ts';
import { SESSION_COOKIE, type AuthUser } from './session.ts';

export type ConsoleNamespace = Namespace<
  ConsoleClientEvents,
  ConsoleServerEvents,
  Record<string, never>,
  { user: AuthUser }
>;
export type DeviceNamespace = Namespace<
  DeviceClientEvents,
  DeviceServerEvents,
  Record<string, never>,
  { hostId: string }
>;

/** /slideshow: public venue screens; they only listen (no commands are handled there). */
export type SlideshowNamespace = Namespace<Record<string, never>, Pick<ConsoleServerEvents, SlideshowEvent>>;
type SlideshowEvent = 'monitor favoritedSnapshots';
const SLIDESHOW_EVENTS = new Set<string>(['monitor favoritedSnapshots'] satisfies SlideshowEvent[]);

export type Realtime = {
  io: Server;
  consoles: ConsoleNamespace;
  slideshow: SlideshowNamespace;
  devices: DeviceNamespace;
  /** Send to every console that selected this event. */
  toEvent: <E extends keyof ConsoleServerEvents>(
    slugDate: string,
    event: E,
    ...args: Parameters<ConsoleServerEvents[E]>
  ) => void;
};

export const eventRoom = (slugDate: string) => `event:${slugDate}`;

/**
 * The input rule of every route (docs/security.md §10) for socket events: a packet whose
 * payload holds a NUL or a bidi override is answered `{ ok: false, error }` (when it has an
 * acknowledgement) and never reaches a handler, so nothing is changed or stored.
 */
function refuseForbiddenPackets(app: FastifyInstance, socket: Socket, namespace: string): void {
  socket.use((packet, next) => {
    if (!hasForbiddenChars(packet)) return next();
    app.log.warn(
      { namespace, event: String(packet[0]).slice(0, 100) },
      'socket event with forbidden characters refused',
    );
    const ack = packet.at(-1) as unknown;
    if (typeof ack === 'function') ack({ ok: false, error: MSG.security.forbiddenChars });
  });
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** socket.io on the same HTTP server: /console (cookie session) and /devices (device token). */
export function createRealtime(
  app: FastifyInstance,
  opts: {
    loadUser: (sid: string | undefined) => Promise<AuthUser | null>;
    config: AppConfig;
    /** socket.io's Redis adapter when several instances share the consoles and hosts (cluster.ts). */
    adapter?: ServerOptions['adapter'];
  },
): Realtime {
  const { loadUser, config } = opts;
  const io = new Server(app.server, {
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
    serveClient: false,
    maxHttpBufferSize: 2e6,
    transports: ['websocket', 'polling'],
    // The HTTP origin rule, applied to the handshake (issue 16 §3).
    allowRequest: (req, callback) => {
      const ok = handshakeOriginAllowed(config, req);
      if (!ok) app.log.warn({ origin: req.headers.origin }, 'socket handshake from another origin refused');
      callback(ok ? null : 'Cross-origin connection refused', ok);
    },
  });
  io.engine.on('connection', batchWrites);
  const consoles: ConsoleNamespace = io.of('/console');
  const devices: DeviceNamespace = io.of('/devices');
  const slideshow: SlideshowNamespace = io.of('/slideshow');

  consoles.use((socket, next) => {
    const sid = readCookie(socket.handshake.headers.cookie, SESSION_COOKIE);
    loadUser(sid)
      .then((user) => {
        if (!user) return next(new Error('Not logged in'));
        socket.data.user = user;
        next();
      })
      .catch(() => next(new Error('Session check failed')));
  });

  consoles.on('connection', (socket) => {
    refuseForbiddenPackets(app, socket, '/console');
    socket.on('select events', (slugDates, ack) => {
      if (!Array.isArray(slugDates) || slugDates.length > 500 || slugDates.some((s) => typeof s !== 'string')) {
        ack?.({ ok: false, error: MSG.common.badSlugDates });
        return;
      }
      for (const room of socket.rooms) if (room.startsWith('event:')) void socket.leave(room);
      for (const s of slugDates) void socket.join(eventRoom(s));
      ack?.({ ok: true });
    });
  });

  // The /devices handshake (device token, its throttle, one connection per host id) is the
  // devices module's (modules/devices/devices.socket.ts): it needs the database and the cluster.
  // Camera hosts hold the device token, but what they send is stored too (camera configs...).
  devices.on('connection', (socket) => refuseForbiddenPackets(app, socket, '/devices'));

  // Before the HTTP server waits for its connections: an open websocket would hold it forever.
  // Every client (hosts, consoles, screens) is dropped and reconnects, to another instance on a
  // drain (docs/operations.md).
  app.addHook('preClose', async () => {
    io.engine.close();
    // The Redis adapter unsubscribes on close: now, while Redis is there (cluster.ts quits it in
    // an onClose hook that runs before this file's), not from io.close() below, whose commands
    // on a closed connection were unhandled rejections.
    for (const nsp of io._nsps.values()) {
      await nsp.adapter.close();
      nsp.adapter.close = () => undefined;
    }
  });
  app.addHook('onClose', async () => {
    await io.close();
  });

  return {
    io,
    consoles,
    devices,
    slideshow,
    toEvent: (slugDate, event, ...args) => {
      consoles.to(eventRoom(slugDate)).emit(event, ...args);
      // Venue screens reload on every favourite change; they fetch the current event themselves.
      if (SLIDESHOW_EVENTS.has(event)) slideshow.emit(event as SlideshowEvent, ...(args as [never]));
    },
  };
}

type EngineTransport = { name: string; send: (packets: unknown[]) => void; socket?: { _socket?: Duplex } };

/**
 * A client's packets are written together at most every FLUSH_TICK_MS, instead of one write per
 * WebSocket message. engine.io writes a packet as soon as it is emitted; a console gets about 100
 * events a second (camera reports, queues, snapshots) besides 40 frames, each frame two messages
 * (socket.io's header and the JPEG), and at 50 consoles the socket writes were the largest cost
 * of the event loop (docs/bench-realtime.md). So the client's flush waits for the tick
 * (everything emitted meanwhile goes in the one write), and a flush's packets go out corked.
 * Waiting for the end of the turn only was the first step; the tick took the server's CPU from
 * 1.10 to 1.03 cores and its lag p99 from 24.5 to 20.1 ms (max 168 → 67 ms) in three interleaved
 * pairs, for at most 15 ms more on an event. `ws` keeps its TCP socket in `_socket`; without it
 * (long polling) only the wait applies.
 */
const FLUSH_TICK_MS = 15;
function batchWrites(conn: {
  transport: EngineTransport;
  on: (e: 'upgrade', f: (t: EngineTransport) => void) => void;
  flush: () => void;
}) {
  const flush = conn.flush.bind(conn);
  let queued = false;
  conn.flush = () => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      flush();
    }, FLUSH_TICK_MS);
  };
  const wrap = (transport: EngineTransport) => {
    const tcp = transport.name === 'websocket' ? transport.socket?._socket : undefined;
    if (!tcp) return;
    const send = transport.send.bind(transport);
    transport.send = (packets) => {
      tcp.cork();
      try {
        send(packets);
      } finally {
        tcp.uncork();
      }
    };
  };
  wrap(conn.transport);
  conn.on('upgrade', wrap);
}
