import os from 'node:os';
import {
  CameraHost,
  CameraSettings,
  HostCamera,
  fpsConfig,
  roverModeConfig,
  type HostLog,
} from '@stadiumcam/camera-host';
import type { HostConfig } from './config.ts';
import { OnvifDriver, describeError } from './onvif-driver.ts';

/** The camera's state line on the Camera Configs page (read-only: the host sets it). */
export const STATE_KEY = 'host.onvif.state';
/** Failed snapshots in a row before the camera counts as in trouble (and is reconnected). */
const FAILURES_BEFORE_TROUBLE = 3;

/** One ONVIF camera: the brain's camera over an `OnvifDriver`, with its connection state. */
export class OnvifCamera extends HostCamera<OnvifDriver> {
  failures = 0;
  retryMs = 0;
  retryTimer: NodeJS.Timeout | null = null;
  connecting = false;
}

/**
 * The ONVIF camera host (docs/cameras-onvif.md): the shared host brain driving the cameras its
 * config lists. Each camera connects on its own; one that cannot (unreachable, wrong credentials,
 * no profile) is off with its reason and retried with back-off (1 s doubling to 30 s by default)
 * until it answers; one whose snapshots keep failing mid-event goes the same way. None of it
 * stops the host or the other cameras.
 */
export class OnvifHost extends CameraHost<OnvifCamera> {
  private closed = false;

  constructor(
    readonly config: HostConfig,
    private readonly hostLog: HostLog,
  ) {
    super(
      {
        serverUrl: config.server,
        deviceToken: config.deviceToken,
        hostId: config.hostId,
        about: {
          name: `ONVIF host ${config.hostId}`,
          version: '1.0.0',
          ip: firstAddress(),
          platform: `${process.platform}-${process.arch}`,
        },
        tickMs: 25,
        powerDelayMs: 0,
        log: hostLog,
      },
      (io) =>
        config.cameras.map((c) => {
          const settings = new CameraSettings([
            fpsConfig(config.fps),
            roverModeConfig(),
            { configKey: STATE_KEY, configValue: 'Connecting', widgetType: 'TEXT', min: 1, max: 200 },
          ]);
          const camera = new OnvifCamera(c.id, new OnvifDriver(c, config), io(c.id), config.turnMs, 'on', settings);
          // Off for the console until the camera answered.
          camera.setProblem('Connecting');
          return camera;
        }),
    );
    for (const cam of this.cameras.values()) void this.connect(cam);
  }

  private setState(cam: OnvifCamera, state: string): void {
    cam.settings.set(STATE_KEY, state.slice(0, 200));
    this.reportConfigs(cam);
  }

  /** Connects one camera; on failure marks it with the reason and tries again after the back-off. */
  private async connect(cam: OnvifCamera): Promise<void> {
    if (this.closed || cam.connecting) return;
    cam.connecting = true;
    try {
      await cam.driver.connect();
      if (this.closed) return;
      cam.failures = 0;
      cam.retryMs = 0;
      const state = cam.driver.canMove ? 'Connected' : 'Connected (no PTZ: streams only, takes no queue)';
      this.setState(cam, state);
      this.hostLog.info({ camera: cam.name, ptz: cam.driver.canMove }, 'ONVIF camera connected');
      await cam.readPosition(true).catch(() => undefined);
      cam.setProblem(null);
      // Once more a second later, when the hello's own report ('Connecting') has long been stored:
      // the server stores reports as they come, and two in flight could land out of order.
      setTimeout(() => this.reportConfigs(cam), 1000).unref();
    } catch (err) {
      this.trouble(cam, describeError(err as Error));
    } finally {
      cam.connecting = false;
    }
  }

  /** Marks a camera in trouble (off, with the reason) and schedules a reconnect with back-off. */
  private trouble(cam: OnvifCamera, reason: string): void {
    if (this.closed) return;
    const [first, longest] = this.config.retryMs;
    cam.retryMs = Math.min(longest, cam.retryMs ? cam.retryMs * 2 : first);
    const state = `${reason} (retrying in ${Math.round(cam.retryMs / 100) / 10} s)`;
    this.hostLog.warn({ camera: cam.name, reason, retryMs: cam.retryMs }, 'ONVIF camera in trouble');
    cam.setProblem(reason);
    this.setState(cam, state);
    if (cam.retryTimer) clearTimeout(cam.retryTimer);
    cam.retryTimer = setTimeout(() => {
      cam.retryTimer = null;
      void this.connect(cam);
    }, cam.retryMs);
  }

  /** Frames: a run of failed snapshots puts the camera in trouble; one that works resets the count. */
  protected override frameFailed(cam: OnvifCamera, err: Error): void {
    cam.failures++;
    if (cam.failures >= FAILURES_BEFORE_TROUBLE && !cam.problem) this.trouble(cam, describeError(err));
  }
  protected override frameSent(cam: OnvifCamera): void {
    cam.failures = 0;
  }

  override async stop(): Promise<void> {
    this.closed = true;
    for (const cam of this.cameras.values()) if (cam.retryTimer) clearTimeout(cam.retryTimer);
    await super.stop();
  }
}

function firstAddress(): string {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}
