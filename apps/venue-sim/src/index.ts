import { Crowd } from './attendees.ts';
import { SimHost, type SimLog } from './host.ts';
import { createRng } from './rng.ts';
import { PAN_LIMIT, renderFrame } from './bowl.ts';
import { uploadVenueMap, type Technician } from './technician.ts';

export { SimHost } from './host.ts';
export { HostLink, uploadPhoto, type HostLinkOptions, type HostSocket } from './host-link.ts';
export { SimCamera } from './camera.ts';
export { Crowd } from './attendees.ts';
export { uploadVenueMap, type Technician } from './technician.ts';
export * from './bowl.ts';

export type VenueOptions = {
  serverUrl: string;
  /** Where each camera host connects and uploads, host i to `hostUrls[i % n]` (default serverUrl): several instances. */
  hostUrls?: string[];
  deviceToken: string;
  /** Same seed, same venue: attendee ids, seats, choices and photos repeat. */
  seed?: number;
  /** Camera hosts (default 1). */
  hosts?: number;
  /** Cameras per host (default 4): cam1, cam2... numbered across hosts. */
  camerasPerHost?: number;
  /** Frames per second per camera that is on (2 to 5; default 3). */
  fps?: number;
  /** Attendees arriving per second (default 0.3; 0 = none). */
  attendeeRate?: number;
  /** Live time of one attendee before the photo (default 6000 ms). */
  turnMs?: number;
  /** Share of attendees that act suspiciously (default 0.03). */
  suspiciousShare?: number;
  /**
   * 'replay': each camera plays a few frames rendered at start instead of rendering each one,
   * so a benchmark's load process is not the bottleneck (default 'render').
   */
  frames?: 'render' | 'replay';
  /** Delay before a power command takes effect (default 400 ms). */
  powerDelayMs?: number;
  log?: SimLog;
  /**
   * A console user with Config: on a first start (no map files on the server) the simulator
   * uploads its bowl's map files and row dictionary with it, as a technician would.
   */
  technician?: Technician;
};

export type Venue = { hosts: SimHost[]; crowd: Crowd; stop: () => Promise<void> };

const REPLAY_FRAMES = 8;
const quiet: SimLog = { info: () => {}, warn: () => {} };

/** Starts the simulated venue (camera hosts and attendees) against a running server. */
export async function startVenue(opts: VenueOptions): Promise<Venue> {
  const seed = opts.seed ?? Date.now();
  const rng = createRng(seed);
  const log = opts.log ?? quiet;
  const hostCount = Math.max(1, opts.hosts ?? 1);
  const perHost = Math.max(1, opts.camerasPerHost ?? 4);
  const fps = Math.min(5, Math.max(2, opts.fps ?? 3));
  const turnMs = opts.turnMs ?? 6000;
  const hosts = Array.from(
    { length: hostCount },
    (_, h) =>
      new SimHost({
        serverUrl: opts.hostUrls?.length ? opts.hostUrls[h % opts.hostUrls.length] : opts.serverUrl,
        deviceToken: opts.deviceToken,
        hostId: `sim-host-${h + 1}`,
        cameras: Array.from({ length: perHost }, (_, c) => `cam${h * perHost + c + 1}`),
        fps,
        turnMs,
        powerDelayMs: opts.powerDelayMs ?? 400,
        rng: rng.fork(100 + h),
        log,
      }),
  );
  if (opts.frames === 'replay') {
    for (const host of hosts) {
      for (const cam of host.cameras.values()) {
        cam.replay = await Promise.all(
          Array.from({ length: REPLAY_FRAMES }, (_, i) =>
            renderFrame(
              { pan: Math.round(((i - REPLAY_FRAMES / 2) * PAN_LIMIT) / 10), tilt: 0, zoom: 0.3 },
              { camera: cam.name, target: null, label: `REPLAY ${i + 1}` },
            ),
          ),
        );
      }
    }
  }
  const crowd = new Crowd({
    serverUrl: opts.serverUrl,
    rate: opts.attendeeRate ?? 0.3,
    suspiciousShare: opts.suspiciousShare ?? 0.03,
    turnMs,
    rng: rng.fork(1),
    log,
  });
  if (opts.technician) {
    // The server must know the cameras before it takes their map files.
    const ready = Promise.all(hosts.map((h) => h.ready));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('camera hosts did not connect within 15 s')), 15_000);
    });
    await Promise.race([ready, late]).finally(() => clearTimeout(timer));
    await uploadVenueMap({
      serverUrl: opts.serverUrl,
      technician: opts.technician,
      cameras: hostCount * perHost,
      log,
    }).catch((err: Error) => log.warn({ error: err.message }, 'venue simulator map upload failed'));
  }
  crowd.start();
  log.info({ seed, hosts: hostCount, cameras: hostCount * perHost, fps }, 'venue simulator started');
  return {
    hosts,
    crowd,
    stop: async () => {
      await Promise.all([crowd.stop(), ...hosts.map((h) => h.stop())]);
    },
  };
}
export * from './venue-map.ts';
