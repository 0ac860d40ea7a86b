/**
 * Template, part two (spec 2): overlays, share, seat options and blocked seats, geofence,
 * trivia, export/import. The parts' schemas check the rules of spec 2 §5 wherever they are
 * read: the console's forms, the server's saves and the .amp import.
 */
import { z } from 'zod';
import type { AuditAction } from './audit.contract.ts';
import { MSG, type TextKey } from './messages.ts';
import { P } from './permissions.ts';
import { defineRoute } from './route.ts';
import { SlideshowSettingsSchema } from './slideshow.contract.ts';

/* ---------- Overlays (spec 2 §3, §5, §9) ---------- */

export const MAX_OVERLAYS = 7;
export const OVERLAY_PX = 2160;
/** "800 KB": read as 800 × 1024 bytes (docs/template.md). */
export const OVERLAY_MAX_BYTES = 800 * 1024;

export const OverlaySchema = z.object({
  storageKey: z.string().min(1).max(300),
  urlFullSize: z.string().max(500),
  urlRaw: z.string().max(500),
  urlMediumSize: z.string().max(500),
  disabled: z.boolean(),
  deleted: z.boolean(),
  /** Seat sections allowed to use it, or ['*'] for all; Save needs one (spec 2 §5). */
  sections: z.array(z.string().min(1).max(100)).min(1, MSG.templateParts.overlaySectionsRequired).max(500),
});
export type Overlay = z.infer<typeof OverlaySchema>;

/** Deleted overlays are kept (marked) but do not count towards the seven. */
export const OverlaysSchema = z
  .array(OverlaySchema)
  .max(100)
  .refine((list) => list.filter((o) => !o.deleted).length <= MAX_OVERLAYS, MSG.templateParts.overlaysMax);

/** The add-slots the Overlays screen shows (spec 2 §2): 3 − count under 3, else one under 7. */
export const emptyOverlaySlots = (count: number) => (count < 3 ? 3 - count : count < MAX_OVERLAYS ? 1 : 0);

/**
 * The name screens show for an overlay: its file name without the folder and the `.png`
 * (`stadiumcam/overlays/demo-classic.png` → `demo-classic`). Spec 2 §4 says the last 12
 * characters of the key, which cut names mid-word ('-classic.png'); DESIGN §6 (words for people)
 * and docs/spec-conformance.md decide for the whole name (issue 28 point 5).
 */
export const overlayLabel = (storageKey: string) =>
  (storageKey.split('/').pop() ?? storageKey).replace(/\.png$/i, '') || storageKey;

/**
 * A PNG's header (IHDR), read from the bytes: the console checks a file before uploading and
 * the server again (with the decoded pixels). Null when the bytes are not a PNG.
 */
export function readPngHeader(
  bytes: Uint8Array,
): { width: number; height: number; bitDepth: number; colourType: number } | null {
  const SIG = [137, 80, 78, 71, 13, 10, 26, 10];
  if (bytes.length < 33 || SIG.some((b, i) => bytes[i] !== b)) return null;
  if (String.fromCharCode(...bytes.slice(12, 16)) !== 'IHDR') return null;
  const u32 = (o: number) => ((bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3]) >>> 0;
  return { width: u32(16), height: u32(20), bitDepth: bytes[24], colourType: bytes[25] };
}

/** Spec 2 §5 overlay rule on a PNG header; the first broken rule's key in `MSG.templateParts`, or null. */
export function overlayHeaderError(bytes: Uint8Array): TextKey<typeof MSG.templateParts> | null {
  if (bytes.length > OVERLAY_MAX_BYTES) return 'overlayTooLarge';
  const h = readPngHeader(bytes);
  if (!h) return 'overlayNotPng';
  // Colour type 3 = palette; 8 bits per channel only.
  if (h.bitDepth !== 8 || h.colourType === 3) return 'overlay8Bit';
  if (h.width !== OVERLAY_PX || h.height !== OVERLAY_PX) return 'overlaySize';
  return null;
}

export const overlayRoutes = {
  /** multipart `image`: a checked PNG stored for the event; answers its (unsaved) entry. */
  upload: defineRoute({
    method: 'POST',
    audit: 'template.overlayUpload',
    path: '/api/events/:slugDate/overlays/upload',
    permission: [P.TEMPLATE, P.OVERLAYS],
    or: true,
    multipart: true,
    params: z.object({ slugDate: z.string().min(1).max(200) }),
    response: OverlaySchema,
  }),
};

/* ---------- Share (spec 2 §3, §5, §9) ---------- */

export const SHARE_PLATFORMS = ['print', 'share', 'share level 2', 'download', 'email'] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];
export const MAX_ACTIVE_SHARE = 4;
export const MIN_ACTIVE_SHARE = 1;

export const ShareOptionSchema = z.object({ platform: z.enum(SHARE_PLATFORMS), enabled: z.boolean() });
export type ShareOption = z.infer<typeof ShareOptionSchema>;

/** The ranked list: enabled entries in order are what the app offers. */
export const ShareSchema = z
  .array(ShareOptionSchema)
  .max(SHARE_PLATFORMS.length)
  .superRefine((list, ctx) => {
    if (new Set(list.map((o) => o.platform)).size !== list.length)
      ctx.addIssue({ code: 'custom', message: 'Each share option may appear once' });
    const active = list.filter((o) => o.enabled).length;
    if (active > MAX_ACTIVE_SHARE) ctx.addIssue({ code: 'custom', message: MSG.templateParts.shareMax });
    if (active < MIN_ACTIVE_SHARE) ctx.addIssue({ code: 'custom', message: MSG.templateParts.shareMin });
  });

/* ---------- Geofence (spec 2 §3, §5) ---------- */

export const GeofenceLocationSchema = z.object({ location: z.string().trim().min(1).max(200), allow: z.boolean() });
export type GeofenceLocation = z.infer<typeof GeofenceLocationSchema>;

export const GeofenceSchema = z.object({
  enabled: z.boolean(),
  address: z.string().max(500),
  /** Kilometres: a number, min 0, step 1. */
  radius: z.number().int().min(0).max(20_000),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  locations: z.array(GeofenceLocationSchema).max(200),
});
export type Geofence = z.infer<typeof GeofenceSchema>;

/** What the shown map was drawn for: the console's "matches the map" rules compare with it. */
export type GeofenceMap = { address: string; radius: number; latitude: number; longitude: number };

/**
 * The reasons listed under 'Geofence is not configured properly' (spec 2 §5). `map` is the
 * map on screen (null when none was drawn); the server passes the saved centre as the map.
 */
export function geofenceProblems(g: Geofence, map: GeofenceMap | null): string[] {
  if (!g.enabled) return [];
  const out: string[] = [];
  if (!Number.isFinite(g.radius) || g.radius <= 0) out.push(MSG.templateParts.geofenceRadiusRequired);
  else if (!map || map.radius !== g.radius) out.push(MSG.templateParts.geofenceRadiusMismatch);
  if (!g.address.trim()) out.push(MSG.templateParts.geofenceAddressRequired);
  else if (!map || map.address.trim() !== g.address.trim()) out.push(MSG.templateParts.geofenceAddressMismatch);
  if (!g.locations.some((l) => l.allow)) out.push(MSG.templateParts.geofenceNoAllowed);
  const seen = new Set<string>();
  for (const l of g.locations) {
    const k = l.location.trim().toLowerCase();
    if (seen.has(k)) out.push(MSG.templateParts.duplicateValue);
    seen.add(k);
  }
  return out;
}

/** Great-circle distance in km (the server's position check and the map's circle agree). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const R = 6371.0088;
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

export const MAP_WIDTH = 640;
export const MAP_HEIGHT = 400;
export const MAP_SCALE = 2;
export const CIRCLE_POINTS = 361;

export const GeocodeResultSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  displayName: z.string(),
});

/* ---------- Seat options and blocked seats (spec 2 §3, §4, §5, §9) ---------- */

/** The cards of spec 2: stand plus the seat types of the album filter. */
export const SEAT_OPTION_TYPES = [
  'stand',
  'section',
  'custom_type_1',
  'custom_type_2',
  'custom_type_3',
  'box',
  'suite',
] as const;
export type SeatOptionType = (typeof SEAT_OPTION_TYPES)[number];
export const SEAT_MODES = ['grid', 'list'] as const;

export const SeatOptionSchema = z.object({
  type: z.enum(SEAT_OPTION_TYPES),
  enabled: z.boolean(),
  forcedDisable: z.boolean(),
  mode: z.enum(SEAT_MODES),
});
export type SeatOption = z.infer<typeof SeatOptionSchema>;

export const BlockedSeatSchema = z.object({
  seatType: z.enum(SEAT_OPTION_TYPES),
  section: z.string().trim().min(1, MSG.templateParts.selectSection).max(100),
  row: z.string().trim().min(1, MSG.templateParts.selectRow).max(100),
  seat: z.string().trim().min(1, MSG.templateParts.selectSeat).max(100),
});
export type BlockedSeat = z.infer<typeof BlockedSeatSchema>;

export const blockedSeatKey = (b: BlockedSeat) => [b.seatType, b.section, b.row, b.seat].join('\u0000');

export const SeatOptionsPartSchema = z.object({
  /** The ordered list: the app's seat form offers the enabled types in this order. */
  seatType: z
    .array(SeatOptionSchema)
    .max(SEAT_OPTION_TYPES.length)
    .refine((l) => new Set(l.map((o) => o.type)).size === l.length, 'Each seat type may appear once'),
  blockedSeats: z
    .array(BlockedSeatSchema)
    .max(5000)
    .refine((l) => new Set(l.map(blockedSeatKey)).size === l.length, MSG.templateParts.seatAlreadyBlocked),
});

/* ---------- Trivia (spec 2 §3, §5, §7) ---------- */

const required = z.string().trim().min(1, MSG.templateParts.fieldRequired).max(500);
export const TriviaQuestionSchema = z.object({
  /** Taken from the question text (spec 2 §3). */
  _id: z.string().min(1).max(500),
  question: required,
  answer1: required,
  answer2: required,
  correctAnswer: z.union([z.literal(1), z.literal(2)], { error: MSG.templateParts.fieldRequired }),
});
export type TriviaQuestion = z.infer<typeof TriviaQuestionSchema>;
export const triviaId = (question: string) => question.trim().replace(/\s+/g, ' ');

const LanguageParam = z.string().regex(/^[a-z][a-z_-]{0,39}$/, 'Unknown language');
const SlugDateParam = z.string().min(1).max(200);
const EventIds = z.array(SlugDateParam).min(1).max(500);

export const triviaRoutes = {
  questions: defineRoute({
    method: 'GET',
    path: '/api/events/:slugDate/trivia/questions/:language',
    permission: [P.TEMPLATE, P.TRIVIA],
    or: true,
    params: z.object({ slugDate: SlugDateParam, language: LanguageParam }),
    response: z.array(TriviaQuestionSchema),
  }),
  /** Adds (or replaces by _id) questions of one language in every selected event. */
  add: defineRoute({
    method: 'POST',
    audit: 'template.triviaQuestions',
    path: '/api/trivia/questions/:language',
    permission: [P.TEMPLATE, P.TRIVIA],
    or: true,
    params: z.object({ language: LanguageParam }),
    body: z.strictObject({
      language: LanguageParam,
      eventIds: EventIds,
      questions: z.array(TriviaQuestionSchema).min(1).max(1000),
    }),
    response: z.object({ ok: z.literal(true), saved: z.number().int() }),
  }),
  remove: defineRoute({
    method: 'DELETE',
    audit: 'template.triviaQuestions',
    path: '/api/trivia/questions',
    permission: [P.TEMPLATE, P.TRIVIA],
    or: true,
    body: z.strictObject({
      questionIds: z.array(z.string().min(1).max(500)).min(1).max(1000),
      eventIds: EventIds,
      language: LanguageParam,
    }),
    response: z.object({ ok: z.literal(true), deleted: z.number().int() }),
  }),
  /**
   * The questions a queued fan sees (DESIGN §10): the event's questions in that language while
   * trivia is enabled, else none. Public: the app has no session. Without the right answer: the
   * app asks the server (`attendeeAppRoutes.triviaAnswer`, docs/security.md §20).
   */
  publicQuestions: defineRoute({
    method: 'GET',
    path: '/api/public/trivia/:slugDate/:language',
    public: true,
    params: z.object({ slugDate: SlugDateParam, language: LanguageParam }),
    response: z.array(TriviaQuestionSchema.omit({ correctAnswer: true })),
  }),
  /** The CSV export link (spec 2 §7). */
  csv: defineRoute({
    method: 'GET',
    path: '/api/trivia/questionsCsv/:slugDate/:language',
    permission: [P.TEMPLATE, P.TRIVIA],
    or: true,
    params: z.object({ slugDate: SlugDateParam, language: LanguageParam }),
    response: null,
  }),
};

export const TRIVIA_CSV_COLUMNS = ['question', 'answer1', 'answer2', 'correctAnswer'] as const;

/* ---------- Geofence map and geocoding ---------- */

export const geofenceRoutes = {
  /** The static map (PNG) drawn by the server from centre and radius. */
  map: defineRoute({
    method: 'GET',
    path: '/api/geofence/map',
    permission: P.TEMPLATE,
    query: z.object({
      latitude: z.coerce.number().min(-90).max(90),
      longitude: z.coerce.number().min(-180).max(180),
      radius: z.coerce.number().int().min(0).max(20_000),
    }),
    response: null,
  }),
  /** Address → centre through the configured Nominatim-compatible service. */
  geocode: defineRoute({
    method: 'GET',
    path: '/api/geofence/geocode',
    permission: P.TEMPLATE,
    query: z.object({ address: z.string().trim().min(1, MSG.templateParts.geofenceAddressRequired).max(500) }),
    response: GeocodeResultSchema,
  }),
  /** Whether geocoding is configured (else the console asks for latitude and longitude). */
  geocoder: defineRoute({
    method: 'GET',
    path: '/api/geofence/geocoder',
    permission: P.TEMPLATE,
    response: z.object({ configured: z.boolean() }),
  }),
};

/* ---------- Export / import (spec 2 §3, §5, §7; DESIGN §10) ---------- */

export const AMP_FORMAT = 'stadiumcam.amp';
export const AMP_FORMAT_VERSION = 1;
export const EXPORTABLE_FIELDS = ['geofence', 'overlays', 'startTime', 'endTime'] as const;

export const AmpExportQuerySchema = z.object({
  triviaEnabled: z.preprocess((v) => (v === undefined ? true : v === 'true'), z.boolean()),
  disabledEventFields: z
    .preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.enum(EXPORTABLE_FIELDS)))
    .optional(),
});

export const AmpManifestSchema = z.strictObject({
  format: z.literal(AMP_FORMAT),
  formatVersion: z.literal(AMP_FORMAT_VERSION, { error: 'Unsupported .amp format version' }),
  appVersion: z.string().max(50),
  exportedAt: z.string().max(50),
  slugDate: z.string().max(200),
  options: z.object({ triviaEnabled: z.boolean(), disabledEventFields: z.array(z.enum(EXPORTABLE_FIELDS)) }),
  /** Media files in the archive, relative names under media/. */
  media: z.array(z.string().max(300)).max(200),
});
export type AmpManifest = z.infer<typeof AmpManifestSchema>;

export const exportRoutes = {
  export: defineRoute({
    method: 'GET',
    audit: 'amp.export',
    path: '/api/events/:slugDate/export',
    permission: P.TEMPLATE,
    params: z.object({ slugDate: SlugDateParam }),
    query: AmpExportQuerySchema,
    response: null,
  }),
  /** multipart: file (.amp) + eventIds (a JSON list of event ids, as every save by eventIds). */
  import: defineRoute({
    method: 'POST',
    audit: 'amp.import',
    path: '/api/events/import',
    permission: P.TEMPLATE,
    multipart: true,
    response: z.object({ ok: z.literal(true), eventIds: z.array(z.string()) }),
  }),
};

/* ---------- The save-by-eventIds parts of this issue (DESIGN §10 registry entries) ---------- */

export const OverlaysPartSchema = z.strictObject({ overlays: OverlaysSchema });
export const SharePartSchema = z.strictObject({ share: ShareSchema });
export const GeofencePartSchema = z.strictObject({ geofence: GeofenceSchema });
export const SeatOptionsSaveSchema = z.strictObject(SeatOptionsPartSchema.shape);
export const TriviaPartSchema = z.strictObject({ triviaEnabled: z.boolean() });
export const SlideshowPartSchema = z.strictObject({ slideshow: SlideshowSettingsSchema });

const withIds = <S extends z.ZodObject>(part: S) => part.extend({ eventIds: EventIds });
const patch = <S extends z.ZodObject>(
  path: string,
  schema: S,
  access: { permission: (typeof P)[keyof typeof P] | (typeof P)[keyof typeof P][]; or?: true },
  audit: AuditAction,
) => defineRoute({ method: 'PATCH', path, ...access, audit, body: withIds(schema), response: schema });

export const partRoutes = {
  overlays: patch(
    '/api/events/overlays',
    OverlaysPartSchema,
    { permission: [P.OVERLAYS, P.TEMPLATE], or: true },
    'template.overlays',
  ),
  share: patch('/api/events/share', SharePartSchema, { permission: P.TEMPLATE }, 'template.share'),
  geofence: patch('/api/events/geofence', GeofencePartSchema, { permission: P.TEMPLATE }, 'template.geofence'),
  seatOptions: patch(
    '/api/events/seatOptions',
    SeatOptionsSaveSchema,
    { permission: P.TEMPLATE },
    'template.seatOptions',
  ),
  trivia: patch(
    '/api/events/trivia',
    TriviaPartSchema,
    { permission: [P.TRIVIA, P.TEMPLATE], or: true },
    'template.trivia',
  ),
  slideshow: patch(
    '/api/events/slideshow',
    SlideshowPartSchema,
    { permission: [P.SLIDESHOW, P.TEMPLATE], or: true },
    'template.slideshow',
  ),
};

/** Spread into TEMPLATE_PARTS (template.contract.ts). */
export const TEMPLATE_PARTS_2 = {
  overlays: { route: partRoutes.overlays, schema: OverlaysPartSchema, fields: ['overlays'] },
  share: { route: partRoutes.share, schema: SharePartSchema, fields: ['share'] },
  geofence: { route: partRoutes.geofence, schema: GeofencePartSchema, fields: ['geofence'] },
  seatOptions: { route: partRoutes.seatOptions, schema: SeatOptionsSaveSchema, fields: ['seatType', 'blockedSeats'] },
  trivia: { route: partRoutes.trivia, schema: TriviaPartSchema, fields: ['triviaEnabled'] },
  slideshow: { route: partRoutes.slideshow, schema: SlideshowPartSchema, fields: ['slideshow'] },
} as const;
