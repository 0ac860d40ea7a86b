import { z } from 'zod';
import { defineRoute } from './route.ts';
import { SHARE_SOURCES } from './constants.ts';
import { SnapshotSchema } from './snapshots.contract.ts';
import { PublicTemplateSchema } from './template.contract.ts';
import { CameraKeySchema, CameraPowerSchema, FirstSrsSchema, PanAndZoomSchema } from './cameras.contract.ts';

/*
 * The camera-host protocol (socket.io /devices + HTTP uploads) and the attendee path
 * (/api/public). docs/protocol.md describes every event; these are the payload schemas the
 * server validates and the simulator sends.
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

/* ---------- attendee path (/api/public) ---------- */

/** `sections`: the seat sections that may use it ('*' = all); the app offers it by the photo's section. */
export const PublicOverlaySchema = z.object({
  storageKey: z.string(),
  urlFullSize: z.string(),
  sections: z.array(z.string()),
});

/** The current event with the template parts the attendee app shows (template.contract.ts). */
export const PublicEventSchema = z
  .object({
    slugDate: z.string(),
    title: z.string(),
    eventStatus: z.string(),
    overlays: z.array(PublicOverlaySchema),
  })
  .extend(PublicTemplateSchema.shape);
export type PublicEvent = z.infer<typeof PublicEventSchema>;

/** What an attendee sees of their own photo. */
export const PublicSnapshotSchema = SnapshotSchema.pick({
  _id: true,
  slugDate: true,
  camera: true,
  section: true,
  row: true,
  seat: true,
  date: true,
  thumbURI: true,
  smallURI: true,
  rawCroppedURI: true,
  sharedURI: true,
  overlay: true,
  magicshot: true,
});
export type PublicSnapshot = z.infer<typeof PublicSnapshotSchema>;

const UserIdSchema = Text(200);

export const attendeeRoutes = {
  /** The current event (DESIGN §6 rule) with its enabled overlays. */
  event: defineRoute({
    method: 'GET',
    path: '/api/public/event',
    public: true,
    query: z.object({ slugDate: Text(200).optional() }),
    response: PublicEventSchema,
  }),
  /** Join a camera queue; the server picks the camera. */
  joinQueue: defineRoute({
    method: 'POST',
    path: '/api/public/queue',
    public: true,
    body: z.strictObject({
      slugDate: Text(200),
      userId: UserIdSchema,
      seat: SeatSchema,
      /** The browser's position; required while the event's geofence is on (spec 2, DESIGN §10). */
      location: z
        .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
        .optional(),
    }),
    response: z.object({ camera: z.string(), position: z.number().int() }),
  }),
  /** The attendee's own photos of an event, newest first. */
  snapshots: defineRoute({
    method: 'GET',
    path: '/api/public/snapshots',
    public: true,
    query: z.object({ slugDate: Text(200), userId: UserIdSchema }),
    response: z.array(PublicSnapshotSchema),
  }),
  /** Choose the overlay (null = none); sharedURI becomes the photo with it composited. */
  chooseOverlay: defineRoute({
    method: 'POST',
    path: '/api/public/snapshots/:id/overlay',
    public: true,
    params: z.object({ id: z.string().max(100) }),
    body: z.strictObject({ userId: UserIdSchema, overlay: z.string().max(200).nullable() }),
    response: PublicSnapshotSchema,
  }),
  share: defineRoute({
    method: 'POST',
    path: '/api/public/snapshots/:id/share',
    public: true,
    params: z.object({ id: z.string().max(100) }),
    body: z.strictObject({
      userId: UserIdSchema,
      socialSource: z.enum(SHARE_SOURCES),
      userEmail: z.email().max(320).optional(),
    }),
    response: PublicSnapshotSchema,
  }),
};

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
