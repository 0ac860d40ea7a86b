/**
 * Socket.io events, one typed map per namespace (DESIGN §4). Names the spec quotes are used
 * as written. Each area adds its events here.
 */
import type { LiveMetrics, Snapshot } from './snapshots.contract.ts';
import type { Event } from './events.contract.ts';
import type { CameraPower, CameraState, FirstSrs, PanAndZoom } from './cameras.contract.ts';
import type { Notification } from './notifications.contract.ts';
import type { CameraReport, HostHello, Seat } from './devices.contract.ts';
import type { Aim } from './mapping.contract.ts';
import type { CameraConfig } from './camera-configs.contract.ts';

/** A JPEG: a Buffer on the server and in the simulator, an ArrayBuffer in the browser. */
export type Binary = ArrayBuffer | Uint8Array;

export type Ack<T = Record<string, unknown>> = (answer: ({ ok: true } & T) | { ok: false; error: string }) => void;

/** Server -> console (namespace /console). */
export type ConsoleServerEvents = {
  /**
   * An event was created, changed or deleted; sent to every console (the selector and calendar
   * lists refresh too). `event` is the event after the change; `deleted` when it is gone.
   */
  'monitor event updated': (payload: { slugDate: string; event?: Event; deleted?: boolean }) => void;
  /** A photo arrived through the ingest path. */
  'monitor newSnapshot': (snapshot: Snapshot) => void;
  /** An attendee shared (postObj grew) or chose an overlay (sharedURI changed). */
  'monitor snapshotShared': (snapshot: Snapshot) => void;
  snapshotDeleted: (payload: { slugDate: string; ids: string[] }) => void;
  'monitor favoritedSnapshots': (payload: { slugDate: string; ids: string[]; favorite: boolean }) => void;
  /** Photos hidden or shown again: by ids, or every photo of a user. */
  bannedChanged: (payload: { slugDate: string; ids?: string[]; userId?: string; hidden: boolean }) => void;
  /** Live metrics of an event changed (throttled to at most one per second per event). */
  'monitor metrics': (payload: LiveMetrics & { slugDate: string }) => void;

  /* Cameras (docs/protocol.md). Sent to every console holding Monitor:read, main_header_camStatus
     or main_header_powerBtn (room `cameras`), whatever events it selected: cameras serve the venue. */
  /** A camera host connected: its cameras are known (status follows in 'monitor power'). */
  'monitor socket connected': (payload: { hostId: string; cameras: string[] }) => void;
  /** A host went away: its cameras are off now. */
  'monitor socket disconnected': (payload: { hostId: string; cameras: string[] }) => void;
  /** One camera's power changed. */
  'monitor power': (payload: { camera: string; status: CameraPower }) => void;
  /** Whole state of one camera after any change except frames (fps, live time, position...). */
  'monitor camera': (state: CameraState) => void;
  'monitor firstSrs': (payload: { camera: string; firstSrs: FirstSrs | null }) => void;
  'monitor queue': (payload: { camera: string; queue: string[] }) => void;
  'monitor panZoom': (payload: { camera: string; panAndZoom: PanAndZoom }) => void;
  demoModeUpdated: (payload: { demo: boolean }) => void;
  /** A host is photographing `userId` now (focus animation). */
  takeSnapshot: (payload: { camera: string; userId: string; firstSrs: FirstSrs | null }) => void;
  'magicshot error': (payload: { camera: string; message: string }) => void;
  /**
   * A host saw a fan in its queue again from another seat; the server ran the suspicious-user
   * rule for them (docs/protocol.md): `distinctSRS` seats in their photos, `suspicious` when the
   * rule holds (their notification card is then raised or refreshed).
   */
  'check distinct': (payload: CheckDistinct) => void;
  /** A position answer `pan,tilt,zoom`, or `error` (sent to the console that asked). */
  position: (payload: { camera: string; data: string } | { camera: string; error: string }) => void;
  /** One JPEG frame; volatile, only to consoles that joined this camera's stream. */
  livestream: (payload: { camera: string; frame: Binary; fps: number; ts: number }) => void;
  /** The still a 'take shot' asked for (mapping tool). */
  'shot image': (payload: { camera: string; image: Binary }) => void;

  /** The seat map was reloaded ('Update Config'): seat lists, tables and the coverage view refresh. */
  'seat map updated': (payload: { loadedAt: string }) => void;
  /** A host reported (new) settings for a camera (Camera Configs page). */
  'camera configs': (payload: { camera: string }) => void;

  /* Notifications: to the event's room. */
  notificationAdded: (notification: Notification) => void;
  notificationDismissed: (payload: { _id: string; slugDate: string }) => void;
};

/** Which stream room a console joins: a monitor (by slugDate) or the mapping tool ('map'). */
export type StreamTarget = { room: string; camera: string };

/** Console -> server (namespace /console). */
export type ConsoleClientEvents = {
  /** Put this socket in the rooms of the events the operator selected. */
  'select events': (slugDates: string[], ack?: Ack) => void;

  /* Camera commands (docs/protocol.md). Every one answers by ack; refused without the permission. */
  /** main_header_powerBtn. Acks once relayed; the status arrives as 'monitor power'. */
  'power all cameras': (payload: { on: boolean }, ack: Ack<{ cameras: string[] }>) => void;
  'power camera': (payload: { camera: string; on: boolean }, ack: Ack<{ cameras: string[] }>) => void;
  /** Monitor:read. */
  'get demo mode': (ack: Ack<{ demo: boolean }>) => void;
  /** main_header_powerBtn. */
  'set demo mode': (payload: { demo: boolean }, ack: Ack<{ demo: boolean }>) => void;
  /** Config or Monitor:read. `command`: see parsePtzCommand. Answer = the host's answer. */
  'rover move': (payload: { target: 'host'; camera: string; command: string }, ack: Ack<{ answer: string }>) => void;
  /** Asks '#'; the answer comes by ack and as a 'position' event. */
  'rover get position': (payload: { target: 'host'; camera: string }, ack: Ack<{ position: string }>) => void;
  getInitTotalQueue: (ack: Ack<{ queues: Record<string, string[]> }>) => void;
  getLiveTime: (payload: { camera: string }, ack: Ack<{ liveTime: number }>) => void;
  'join monitor livestream': (payload: StreamTarget, ack: Ack) => void;
  'leave livestream': (payload: StreamTarget, ack: Ack) => void;
  /** Magicshots:write. One camera, or every camera that is on when `camera` is absent. */
  'take MagicShot': (
    payload: { slug?: string; camera?: string },
    /** `shots`: the user id of each camera's MagicShot, so the console knows which photo ends its busy state. */
    ack: Ack<{ cameras: string[]; shots: { camera: string; userId: string }[] }>,
  ) => void;
  /** Kick: removes the user from the queue for now (may join again). */
  'boot user': (payload: { userId: string }, ack: Ack) => void;
  /** The user may not use the cameras again (this server run). */
  'ban user': (payload: { userId: string }, ack: Ack) => void;
  /** Hold the user back in the queue for `minutes` (default 2). */
  'snooze user': (payload: { userId: string; minutes?: number }, ack: Ack) => void;
  /** Config. A still from the camera for the mapping tool; answered as 'shot image' too. */
  'take shot': (payload: { camera: string }, ack: Ack) => void;
  /** Config. */
  'restart acs': (payload: { camera: string }, ack: Ack) => void;

  /* The seat map (docs/mapping.md), by seat type: session with Config, Template or Monitor:read. */
  getSections: (payload: { type: string }, ack: Ack<{ sections: string[] }>) => void;
  getRows: (payload: { type: string; section: string }, ack: Ack<{ rows: string[] }>) => void;
  getSeats: (payload: { type: string; section: string; row: string }, ack: Ack<{ seats: string[] }>) => void;
};

/** Host answers: a result string/object or an error text. */
export type DeviceAck<T = Record<string, unknown>> = Ack<T>;

/** The console's `check distinct`: a fan seen again from another seat, and what the rule found. */
export type CheckDistinct = {
  slugDate: string;
  camera: string;
  userId: string;
  seat: Seat;
  distinctSRS: number;
  suspicious: boolean;
};

/** Server -> camera host (namespace /devices). */
export type DeviceServerEvents = {
  /** Power one camera, or all of this host's cameras when `camera` is absent. */
  power: (payload: { camera?: string; on: boolean }, ack: DeviceAck) => void;
  /** A PTZ command string (formatPtzCommand); '#' answers the position `pan,tilt,zoom`. */
  ptz: (payload: { camera: string; command: string }, ack: DeviceAck<{ answer: string }>) => void;
  /** An attendee joined this camera's queue; the host photographs them in turn and uploads. */
  'queue join': (
    /** `aim`: where to point for this seat (the seat map's region interpolation); absent without a seat map. */
    payload: { camera: string; slugDate: string; userId: string; seat: Seat; aim?: Aim },
    ack: DeviceAck<{ position: number }>,
  ) => void;
  /** Take an operator photo now (user id starts with MAGIC) and upload it for `slugDate`. */
  magicshot: (payload: { camera: string; slugDate: string; userId: string }, ack: DeviceAck) => void;
  kick: (payload: { userId: string }, ack: DeviceAck) => void;
  ban: (payload: { userId: string }, ack: DeviceAck) => void;
  snooze: (payload: { userId: string; minutes: number }, ack: DeviceAck) => void;
  'live time': (payload: { camera: string }, ack: DeviceAck<{ liveTime: number }>) => void;
  shot: (payload: { camera: string }, ack: DeviceAck<{ image: Binary }>) => void;
  restart: (payload: { camera: string }, ack: DeviceAck) => void;
  demo: (payload: { demo: boolean }) => void;
  /** New setting values for one camera (Camera Configs page); the host applies them and acks. */
  configs: (
    payload: { camera: string; configs: { configKey: string; configValue: string | number }[] },
    ack: DeviceAck,
  ) => void;
};

/** Camera host -> server (namespace /devices). */
export type DeviceClientEvents = {
  /** First thing after connecting (and again after a reconnect). Acks the demo flag. */
  hello: (payload: HostHello, ack: DeviceAck<{ demo: boolean }>) => void;
  /** Partial camera state: only what changed. */
  report: (payload: CameraReport) => void;
  /** One JPEG frame (at most MAX_FRAME_BYTES); no ack, dropped when malformed. */
  frame: (payload: { camera: string; jpeg: Binary }) => void;
  /** The host starts photographing `userId` (consoles show the focus animation). */
  'taking snapshot': (payload: { camera: string; userId: string }) => void;
  /** A MagicShot failed on the host. */
  'magicshot error': (payload: { camera: string; message: string }) => void;
  /** A fan already in this host's queues joined again from another seat (suspicious-user check). */
  'check distinct': (payload: { camera: string; slugDate: string; userId: string; seat: Seat }) => void;
  /** The settings of one camera with their widgets (after hello and after each change). */
  'camera configs': (payload: { camera: string; configs: CameraConfig[] }) => void;
};
