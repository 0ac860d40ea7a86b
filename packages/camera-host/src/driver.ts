import type { Seat, UploadFace } from '@stadiumcam/contract';

/** A camera position in the seat map's units: pan and tilt in PTU counts (±1e9), zoom 0..1. */
export type Ptz = { pan: number; tilt: number; zoom: number };

/** A photo: the JPEG and, when the camera (or a vision service on the host) found them, faces. */
export type Still = { jpeg: Buffer; faces?: UploadFace[] };

/** What a live frame shows: the seat being photographed (ringed by a simulator) and a label. */
export type Scene = { target: Seat | null; label: string };

/** What the monitor draws: magnification and the view centre as fractions 0..1 of what the camera can see. */
export type PanAndZoom = { scale: number; posX: number; posY: number };

/**
 * One camera as the host brain (`CameraHost`) drives it. The brain owns the queue, the turns,
 * power, the reports and the uploads; a driver only moves the camera and takes pictures. The
 * venue simulator's driver draws its bowl; the ONVIF host's driver speaks ONVIF to a real camera.
 * Every method may throw: the brain answers the error's text to whoever asked.
 */
export type CameraDriver = {
  /** False for a camera without PTZ: it streams and takes stills, but takes no queue and no moves. */
  readonly canMove: boolean;
  /** Starts an absolute move (the aim); resolves once the camera took the command. */
  aim(to: Ptz): Promise<void>;
  /** Resolves when the last move is done as the camera reports it (or after the driver's timeout). */
  settled(): Promise<void>;
  relative(by: Ptz): Promise<void>;
  /** Speeds −1..1; runs until `stop`. */
  continuous(speed: { pan: number; tilt: number }): Promise<void>;
  stop(): Promise<void>;
  /** The console's Home (`!0,0,0`). */
  home(): Promise<void>;
  position(): Promise<Ptz>;
  /** A full-resolution picture for a fan's photo. */
  still(): Promise<Still>;
  /** A live frame (JPEG) for the monitor. */
  frame(scene: Scene): Promise<Buffer>;
  /** The power command reached the camera (the brain already stopped its frames and queue when off). */
  power?(on: boolean): Promise<void>;
  /** The monitor's view box for a position; without it the host reports none. */
  panAndZoom?(at: Ptz): PanAndZoom;
  close?(): Promise<void>;
};

export const formatPosition = (p: Ptz): string =>
  `${Math.round(p.pan)},${Math.round(p.tilt)},${Math.round(p.zoom * 1000) / 1000}`;
