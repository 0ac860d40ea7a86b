import type { Socket } from 'socket.io-client';
import type { DeviceClientEvents, DeviceServerEvents } from '@stadiumcam/contract';
import type { SimCamera } from './camera.ts';

/** The host's side of the Camera Configs page: apply new values, acknowledge, report them back. */
export function bindCameraSettings(
  socket: Socket<DeviceServerEvents, DeviceClientEvents>,
  cameras: Map<string, SimCamera>,
): void {
  socket.on('configs', ({ camera, configs }, ack) => {
    const cam = cameras.get(camera);
    if (!cam) return ack({ ok: false, error: `No camera "${camera}" on this host` });
    const error = cam.settings.apply(configs);
    if (error) return ack({ ok: false, error });
    ack({ ok: true });
    socket.emit('camera configs', { camera, configs: cam.settings.configs });
  });
}
