import { MSG } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { checkSuspicious } from '../notifications/index.ts';
import { CAMERAS_ROOM, type CameraHub, type DeviceSocket } from '../cameras/index.ts';
import { hostReportedConfigs } from '../cameras/index.ts';
import type { DeviceGate } from './device-gate.ts';
import type { HostBinding } from './host-binding.ts';

/**
 * The /devices handshake: the device token (throttled per address), then the host id bound to
 * this one connection (docs/protocol.md §1, docs/security.md §15). A refusal is the handshake's
 * `connect_error` with the catalogue's text.
 */
function registerDeviceHandshake(deps: Deps, gate: DeviceGate, binding: HostBinding): void {
  deps.realtime.devices.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; hostId?: unknown } | undefined;
    const hostId = typeof auth?.hostId === 'string' && auth.hostId ? auth.hostId.slice(0, 100) : socket.id;
    gate
      .check(auth?.token, socket.handshake.address)
      .then(async (refused) => refused?.message ?? (await binding.bind(socket, hostId)))
      .then(
        (refusal) => {
          if (refusal) return next(new Error(refusal));
          socket.data.hostId = hostId;
          next();
        },
        (err: unknown) => {
          deps.log.error({ err, hostId }, 'device handshake failed');
          next(new Error(MSG.common.internalError));
        },
      );
  });
}

/** A camera that another connected host serves: only its host announces it (docs/protocol.md §1). */
function cameraServedElsewhere(hub: CameraHub, socket: DeviceSocket, hello: unknown): string | null {
  const cameras = (hello as { cameras?: unknown } | null)?.cameras;
  if (!Array.isArray(cameras)) return null;
  for (const c of cameras as { camera?: unknown }[]) {
    if (typeof c?.camera !== 'string') continue;
    const host = hub.hostOf(c.camera);
    if ('hostId' in host && host.hostId !== socket.data.hostId) {
      return MSG.devices.cameraServedByHost(c.camera, host.hostId);
    }
  }
  return null;
}

/** Camera hosts on /devices. docs/protocol.md §1 lists every event. */
export function registerDeviceSocket(deps: Deps, gate: DeviceGate, binding: HostBinding): void {
  const hub = deps.cameras;
  registerDeviceHandshake(deps, gate, binding);
  deps.realtime.devices.on('connection', (socket: DeviceSocket) => {
    socket.on('hello', (payload, ack) => {
      const taken = cameraServedElsewhere(hub, socket, payload);
      if (taken) deps.log.warn({ hostId: socket.data.hostId, refused: taken }, 'host hello refused');
      const answer = taken ? { ok: false as const, error: taken } : hub.hello(socket, payload);
      if (typeof ack === 'function') ack(answer);
    });
    socket.on('report', (payload) => hub.report(socket, payload));
    socket.on('frame', (payload) => hub.frame(socket, payload));
    socket.on('taking snapshot', (payload) => {
      const camera = typeof payload?.camera === 'string' ? hub.get(payload.camera) : undefined;
      if (!camera || typeof payload.userId !== 'string') return;
      deps.realtime.consoles.to(CAMERAS_ROOM).emit('takeSnapshot', {
        camera: camera.camera,
        userId: payload.userId.slice(0, 200),
        firstSrs: camera.firstSrs,
      });
    });
    socket.on('magicshot error', (payload) => {
      if (typeof payload?.camera !== 'string' || typeof payload.message !== 'string') return;
      deps.realtime.consoles
        .to(CAMERAS_ROOM)
        .emit('magicshot error', { camera: payload.camera.slice(0, 40), message: payload.message.slice(0, 500) });
    });
    socket.on('check distinct', (payload) => {
      const text = (v: unknown, max: number) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : null);
      const camera = hub.get(text(payload?.camera, 40) ?? '');
      const slugDate = text(payload?.slugDate, 200);
      const userId = text(payload?.userId, 200);
      const seat = payload?.seat;
      const section = text(seat?.section, 40);
      const row = text(seat?.row, 40);
      const place = text(seat?.seat, 40);
      const seatType = text(seat?.seatType, 40);
      if (!camera || !slugDate || !userId || !section || !row || !place || !seatType) return;
      checkSuspicious(deps, slugDate, userId).then(
        ({ distinctSRS, suspicious }) =>
          deps.realtime.toEvent(slugDate, 'check distinct', {
            slugDate,
            camera: camera.camera,
            userId,
            seat: { seatType, section, row, seat: place },
            distinctSRS,
            suspicious,
          }),
        (err: unknown) => deps.log.warn({ err, slugDate }, 'check distinct failed'),
      );
    });
    // Camera Configs (spec 3 §2.6): what the host's cameras are set to, stored by the cameras area.
    // Stored one after another: two reports in flight could land out of order, and an earlier one
    // (say 'Connecting', sent at hello) would overwrite the camera's newer state.
    let configWrites = Promise.resolve();
    socket.on('camera configs', (payload) => {
      configWrites = configWrites
        .then(() => hostReportedConfigs(deps, socket, payload))
        .catch((err: unknown) => deps.log.error({ err }, 'could not store camera configs'));
    });
    socket.on('disconnect', () => {
      binding.release(socket, socket.data.hostId);
      hub.disconnect(socket);
    });
  });
}
