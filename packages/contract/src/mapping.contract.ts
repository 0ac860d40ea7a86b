import { z } from 'zod';
import { defineRoute, OkSchema } from './route.ts';
import { P } from './permissions.ts';
import { CameraKeySchema } from './cameras.contract.ts';

/*
 * The seat map and the mapping (DESIGN §11, spec 3 §2.7, §2.8, §3, §7; docs/mapping.md).
 * A camera map file (`cam<N>.json`) says where camera N looks for each seat region; the row
 * dictionary (`row_dict.txt`) gives the order of row labels. The server parses them all into
 * one SeatMap that every seat question reads.
 */

/** Largest config file (map file, row dictionary); the reference image has its own limit. */
export const MAX_CONFIG_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_REFERENCE_IMAGE_BYTES = 5 * 1024 * 1024;
export const ROW_DICT_FILE = 'row_dict.txt';
/** `cam<N>.json` names the map file of camera N (camera key `cam<N>`). */
export const MAP_FILE_RE = /^cam([1-9]\d{0,2})\.json$/;
export const CORNER_POSITIONS = ['top_left', 'top_right', 'bottom_left', 'bottom_right'] as const;
export const REGION_TYPES = ['default', 'singleRow', 'singleSeat'] as const;
export type RegionType = (typeof REGION_TYPES)[number];

/** PTU counts (spec 3 §5 slider limits). */
const PtuCount = z.number().int('Pan and tilt must be integers').min(-1e9).max(1e9);
const RowLabel = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[^\s,]+$/, 'Row labels have no spaces or commas');

export const MapCornerSchema = z.object({
  position: z.enum(CORNER_POSITIONS),
  row: RowLabel,
  seat: z.number().int('Seats are whole numbers').min(0).max(100_000),
  /** Relative to the file's ref_point. */
  pan: PtuCount,
  tilt: PtuCount,
});
export type MapCorner = z.infer<typeof MapCornerSchema>;

export const MapRegionSchema = z.object({
  /** top_left and bottom_right are required; the other two default to the rectangle they span. */
  corners: z.array(MapCornerSchema).min(2).max(4),
  /** The camera zoom (0..1) used for every seat of the region. */
  zoom_factor: z.number().min(0).max(1),
  /** Rotation of the picture, degrees. */
  angle: z.number().min(-30).max(30),
  region_type: z.enum(REGION_TYPES).optional(),
});
export type MapRegion = z.infer<typeof MapRegionSchema>;

export const MapSectionSchema = z.object({
  name: z.string().trim().min(1).max(50),
  /** Seat type: section, box, suite, customtype1..3 (lower case). */
  type: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .regex(/^[a-z0-9_-]+$/, 'Seat types are lower case'),
  regions: z.array(MapRegionSchema).max(500),
});

/** One camera map file (`cam<N>.json`). */
export const CameraMapFileSchema = z.object({
  camera: z.number().int().min(1).max(999),
  ptu_model: z.string().max(100).optional(),
  operators: z.array(z.string().max(100)).max(50).optional(),
  section_count: z.number().int().min(0).max(100_000).optional(),
  ref_point: z.object({ pan: PtuCount, tilt: PtuCount, zoom: z.number().min(0).max(1) }),
  sections: z.array(MapSectionSchema).max(2000),
});
export type CameraMapFile = z.infer<typeof CameraMapFileSchema>;

/** The map file format as JSON Schema (docs/mapping.md), for technicians' editors and tools. */
export const cameraMapFileJsonSchema = () => z.toJSONSchema(CameraMapFileSchema, { io: 'input' });

/* ---------- The parsed model ---------- */

export const SeatMapCornerSchema = z.object({ row: z.string(), seat: z.number(), pan: z.number(), tilt: z.number() });
export type SeatMapCorner = z.infer<typeof SeatMapCornerSchema>;

export const SeatMapRegionSchema = z.object({
  /** Index within its section (the mapping tool updates and deletes by it). */
  index: z.number().int(),
  regionType: z.enum(REGION_TYPES),
  topLeft: SeatMapCornerSchema,
  topRight: SeatMapCornerSchema,
  bottomLeft: SeatMapCornerSchema,
  bottomRight: SeatMapCornerSchema,
  zoomFactor: z.number(),
  angle: z.number(),
  /** Rows (by the row dictionary's order) and seats it covers. */
  minr: z.string(),
  maxr: z.string(),
  mins: z.number(),
  maxs: z.number(),
});
export type SeatMapRegion = z.infer<typeof SeatMapRegionSchema>;

export const SeatMapCameraSchema = z.object({
  camera: z.string(),
  number: z.number().int(),
  refPoint: z.object({ pan: z.number(), tilt: z.number(), zoom: z.number() }),
  ptuModel: z.string(),
  operators: z.array(z.string()),
  sections: z.array(z.object({ name: z.string(), type: z.string(), regions: z.array(SeatMapRegionSchema) })),
});
export type SeatMapCamera = z.infer<typeof SeatMapCameraSchema>;

export const SeatMapSchema = z.object({
  rows: z.array(z.string()),
  cameras: z.array(SeatMapCameraSchema),
  loadedAt: z.string().nullable(),
});
export type SeatMap = z.infer<typeof SeatMapSchema>;

/** `configs/queue`: per section, which camera covers which rows and seats. */
export const QueueEntrySchema = z.object({
  cam: z.string(),
  minr: z.string(),
  maxr: z.string(),
  mins: z.number(),
  maxs: z.number(),
  type: z.string(),
});
export type QueueEntry = z.infer<typeof QueueEntrySchema>;

export const CameraMapStatsSchema = z.object({
  camera: z.string(),
  numberOfSections: z.number(),
  numberOfBoxes: z.number(),
  numberOfSuites: z.number(),
  numberOfCustomType1: z.number(),
  numberOfCustomType2: z.number(),
  numberOfCustomType3: z.number(),
  numberOfRegions: z.number(),
  numberOfSeats: z.number(),
  referencePan: z.number(),
  referenceTilt: z.number(),
  maxZoom: z.number(),
  avgZoom: z.number(),
  minZoom: z.number(),
  maxAngle: z.number(),
  avgAngle: z.number(),
  minAngle: z.number(),
  maxPan: z.number(),
  minPan: z.number(),
  maxTilt: z.number(),
  minTilt: z.number(),
});
export type CameraMapStats = z.infer<typeof CameraMapStatsSchema>;

/** Where a camera aims for one seat: absolute PTU counts, zoom 0..1, picture angle. */
export const AimSchema = z.object({ pan: z.number(), tilt: z.number(), zoom: z.number(), angle: z.number() });
export type Aim = z.infer<typeof AimSchema>;

/** A stored config file as the Mapping config page lists it. */
export const ConfigFileInfoSchema = z.object({
  name: z.string(),
  size: z.number(),
  uploadedAt: z.string(),
  uploadedBy: z.string(),
  /** Download path under the mapping root (`/config/stadiumcam/...`). */
  url: z.string(),
});
export type ConfigFileInfo = z.infer<typeof ConfigFileInfoSchema>;

export const UploadResultSchema = z.object({
  files: z.array(z.object({ name: z.string(), success: z.boolean(), error: z.string().optional() })),
});
export type UploadResult = z.infer<typeof UploadResultSchema>;

/** A region as the mapping tool sends it (spec 3 §7 helpers: name, type, four corners, angle, zoom factor). */
export const RegionInputSchema = z.object({
  name: z.string().trim().min(1, 'Section name is required').max(50),
  type: z
    .string()
    .trim()
    .min(1, 'Section type is required')
    .max(30)
    .transform((t) => t.toLowerCase()),
  regionType: z.enum(REGION_TYPES).default('default'),
  corners: z
    .array(
      z.object({
        position: z.enum(CORNER_POSITIONS),
        row: z
          .string()
          .trim()
          .min(1)
          .max(20)
          .transform((r) => r.toUpperCase()),
        seat: z.coerce.number().int('Seats are whole numbers').min(0).max(100_000),
        pan: z.coerce.number().int('Pan and tilt must be integers').min(-1e9).max(1e9),
        tilt: z.coerce.number().int('Pan and tilt must be integers').min(-1e9).max(1e9),
      }),
    )
    .length(4),
  angle: z.coerce.number().min(-30).max(30),
  zoomFactor: z.coerce.number().min(0).max(1),
});
export type RegionInput = z.input<typeof RegionInputSchema>;

export const ReferenceSchema = z.object({
  pan: z.number().int().min(-1e9).max(1e9),
  tilt: z.number().int().min(-1e9).max(1e9),
  zoom: z.number().min(0).max(1),
});

const CamParams = z.object({ camera: CameraKeySchema });
const RegionParams = z.object({
  camera: CameraKeySchema,
  section: z.string().min(1).max(50),
  type: z.string().min(1).max(30),
  index: z.coerce.number().int().min(0).max(10_000),
});

export const mappingRoutes = {
  /** 'Update Config': rebuild the seat map from the stored files, all or nothing. */
  reload: defineRoute({
    method: 'POST',
    audit: 'mapping.reload',
    path: '/api/events/stadiumcam/configs/reload',
    permission: P.CONFIG,
    response: z.object({ ok: z.literal(true), loadedAt: z.string(), cameras: z.number(), rows: z.number() }),
  }),
  /** Upload map files and/or the row dictionary (multipart, field `file`, repeated). */
  upload: defineRoute({
    method: 'POST',
    audit: 'mapping.upload',
    path: '/api/events/configs/camAndRowDict',
    permission: P.CONFIG,
    multipart: true,
    response: UploadResultSchema,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/events/configs/camAndRowDict',
    permission: P.CONFIG,
    response: z.object({ files: z.array(ConfigFileInfoSchema) }),
  }),
  remove: defineRoute({
    method: 'DELETE',
    audit: 'mapping.remove',
    path: '/api/events/configs/camAndRowDict',
    permission: P.CONFIG,
    body: z.object({ name: z.string().min(1).max(100) }),
    response: OkSchema,
  }),
  /** A map file for camera `camidx` from the mapping tool (multipart `event_url`, `camidx`, `file`). */
  uploadJson: defineRoute({
    method: 'POST',
    audit: 'config.upload',
    path: '/api/events/stadiumcam/configs/JSON',
    permission: P.CONFIG,
    multipart: true,
    response: OkSchema,
  }),
  /** The reference image of camera `camidx` (a JPEG). */
  uploadJpg: defineRoute({
    method: 'POST',
    audit: 'map.upload',
    path: '/api/events/stadiumcam/configs/JPG',
    permission: P.CONFIG,
    multipart: true,
    response: OkSchema,
  }),
  /** Downloads: `row_dict.txt`, `cam<N>.json`, `shots/cam<N>.jpg`. */
  download: defineRoute({
    method: 'GET',
    path: '/api/config/stadiumcam/:name',
    permission: P.CONFIG,
    params: z.object({ name: z.string().min(1).max(100) }),
    response: null,
  }),
  downloadShot: defineRoute({
    method: 'GET',
    path: '/api/config/stadiumcam/shots/:name',
    permission: P.CONFIG,
    params: z.object({ name: z.string().min(1).max(100) }),
    response: null,
  }),
  queue: defineRoute({
    method: 'GET',
    path: '/api/events/stadiumcam/configs/queue',
    permission: P.CONFIG,
    response: z.record(z.string(), z.array(QueueEntrySchema)),
  }),
  stats: defineRoute({
    method: 'GET',
    path: '/api/configs/stats',
    permission: P.CONFIG,
    response: z.array(CameraMapStatsSchema),
  }),
  /** The whole parsed model (Parsed Mapping Info, the coverage view, the mapping tool). */
  seatMap: defineRoute({ method: 'GET', path: '/api/mapping/seat-map', permission: P.CONFIG, response: SeatMapSchema }),
  addRegion: defineRoute({
    method: 'POST',
    audit: 'mapping.save',
    path: '/api/mapping/:camera/regions',
    permission: P.CONFIG,
    params: CamParams,
    body: RegionInputSchema,
    response: SeatMapSchema,
  }),
  updateRegion: defineRoute({
    method: 'PUT',
    audit: 'mapping.save',
    path: '/api/mapping/:camera/regions/:type/:section/:index',
    permission: P.CONFIG,
    params: RegionParams,
    body: RegionInputSchema,
    response: SeatMapSchema,
  }),
  deleteRegion: defineRoute({
    method: 'DELETE',
    audit: 'mapping.save',
    path: '/api/mapping/:camera/regions/:type/:section/:index',
    permission: P.CONFIG,
    params: RegionParams,
    response: SeatMapSchema,
  }),
  setReference: defineRoute({
    method: 'PUT',
    audit: 'mapping.save',
    path: '/api/mapping/:camera/reference',
    permission: P.CONFIG,
    params: CamParams,
    body: ReferenceSchema,
    response: SeatMapSchema,
  }),
  /** The reference image is taken from the camera now (a 'shot') and stored as shots/<cam>.jpg. */
  setReferenceImage: defineRoute({
    method: 'PUT',
    audit: 'mapping.save',
    path: '/api/mapping/:camera/reference-image',
    permission: P.CONFIG,
    params: CamParams,
    response: OkSchema,
  }),
};
