import type { Deps } from '../../deps.ts';
import { checkSuspicious } from '../notifications/notifications.service.ts';
import { CAMERAS_ROOM, type DeviceSocket } from '../cameras/cameras.service.ts';
import { hostReportedConfigs } from '../cameras/camera-configs.service.ts';

/**
 * Camera hosts on /devices (the token was checked at connect by plugins/socket.ts).
 * docs/protocol.md §1 lists every event.
 */
export function registerDeviceSocket(deps: Deps): void {
  const hub = deps.cameras;
  deps.realtime.devices.on('connection', (socket: DeviceSocket) => {
    socket.on('hello', (payload, ack) => {
      const answer = hub.hello(socket, payload);
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
    socket.on('camera configs', (payload) => {
      hostReportedConfigs(deps, socket, payload).catch((err: unknown) =>
        deps.log.error({ err }, 'could not store camera configs'),
      );
    });
    socket.on('disconnect', () => hub.disconnect(socket));
  });
}
