import { CameraHost, type HostLog } from '@stadiumcam/camera-host';
import { SimCamera } from './camera.ts';
import { PhotoPool } from './photos.ts';
import type { Rng } from './rng.ts';

export type SimLog = HostLog;

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

/**
 * A simulated camera host: the shared host brain (`CameraHost`, packages/camera-host: the
 * protocol, queues, turns, frames, uploads) driving simulated cameras that look at the bowl.
 */
export class SimHost extends CameraHost<SimCamera> {
  constructor(opts: HostOptions) {
    const pool = new PhotoPool(opts.rng.fork(7));
    super(
      {
        serverUrl: opts.serverUrl,
        deviceToken: opts.deviceToken,
        hostId: opts.hostId,
        about: {
          name: `Venue simulator ${opts.hostId}`,
          version: '1.0.0',
          ip: '127.0.0.1',
          platform: `${process.platform}-${process.arch}`,
        },
        tickMs: Math.round(1000 / opts.fps),
        powerDelayMs: opts.powerDelayMs,
        log: opts.log,
      },
      (io) => opts.cameras.map((name) => new SimCamera(name, io(name), opts.turnMs, 'on', opts.fps, pool)),
    );
  }
}
