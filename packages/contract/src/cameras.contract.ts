import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P } from './permissions.ts';

/** `cam1`, `cam2`...: the name a host gives each of its cameras (spec 1 §3 Camera status). */
export const CameraKeySchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, 'Camera names may only contain letters, digits, _ and -');
export const CameraPowerSchema = z.enum(['on', 'off']);
export type CameraPower = z.infer<typeof CameraPowerSchema>;

/** First seat record of a camera's queue: the attendee being photographed next. */
export const FirstSrsSchema = z.object({
  id: z.string().max(200),
  section: z.string().max(100),
  row: z.string().max(100),
  seat: z.string().max(100),
});
export type FirstSrs = z.infer<typeof FirstSrsSchema>;

/** Where the camera looks, as the monitor draws it: zoom scale and the view centre (fractions 0..1). */
export const PanAndZoomSchema = z.object({
  scale: z.number().min(0).max(1000),
  posX: z.number().min(-10).max(10),
  posY: z.number().min(-10).max(10),
});
export type PanAndZoom = z.infer<typeof PanAndZoomSchema>;

/** What a host says about itself (Camera Configs page "Device" row). */
export const HostInfoSchema = z.object({
  hostId: z.string(),
  name: z.string().max(200),
  version: z.string().max(100),
  ip: z.string().max(100),
  platform: z.string().max(100).optional(),
  connectedAt: z.string(),
});
export type HostInfo = z.infer<typeof HostInfoSchema>;

/** One camera as the monitor shows it (spec 1 §3 Camera (monitor)). */
export const CameraStateSchema = z.object({
  camera: z.string(),
  status: CameraPowerSchema,
  /** Attendee user ids waiting, first = being photographed. */
  queue: z.array(z.string()),
  firstSrs: FirstSrsSchema.nullable(),
  panAndZoom: PanAndZoomSchema.nullable(),
  fps: z.number(),
  /** Seconds left of the current attendee's turn (counts down on the console each second). */
  liveTime: z.number(),
  /** Last position answer `pan,tilt,zoom`. */
  position: z.string().nullable(),
  /** Null when no host serves this camera right now (it is then 'off'). */
  host: HostInfoSchema.nullable(),
});
export type CameraState = z.infer<typeof CameraStateSchema>;

/** GET /api/cameras/status: every known camera with its power, and the demo flag. */
export const CameraStatusSchema = z.object({
  cameras: z.record(z.string(), CameraPowerSchema),
  demo: z.boolean(),
});
export type CameraStatus = z.infer<typeof CameraStatusSchema>;

export const camerasRoutes = {
  status: defineRoute({
    method: 'GET',
    path: '/api/cameras/status',
    permission: [P.MONITOR_READ, P.CAM_STATUS, P.POWER_BTN],
    or: true,
    response: CameraStatusSchema,
  }),
  /** Full state of every camera for the monitor's first paint; socket events keep it fresh. */
  monitor: defineRoute({
    method: 'GET',
    path: '/api/cameras/monitor',
    permission: P.MONITOR_READ,
    response: z.object({ cameras: z.array(CameraStateSchema), demo: z.boolean() }),
  }),
};

/**
 * Camera move commands (spec 1 §5, spec 3 §7): `!pan,tilt,zoom` absolute (pan, tilt integers,
 * zoom 0..1), `!0,0,0` home, `r<dpan>,<dtilt>,<dzoom>` relative step (integers, zoom step -1..1),
 * `c<pan>,<tilt>` continuous speed fractions -1..1, `s` stop, `#` read the position.
 */
export type PtzCommand =
  | { kind: 'absolute'; pan: number; tilt: number; zoom: number }
  | { kind: 'relative'; pan: number; tilt: number; zoom: number }
  | { kind: 'continuous'; pan: number; tilt: number }
  | { kind: 'stop' }
  | { kind: 'position' };

const INT = '[-+]?\\d{1,10}';
const NUM = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?';
const NUM_RE = new RegExp(`^${NUM}$`);
const INT_RE = new RegExp(`^${INT}$`);

function parseTriple(body: string): [string, string, string] | null {
  const parts = body.split(',').map((s) => s.trim());
  return parts.length === 3 ? (parts as [string, string, string]) : null;
}

/** Parses a command string; an error text when it breaks the spec's rules (then it is not sent). */
export function parsePtzCommand(command: unknown): PtzCommand | { error: string } {
  if (typeof command !== 'string' || command.length > 100) return { error: 'Command must be a string' };
  const c = command.trim();
  if (c === 's') return { kind: 'stop' };
  if (c === '#') return { kind: 'position' };
  const head = c[0];
  if (head === '!' || head === 'r') {
    const t = parseTriple(c.slice(1));
    if (!t) return { error: 'Move needs pan, tilt and zoom' };
    const [p, tl, z] = t;
    if (!INT_RE.test(p) || !INT_RE.test(tl)) return { error: 'Pan and tilt must be integers' };
    if (!NUM_RE.test(z)) return { error: 'Zoom must be a number' };
    const zoom = Number(z);
    const pan = Number(p);
    const tilt = Number(tl);
    if (Math.abs(pan) > 1e9 || Math.abs(tilt) > 1e9) return { error: 'Pan and tilt must be within -1e9..1e9' };
    if (head === '!') {
      if (zoom < 0 || zoom > 1) return { error: 'Zoom must be within 0 and 1' };
      return { kind: 'absolute', pan, tilt, zoom };
    }
    if (zoom < -1 || zoom > 1) return { error: 'Zoom step must be within -1 and 1' };
    return { kind: 'relative', pan, tilt, zoom };
  }
  if (head === 'c') {
    const parts = c.slice(1).split(',');
    if (parts.length !== 2 || !parts.every((s) => NUM_RE.test(s.trim()))) {
      return { error: 'Continuous move needs pan and tilt speeds' };
    }
    const [pan, tilt] = parts.map(Number);
    if (Math.abs(pan) > 1 || Math.abs(tilt) > 1) return { error: 'Continuous speeds must be within -1 and 1' };
    return { kind: 'continuous', pan, tilt };
  }
  return { error: `Unknown camera command "${c.slice(0, 20)}"` };
}

/** The inverse of parsePtzCommand: the exact string sent to the host. */
export function formatPtzCommand(cmd: PtzCommand): string {
  switch (cmd.kind) {
    case 'absolute':
      return `!${cmd.pan},${cmd.tilt},${cmd.zoom}`;
    case 'relative':
      return `r${cmd.pan},${cmd.tilt},${cmd.zoom}`;
    case 'continuous':
      return `c${cmd.pan},${cmd.tilt}`;
    case 'stop':
      return 's';
    case 'position':
      return '#';
  }
}

/** A position answer `pan,tilt,zoom`; null when it is not one (then it is an error text). */
export function parsePosition(answer: string): { pan: number; tilt: number; zoom: number } | null {
  const t = parseTriple(answer);
  if (!t || !INT_RE.test(t[0]) || !INT_RE.test(t[1]) || !NUM_RE.test(t[2])) return null;
  return { pan: Number(t[0]), tilt: Number(t[1]), zoom: Number(t[2]) };
}
