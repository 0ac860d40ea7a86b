import { z } from 'zod';
import { defineRoute } from './route.ts';
import { SnapshotSchema } from './snapshots.contract.ts';
import { CameraKeySchema, CameraPowerSchema, FirstSrsSchema, PanAndZoomSchema } from './cameras.contract.ts';

/*
 * The camera-host protocol (socket.io /devices + HTTP uploads). docs/protocol.md describes every
 * event; these are the payload schemas the server validates and the simulator sends. The
 * attendee path (/api/public) is in attendee-app.contract.ts.
 */

/** Largest JPEG frame a host may stream (bigger ones are dropped; the host stays connected). */
export const MAX_FRAME_BYTES = 512 * 1024;
/** Largest photo upload. */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
/** Attendee user ids starting with this are operator MagicShots (spec 1 §4). */
export const MAGIC_USER_PREFIX = 'MAGIC';

const Text = (max = 100) => z.string().trim().min(1).max(max);

/** Where an attendee sits. seatType: section (default), box, suite or a custom type. */
export const SeatSchema = z.strictObject({
  seatType: Text(50).default('section'),
  section: Text(),
  row: Text(),
  seat: Text(),
});
export type Seat = z.infer<typeof SeatSchema>;

const Trait = z.object({ Value: z.boolean(), Confidence: z.number().min(0).max(100) });
/** One face of an uploaded photo, bounds checked (spec 1 §3 Face data; Rekognition's shape; read back as FaceSchema). */
export const UploadFaceSchema = z.object({
  BoundingBox: z.object({
    Top: z.number().min(-1).max(2),
    Left: z.number().min(-1).max(2),
    Height: z.number().min(0).max(2),
    Width: z.number().min(0).max(2),
  }),
  AgeRange: z.object({ Low: z.number().int().min(0).max(150), High: z.number().int().min(0).max(150) }),
  Smile: Trait,
  Gender: z.object({ Value: z.enum(['Female', 'Male']), Confidence: z.number().min(0).max(100) }),
  Eyeglasses: Trait,
  Sunglasses: Trait,
  Beard: Trait,
  Mustache: Trait,
  EyesOpen: Trait,
  MouthOpen: Trait,
  /** Type in upper case as Rekognition writes it (HAPPY, CALM, ...). */
  Emotions: z.array(z.object({ Type: z.string().max(30), Confidence: z.number().min(0).max(100) })).max(20),
});
export type UploadFace = z.infer<typeof UploadFaceSchema>;

/** The JSON `metadata` field of a photo upload. */
export const PhotoMetadataSchema = z.strictObject({
  slugDate: Text(200),
  userId: Text(200),
  camera: CameraKeySchema,
  seatType: Text(50).default('section'),
  section: z.string().trim().max(100).default(''),
  row: z.string().trim().max(100).default(''),
  seat: z.string().trim().max(100).default(''),
  magicshot: z.boolean().default(false),
  /** When the photo was taken (ISO); defaults to the upload time. */
  date: z.iso.datetime({ offset: true }).optional(),
  faces: z.array(UploadFaceSchema).max(100).optional(),
});
export type PhotoMetadata = z.input<typeof PhotoMetadataSchema>;

/* ---------- /devices socket payloads (host -> server) ---------- */

export const HostHelloSchema = z.strictObject({
  name: Text(200),
  version: Text(100),
  ip: z.string().max(100).default(''),
  platform: z.string().max(100).optional(),
  cameras: z
    .array(z.strictObject({ camera: CameraKeySchema, status: CameraPowerSchema.default('off') }))
    .min(1)
    .max(64),
});
export type HostHello = z.input<typeof HostHelloSchema>;

/** A partial report: only the fields that changed. */
export const CameraReportSchema = z.strictObject({
  camera: CameraKeySchema,
  status: CameraPowerSchema.optional(),
  fps: z.number().min(0).max(120).optional(),
  queue: z.array(z.string().max(200)).max(10_000).optional(),
  firstSrs: FirstSrsSchema.nullable().optional(),
  panAndZoom: PanAndZoomSchema.optional(),
  liveTime: z.number().min(0).max(86_400).optional(),
  position: z.string().max(100).optional(),
});
export type CameraReport = z.input<typeof CameraReportSchema>;

export const devicesRoutes = {
  /**
   * A host uploads a photo it took: multipart with a `metadata` field (JSON, PhotoMetadata)
   * and an `image` file (JPEG/PNG/WebP). Bearer device token.
   */
  uploadPhoto: defineRoute({
    method: 'POST',
    path: '/api/devices/snapshots',
    device: true,
    multipart: true,
    response: SnapshotSchema,
  }),
};
