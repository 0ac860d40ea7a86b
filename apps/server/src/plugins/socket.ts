import type { FastifyInstance } from 'fastify';
import { Server, type Namespace } from 'socket.io';
import type {
  ConsoleClientEvents,
  ConsoleServerEvents,
  DeviceClientEvents,
  DeviceServerEvents,
} from '@stadiumcam/contract';
import type { Db } from '../db/client.ts';
import { loadSessionUser, SESSION_COOKIE, type AuthUser } from './session.ts';
import { tokenMatches } from './routes.ts';

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

export type Realtime = {
  io: Server;
  consoles: ConsoleNamespace;
  devices: DeviceNamespace;
  /** Send to every console that selected this event. */
  toEvent: <E extends keyof ConsoleServerEvents>(
    slugDate: string,
    event: E,
    ...args: Parameters<ConsoleServerEvents[E]>
  ) => void;
};

export const eventRoom = (slugDate: string) => `event:${slugDate}`;

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** socket.io on the same HTTP server: /console (cookie session) and /devices (device token). */
export function createRealtime(app: FastifyInstance, db: Db, deviceToken: string): Realtime {
  const io = new Server(app.server, {
    serveClient: false,
    maxHttpBufferSize: 2e6,
    transports: ['websocket', 'polling'],
  });
  const consoles: ConsoleNamespace = io.of('/console');
  const devices: DeviceNamespace = io.of('/devices');

  consoles.use((socket, next) => {
    const sid = readCookie(socket.handshake.headers.cookie, SESSION_COOKIE);
    loadSessionUser(db, sid)
      .then((user) => {
        if (!user) return next(new Error('Not logged in'));
        socket.data.user = user;
        next();
      })
      .catch(() => next(new Error('Session check failed')));
  });

  consoles.on('connection', (socket) => {
    socket.on('select events', (slugDates, ack) => {
      if (!Array.isArray(slugDates) || slugDates.length > 500 || slugDates.some((s) => typeof s !== 'string')) {
        ack?.({ ok: false, error: 'slugDates must be a list of slug dates' });
        return;
      }
      for (const room of socket.rooms) if (room.startsWith('event:')) void socket.leave(room);
      for (const s of slugDates) void socket.join(eventRoom(s));
      ack?.({ ok: true });
    });
  });

  devices.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; hostId?: unknown } | undefined;
    if (typeof auth?.token !== 'string' || !tokenMatches(auth.token, deviceToken)) {
      return next(new Error('Invalid device token'));
    }
    socket.data.hostId = typeof auth.hostId === 'string' ? auth.hostId.slice(0, 100) : socket.id;
    next();
  });

  app.addHook('onClose', async () => {
    await io.close();
  });

  return {
    io,
    consoles,
    devices,
    toEvent: (slugDate, event, ...args) => {
      consoles.to(eventRoom(slugDate)).emit(event, ...args);
    },
  };
}
