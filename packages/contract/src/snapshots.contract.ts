import { z } from 'zod';
import { ALBUM_PAGE_SIZE, MAX_PAGE_SIZE, SHARE_SOURCES } from './constants.ts';
import { P, type Permission } from './permissions.ts';
import { MSG } from './messages.ts';
import { defineRoute, OkSchema, queryBool, queryList } from './route.ts';

/** One share action of an attendee (spec 1 §3 postObj). */
export const ShareRecordSchema = z.object({
  socialSource: z.enum(SHARE_SOURCES),
  imgURL: z.string(),
  date: z.string(),
  userEmail: z.string().optional(),
});
export type ShareRecord = z.infer<typeof ShareRecordSchema>;

/** A photo as the console sees it (spec 1 §3 Snapshot). */
export const SnapshotSchema = z.object({
  _id: z.string(),
  slug: z.string(),
  slugDate: z.string(),
  userId: z.string(),
  camera: z.string(),
  seatType: z.string(),
  section: z.string(),
  row: z.string(),
  seat: z.string(),
  date: z.string(),
  thumbURI: z.string(),
  smallURI: z.string(),
  rawCroppedURI: z.string(),
  sharedURI: z.string(),
  mediaType: z.string(),
  favorite: z.boolean(),
  hidden: z.boolean(),
  magicshot: z.boolean(),
  overlay: z.string().nullable(),
  postObj: z.array(ShareRecordSchema),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** Live metrics of an event (spec 1 §3). */
export const LiveMetricsSchema = z.object({
  current: z.number().int(),
  peak: z.number().int(),
  snapshots: z.number().int(),
  shares: z.number().int(),
});
export type LiveMetrics = z.infer<typeof LiveMetricsSchema>;

// ---------------------------------------------------------------------------------------
// Album, lightbox, moderation, exports and e-mail share (spec 1 §2-§7, spec 3 §2.3).
// Decisions are written down in docs/album-api.md.

/** Album tabs; "all" excludes magicshots, "all-with-magicshot" includes them. */
export const SNAPSHOT_TYPES = ['all', 'shared', 'favorites', 'magicshots', 'all-with-magicshot'] as const;
export type SnapshotType = (typeof SNAPSHOT_TYPES)[number];
export const SNAPSHOT_SORT_FIELDS = ['date', 'section', 'row', 'seat', 'userId'] as const;
export const DATE_COMPARATORS = ['gt', 'gte', 'lt', 'lte'] as const;
export const GENDER_FILTERS = ['All', 'Female', 'Male', 'Both'] as const;
export const EMOTIONS = ['angry', 'surprised', 'fear', 'confused', 'sad', 'happy', 'calm'] as const;
/** Seat types (spec 2 §9); a seat's area name (section, box, suite...) is kept in `section`. */
export const SEAT_TYPES = ['section', 'box', 'suite', 'custom_type_1', 'custom_type_2', 'custom_type_3'] as const;
export const AGE_RANGE = { min: 1, max: 90 } as const;
export const GROUP_SIZE_RANGE = { min: 0, max: 40 } as const;
/** Minutes of the UTC day: the album's time slider (step 1 minute). */
export const MINUTES_PER_DAY = 1440;
export const EXPORT_PASSWORD_LENGTH = 10;
/** Most ids one moderation, archive or export call may name. */
export const MAX_IDS_PER_CALL = 1000;

const text = z.string().min(1).max(200);
const list = queryList(text).pipe(z.array(text).max(500));
const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Album filter fields (spec 1 §3) as they travel in the query of the list and stats calls. */
export const SnapshotFilterShape = {
  /** Events to look in; may be omitted when a userId filter is given. */
  slugDate: list.optional(),
  userId: list.optional(),
  camera: list.optional(),
  seatType: queryList(z.enum(SEAT_TYPES)).optional(),
  section: list.optional(),
  box: list.optional(),
  suite: list.optional(),
  customType1: list.optional(),
  customType2: list.optional(),
  customType3: list.optional(),
  row: list.optional(),
  seat: list.optional(),
  overlay: list.optional(),
  emotion: queryList(z.enum(EMOTIONS)).optional(),
  sharedPlatform: queryList(z.enum(SHARE_SOURCES)).optional(),
  ageMin: intIn(AGE_RANGE.min, AGE_RANGE.max).optional(),
  ageMax: intIn(AGE_RANGE.min, AGE_RANGE.max).optional(),
  groupSizeMin: intIn(GROUP_SIZE_RANGE.min, GROUP_SIZE_RANGE.max).optional(),
  groupSizeMax: intIn(GROUP_SIZE_RANGE.min, GROUP_SIZE_RANGE.max).optional(),
  gender: z.enum(GENDER_FILTERS).optional(),
  /** Minutes of the UTC day, 0-1440; since > until wraps over midnight. */
  timeSince: intIn(0, MINUTES_PER_DAY).optional(),
  timeUntil: intIn(0, MINUTES_PER_DAY).optional(),
  /** Banned (true) or not banned (false) photos only (event users filter). */
  hidden: queryBool.optional(),
  /** A date range (ISO 8601, inclusive): the event users filter. */
  dateFrom: z.iso.datetime({ offset: true }).optional(),
  dateTo: z.iso.datetime({ offset: true }).optional(),
  /** With dateComparator: only photos taken before/after this instant (ISO 8601). */
  dateVal: z.iso.datetime({ offset: true }).optional(),
  dateComparator: z.enum(DATE_COMPARATORS).optional(),
  /** Keyset tie-break: with dateVal and gt/lt, compares (date, _id) so equal dates are not skipped. */
  cursorId: z.string().min(1).max(100).optional(),
} as const;

const needsEvents = (q: { slugDate?: string[]; userId?: string[] }) =>
  (q.slugDate?.length ?? 0) > 0 || (q.userId?.length ?? 0) > 0;
const eventsRequired = { message: 'slugDate is required unless a userId filter is given', path: ['slugDate'] };
const comparatorPaired = (q: { dateVal?: string; dateComparator?: string }) =>
  (q.dateVal === undefined) === (q.dateComparator === undefined);
const comparatorMessage = { message: 'dateVal and dateComparator go together', path: ['dateComparator'] };
const rangeOrdered = (q: { dateFrom?: string; dateTo?: string }) =>
  !q.dateFrom || !q.dateTo || Date.parse(q.dateFrom) <= Date.parse(q.dateTo);
const rangeMessage = { message: 'dateFrom must not be after dateTo', path: ['dateTo'] };

/** GET /api/events/snapshots/stats: the list's filters, no paging. Unknown fields → 400. */
export const SnapshotStatsQuerySchema = z
  .strictObject(SnapshotFilterShape)
  .refine(needsEvents, eventsRequired)
  .refine(comparatorPaired, comparatorMessage)
  .refine(rangeOrdered, rangeMessage);
export type SnapshotStatsQuery = z.infer<typeof SnapshotStatsQuerySchema>;

export const SnapshotListQuerySchema = z
  .strictObject({
    ...SnapshotFilterShape,
    type: z.enum(SNAPSHOT_TYPES).default('all'),
    page: intIn(1, 1_000_000).default(1),
    pageSize: intIn(1, MAX_PAGE_SIZE).default(ALBUM_PAGE_SIZE),
    sortField: z.enum(SNAPSHOT_SORT_FIELDS).default('date'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    /** Also count the matching photos (the event users table shows the total). */
    withTotal: queryBool.optional(),
  })
  .refine(needsEvents, eventsRequired)
  .refine(comparatorPaired, comparatorMessage)
  .refine(rangeOrdered, rangeMessage);
export type SnapshotListQuery = z.infer<typeof SnapshotListQuerySchema>;

/** A list item: the Snapshot plus what the event users table shows (spec 3 §2.3). */
export const SnapshotListItemSchema = SnapshotSchema.extend({
  sharedPlatforms: z.array(z.string()),
  /** The first e-mail address an attendee gave when sharing, if any. */
  contactInfo: z.string().nullable(),
});
export type SnapshotListItem = z.infer<typeof SnapshotListItemSchema>;

export const SnapshotListSchema = z.object({
  items: z.array(SnapshotListItemSchema),
  /** Only with withTotal=true. */
  total: z.number().int().optional(),
});
export type SnapshotList = z.infer<typeof SnapshotListSchema>;

export const AlbumStatsSchema = z.object({
  all: z.number().int(),
  favorite: z.number().int(),
  magicshots: z.number().int(),
  shared: z.number().int(),
});
export type AlbumStats = z.infer<typeof AlbumStatsSchema>;

export const FilterOptionsSchema = z.object({
  seatTypes: z.array(z.string()),
  sections: z.array(z.string()),
  rows: z.array(z.string()),
  seats: z.array(z.string()),
  boxes: z.array(z.string()),
  suites: z.array(z.string()),
  customType1: z.array(z.string()),
  customType2: z.array(z.string()),
  customType3: z.array(z.string()),
  cameras: z.array(z.string()),
  overlays: z.array(z.string()),
  sharePlatforms: z.array(z.string()),
  /** Face (image-mining) data exists: the album shows those filters only then. */
  hasFaceData: z.boolean(),
});
export type FilterOptions = z.infer<typeof FilterOptionsSchema>;

const trait = z.object({ Value: z.boolean(), Confidence: z.number() });
/** One face of a photo (spec 1 §3 Face data; fractions and confidences 0-100). */
export const FaceSchema = z.object({
  BoundingBox: z.object({ Top: z.number(), Left: z.number(), Height: z.number(), Width: z.number() }),
  AgeRange: z.object({ Low: z.number(), High: z.number() }),
  Smile: trait,
  Gender: z.object({ Value: z.string(), Confidence: z.number() }),
  Eyeglasses: trait,
  Sunglasses: trait,
  Beard: trait,
  Mustache: trait,
  EyesOpen: trait,
  MouthOpen: trait,
  Emotions: z.array(z.object({ Type: z.string(), Confidence: z.number() })),
});
export type Face = z.infer<typeof FaceSchema>;

export const SNAPSHOT_FIELDS = Object.keys(SnapshotSchema.shape) as [keyof Snapshot, ...(keyof Snapshot)[]];

export const UserStatsSchema = z.object({
  snapshots: z.number().int(),
  srsList: z.array(
    z.object({
      section: z.string(),
      row: z.string(),
      seat: z.string(),
      snapshots: z.number().int(),
      timestamp: z.string(),
    }),
  ),
  socialData: z.array(z.object({ socialSource: z.string(), userName: z.string(), userEmail: z.string().nullable() })),
});
export type UserStats = z.infer<typeof UserStatsSchema>;

const idList = z.array(z.string().min(1).max(100)).min(1).max(MAX_IDS_PER_CALL);
const queryIds = queryList(z.string().min(1).max(100)).pipe(z.array(z.string()).min(1).max(MAX_IDS_PER_CALL));

/** Moderation answers carry the changed photos: a ban gives a photo new URLs. */
export const SnapshotsChangedSchema = z.object({ ok: z.literal(true), snapshots: z.array(SnapshotSchema) });

/**
 * An export password a guess would not find (docs/security.md §7): the console generates 10
 * random letters and digits; the server refuses one under EXPORT_PASSWORD_LENGTH characters,
 * with fewer than 5 different characters, a straight run (abcdefghij, 0123456789) or a
 * well-known one.
 */
export function isWeakExportPassword(password: string): boolean {
  if (password.length < EXPORT_PASSWORD_LENGTH || new Set(password).size < 5) return true;
  const codes = [...password.toLowerCase()].map((c) => c.codePointAt(0)!);
  const step = codes[1] - codes[0];
  if (Math.abs(step) <= 1 && codes.every((c, i) => i === 0 || c - codes[i - 1] === step)) return true;
  return WEAK_PASSWORDS.some((w) => password.toLowerCase().startsWith(w));
}
const WEAK_PASSWORDS = ['password', 'qwertyuiop', 'azertyuiop', 'letmein', 'stadiumcam', 'iloveyou', 'welcome'];

/** The export travels in a POST body: a password in a URL ends up in logs and history. */
export const ExportBodySchema = z
  .strictObject({
    password: z
      .string()
      .max(128)
      .refine((p) => !isWeakExportPassword(p), { message: MSG.album.exportPasswordWeak }),
    slugDate: z.array(text).min(1).max(50).optional(),
    id: z.array(z.string().min(1).max(100)).min(1).max(MAX_IDS_PER_CALL).optional(),
  })
  .refine((q) => (q.slugDate === undefined) !== (q.id === undefined), {
    message: 'Give either slugDate or id',
    path: ['slugDate'],
  });
export type ExportBody = z.infer<typeof ExportBodySchema>;

/** Share mails one user may send per hour (docs/security.md §8). */
export const SHARE_EMAILS_PER_HOUR = 20;
export const SHARE_EMAIL_SUBJECT_MAX = 200;
export const SHARE_EMAIL_BODY_MAX = 5000;
export const ShareSnapshotsEmailSchema = z.strictObject({
  emailAddress: z.email('Please enter a valid e-mail address.').max(320),
  emailSubject: z.string().trim().min(1, 'Subject is required').max(SHARE_EMAIL_SUBJECT_MAX),
  emailBodyText: z.string().trim().min(1, 'Message is required').max(SHARE_EMAIL_BODY_MAX),
  /** Shared links (sharedURI) of the photos: /media URLs of this server. */
  snapshots: z.array(z.string().min(1).max(1000)).min(1).max(100),
});
export type ShareSnapshotsEmail = z.infer<typeof ShareSnapshotsEmailSchema>;

const idParams = z.object({ id: z.string().min(1).max(100) });
/** Ban needs Photos:write, the ban button or EventUsers:write (spec 1 §6, spec 3 §6). */
const BAN_ACCESS = {
  permission: [P.PHOTOS_WRITE, P.BAN_PHOTO_USER, P.EVENT_USERS_WRITE] as Permission[],
  or: true as const,
};
const DELETE_ACCESS = {
  permission: [P.PHOTOS_WRITE, P.DELETE_PHOTO, P.EVENT_USERS_WRITE] as Permission[],
  or: true as const,
};

export const snapshotsRoutes = {
  /** Album page, lightbox and event users table. Magicshot types need Magicshots:read (403). */
  list: defineRoute({
    method: 'GET',
    path: '/api/snapshots',
    permission: 'session',
    query: SnapshotListQuerySchema,
    response: SnapshotListSchema,
  }),
  stats: defineRoute({
    method: 'GET',
    path: '/api/events/snapshots/stats',
    permission: 'session',
    query: SnapshotStatsQuerySchema,
    response: AlbumStatsSchema,
  }),
  filterOptions: defineRoute({
    method: 'GET',
    path: '/api/events/snapshots/filterOptions',
    permission: 'session',
    query: z.strictObject({ slugDate: list.pipe(z.array(text).min(1)) }),
    response: FilterOptionsSchema,
  }),
  /**
   * The event users table as CSV (spec 3 §6: EventUsers:read views and exports): the same
   * filter and sort as the table, every row up to EVENT_USERS_EXPORT_MAX; paging is ignored.
   */
  eventUsersExport: defineRoute({
    method: 'GET',
    audit: 'eventUsers.export',
    path: '/api/snapshots/eventUsers/export',
    permission: P.EVENT_USERS_READ,
    query: SnapshotListQuerySchema,
    response: null,
  }),
  /** Share platforms used in these events (event users filter). */
  sharedPlatforms: defineRoute({
    method: 'GET',
    path: '/api/snapshots/sharedPlatforms',
    permission: 'session',
    query: z.strictObject({ slugDate: list.pipe(z.array(text).min(1)) }),
    response: z.array(z.string()),
  }),
  /** One photo; fields[] limits the answer to those fields (plus _id). */
  get: defineRoute({
    method: 'GET',
    path: '/api/snapshots/:id',
    permission: 'session',
    params: idParams,
    query: z.strictObject({ fields: queryList(z.enum(SNAPSHOT_FIELDS)).optional() }),
    response: SnapshotSchema.partial().extend({ _id: z.string() }),
  }),
  /** Faces are attendees' biometric data: the lightbox vision permission (docs/security.md §6). */
  facesData: defineRoute({
    method: 'GET',
    path: '/api/snapshots/:id/facesData',
    permission: P.VISION_ACCORDITION,
    params: idParams,
    response: z.array(FaceSchema),
  }),
  /**
   * The camera's untouched file (its Exif, GPS included) for the lightbox's Exif card; served
   * media carries no location (docs/security.md §5), so the original is never under /media.
   */
  original: defineRoute({
    method: 'GET',
    audit: 'photo.download',
    path: '/api/snapshots/:id/original',
    permission: P.EXIF_ACCORDITION,
    params: idParams,
    response: null,
  }),
  /**
   * An attendee's photos and shares; 404 "User has no photos." when there are none. The
   * lightbox's User Information card or the event users page; userEmail only with
   * EventUsers:read (docs/security.md §6).
   */
  userStats: defineRoute({
    method: 'GET',
    path: '/api/users/:id/stats',
    permission: [P.USER_INFO_ACCORDITION, P.EVENT_USERS_READ],
    or: true,
    params: idParams,
    query: z.strictObject({ slugDate: list.optional() }),
    response: UserStatsSchema,
  }),
  /** Ban or unban every photo of an attendee (optionally only in these events). */
  banUser: defineRoute({
    method: 'PUT',
    audit: 'photo.banUser',
    path: '/api/snapshots/ban',
    ...BAN_ACCESS,
    body: z.strictObject({
      userId: z.string().min(1).max(100),
      banStatus: z.boolean(),
      slugDate: z.array(text).max(50).optional(),
    }),
    response: SnapshotsChangedSchema,
  }),
  /** Ban (banStatus true), unban (false) or toggle each (banStatus omitted) these photos. */
  ban: defineRoute({
    method: 'POST',
    audit: 'photo.ban',
    path: '/api/snapshots/ban',
    ...BAN_ACCESS,
    body: z.strictObject({ ids: idList, banStatus: z.boolean().optional() }),
    response: SnapshotsChangedSchema,
  }),
  /** Set (favorite given) or toggle each photo's favourite. */
  favorite: defineRoute({
    method: 'POST',
    audit: 'photo.favourite',
    path: '/api/snapshots/favorite',
    permission: P.PHOTOS_WRITE,
    body: z.strictObject({ ids: idList, favorite: z.boolean().optional() }),
    response: SnapshotsChangedSchema,
  }),
  /** Deletes the photos and their media files. */
  remove: defineRoute({
    method: 'POST',
    audit: 'photo.delete',
    path: '/api/snapshots/delete',
    ...DELETE_ACCESS,
    body: z.strictObject({ ids: idList }),
    response: z.object({ ok: z.literal(true), deleted: z.number().int() }),
  }),
  /** AES-256 zip of the raw photos (read with 7z); refused (422) for a live event's export-all. */
  export: defineRoute({
    method: 'POST',
    audit: 'photo.export',
    path: '/api/snapshots/export',
    permission: P.PHOTOS_DOWNLOAD,
    body: ExportBodySchema,
    response: null,
  }),
  /** Plain zip of raw (rawCroppedURI) or overlayed (sharedURI) images. */
  downloadArchive: defineRoute({
    method: 'GET',
    audit: 'photo.archive',
    path: '/api/downloadArchive',
    permission: P.PHOTOS_DOWNLOAD,
    query: z.strictObject({
      type: z.enum(['rawCroppedURI', 'sharedURI']).default('rawCroppedURI'),
      snapshots: queryIds,
    }),
    response: null,
  }),
  shareByEmail: defineRoute({
    method: 'POST',
    audit: 'photo.emailShare',
    path: '/api/email/shareSnapshots',
    permission: P.PHOTOS_EMAIL,
    body: ShareSnapshotsEmailSchema,
    response: OkSchema,
  }),
};
