import { z } from 'zod';
import { MSG } from './messages.ts';
import { P } from './permissions.ts';
import { defineRoute } from './route.ts';

// ---------------------------------------------------------------------------------------
// Analytics (spec 3 §2.4, §3 Analytics buckets, §5, §7; DESIGN §12). Figures and decisions:
// docs/analytics.md.

/** The eight emotions of the vision timeline, in legend order (spec 3 §2.4). */
export const ANALYTICS_EMOTIONS = [
  'angry',
  'calm',
  'confused',
  'disgusted',
  'fear',
  'happy',
  'sad',
  'surprised',
] as const;
export type AnalyticsEmotion = (typeof ANALYTICS_EMOTIONS)[number];
/** The face traits of the vision panels (spec 3 §2.4); `moustache` reads the face's Mustache. */
export const FACE_TRAITS = [
  'beard',
  'eyeglasses',
  'eyesOpen',
  'moustache',
  'mouthOpen',
  'smile',
  'sunglasses',
] as const;
export type FaceTrait = (typeof FACE_TRAITS)[number];
/** Age groups of the vision age panel: a face counts in the group of its range's middle. */
export const AGE_GROUPS = ['0-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
/** Histograms and web-analytics lists show the top 10 (spec 3 §9). */
export const ANALYTICS_TOP = 10;
/** Web-analytics panels (spec 3 §2.4) plus the two first-party extras (screen, page). */
export const WEB_PANELS = [
  'age',
  'gender',
  'country',
  'city',
  'language',
  'interest',
  'device',
  'screen',
  'page',
] as const;
export type WebPanel = (typeof WEB_PANELS)[number];
/** What the attendee app reports; the other panels have no first-party source (DESIGN §12). */
export const PAGE_VIEW_DIMENSIONS = ['device', 'language', 'country', 'screen', 'page'] as const;
export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop'] as const;
/** Where the vision upgrade notice's 'Request a demo' link writes to. */
export const DEMO_REQUEST_MAILTO = 'mailto:sales@stadiumcam.example?subject=Vision%20analytics%20demo';
/** Live refreshes of the basic figures are at most this often (spec 3 issue: no faster than 10 s). */
export const ANALYTICS_LIVE_REFRESH_MS = 10_000;

/** One bar of a chart: a label and its count (spec 3 §2.4: x label and y count). */
export const CountSchema = z.object({ x: z.string(), count: z.number().int() });
export type Count = z.infer<typeof CountSchema>;

export const TimelinePointSchema = z.object({
  /** Start of the bucket (ISO, UTC); the console shows it in the event's time zone. */
  date: z.string(),
  /** Start of the bucket as wall-clock time in the event's zone (YYYY-MM-DD HH:mm). */
  local: z.string(),
  /** Attendees whose first photo of the event falls in this bucket. */
  users: z.number().int(),
  snapshots: z.number().int(),
  shares: z.number().int(),
});
export type TimelinePoint = z.infer<typeof TimelinePointSchema>;

/** The figures a past event is compared on (each gets a percentage change). */
export const FiguresSchema = z.object({
  users: z.number().int(),
  snapshots: z.number().int(),
  shares: z.number().int(),
  /** Percent of users with at least one shared photo. */
  shareRate: z.number(),
  /** Percent of photos shared at least once. */
  photoShareRate: z.number(),
  /** floor(round(average group size, 2) × devices) (spec 3 §5). */
  engagedUsersAverage: z.number().int(),
  /** floor(round(median group size, 2) × devices). */
  engagedUsersMedian: z.number().int(),
});
export type Figures = z.infer<typeof FiguresSchema>;
export const FIGURE_KEYS = Object.keys(FiguresSchema.shape) as (keyof Figures)[];

const EventRefSchema = z.object({
  slugDate: z.string(),
  title: z.string(),
  eventStatus: z.string(),
  timezone: z.string(),
  gameDate: z.string().nullable(),
});

export const BasicAnalyticsSchema = FiguresSchema.extend({
  event: EventRefSchema,
  /** False when the event has no attendee photo: every panel shows its fallback. */
  hasValues: z.boolean(),
  sharedPhotos: z.number().int(),
  sharers: z.number().int(),
  engagedUsers: z.object({
    average: z.number().int(),
    median: z.number().int(),
    averageGroupSize: z.number(),
    medianGroupSize: z.number(),
    /** Photos with face data (the group sizes' sample). */
    photosWithFaces: z.number().int(),
  }),
  overlayUsage: z.array(
    z.object({
      /** The overlay's storage key; null = photos without an overlay. */
      overlay: z.string().nullable(),
      /** Its image, or null when the event no longer has it ('Overlay is not available'). */
      url: z.string().nullable(),
      count: z.number().int(),
      percentage: z.number(),
    }),
  ),
  shareInsights: z.array(z.object({ socialSource: z.string(), count: z.number().int() })),
  timeline: z.object({ bucketMinutes: z.number().int(), points: z.array(TimelinePointSchema) }),
  sections: z.array(CountSchema),
  rows: z.array(CountSchema),
});
export type BasicAnalytics = z.infer<typeof BasicAnalyticsSchema>;

export const EmotionPointSchema = z.object({
  date: z.string(),
  local: z.string(),
  ...Object.fromEntries(ANALYTICS_EMOTIONS.map((e) => [e, z.number().int()])),
} as { date: z.ZodString; local: z.ZodString } & Record<AnalyticsEmotion, z.ZodNumber>);
export type EmotionPoint = z.infer<typeof EmotionPointSchema>;

const TraitSchema = z.object({ yes: z.number().int(), no: z.number().int() });
export const VisionAnalyticsSchema = z.object({
  hasValues: z.boolean(),
  /** Faces found, and photos with face data. */
  faces: z.number().int(),
  photos: z.number().int(),
  ageRange: z.array(CountSchema),
  gender: z.array(CountSchema),
  emotions: z.object({ bucketMinutes: z.number().int(), points: z.array(EmotionPointSchema) }),
  /** Per trait, faces where it was detected with confidence above 60 (yes) or absent (no). */
  traits: z.object(
    Object.fromEntries(FACE_TRAITS.map((t) => [t, TraitSchema])) as Record<FaceTrait, typeof TraitSchema>,
  ),
});
export type VisionAnalytics = z.infer<typeof VisionAnalyticsSchema>;

export const WebAnalyticsSchema = z.object({
  hasValues: z.boolean(),
  pageViews: z.number().int(),
  /** Top 10 per panel; null = no first-party source ('Data not available yet ...'). */
  panels: z.object(
    Object.fromEntries(WEB_PANELS.map((p) => [p, z.array(CountSchema).nullable()])) as Record<
      WebPanel,
      z.ZodNullable<z.ZodArray<typeof CountSchema>>
    >,
  ),
});
export type WebAnalytics = z.infer<typeof WebAnalyticsSchema>;

export const PastEventDataSchema = z.object({
  /** The previous dated event with photos; null when there is none. */
  event: EventRefSchema.nullable(),
  figures: FiguresSchema.nullable(),
  /** Percentage change of each figure against the past event; null when the past figure is 0. */
  change: z.record(z.string(), z.number().nullable()),
});
export type PastEventData = z.infer<typeof PastEventDataSchema>;

const slugParams = z.object({ slugDate: z.string().min(1).max(200) });

/** What a seat heat map counts per seat (issue 32 point 3; docs/analytics.md, Seat heat map). */
export const HEATMAP_METRICS = ['joins', 'photos', 'shares'] as const;
export type HeatmapMetric = (typeof HEATMAP_METRICS)[number];

export const HeatmapQuerySchema = z.object({
  metric: z.enum(HEATMAP_METRICS, { error: MSG.analytics.heatmapMetric }),
  /** Another event to compare with (its counts come as `compareCount`). */
  compare: z.string().min(1).max(200).optional(),
  /** One section's seats (rows × seats); without it only the sections. */
  seatType: z.string().min(1).max(40).optional(),
  section: z.string().min(1).max(40).optional(),
});
export type HeatmapQuery = z.infer<typeof HeatmapQuerySchema>;

const HeatmapEventSchema = z.object({ slugDate: z.string(), title: z.string() });
export const HeatmapSchema = z.object({
  metric: z.enum(HEATMAP_METRICS),
  event: HeatmapEventSchema,
  compare: HeatmapEventSchema.nullable(),
  /**
   * Every section of the seat map plus any other section with counts, in the bowl's order
   * (seat type, then section naturally). `rows` bottom (field) first, `mins..maxs` the seats.
   */
  sections: z.array(
    z.object({
      seatType: z.string(),
      section: z.string(),
      rows: z.array(z.string()),
      mins: z.number().int(),
      maxs: z.number().int(),
      count: z.number().int(),
      /** The compared event's count; null without `compare`. */
      compareCount: z.number().int().nullable(),
    }),
  ),
  /** The asked section's seats with a count in either event (others are 0); null without `section`. */
  seats: z
    .array(
      z.object({
        row: z.string(),
        seat: z.string(),
        count: z.number().int(),
        compareCount: z.number().int().nullable(),
      }),
    )
    .nullable(),
});
export type Heatmap = z.infer<typeof HeatmapSchema>;

/** A cookieless page view of the attendee app (DESIGN §12); no id, no cookie, counts only. */
export const PageViewSchema = z.strictObject({
  slugDate: z.string().min(1).max(200),
  page: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'page: lower-case letters, digits and dashes'),
  device: z.enum(DEVICE_CLASSES),
  /** BCP 47 tag from navigator.language; stored as its language subtag. */
  language: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/, 'language: a BCP 47 tag'),
  /** ISO 3166 region of the browser's locale, when it names one. */
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'country: two capital letters')
    .optional(),
  screen: z.object({ width: z.number().int().min(1).max(20_000), height: z.number().int().min(1).max(20_000) }),
});
export type PageView = z.infer<typeof PageViewSchema>;

export const analyticsRoutes = {
  basic: defineRoute({
    method: 'GET',
    path: '/api/analytics/:slugDate/basic',
    permission: P.ANALYTICS_READ,
    params: slugParams,
    response: BasicAnalyticsSchema,
  }),
  /** First-party web analytics (the spec's "google" call; DESIGN §12). */
  google: defineRoute({
    method: 'GET',
    path: '/api/analytics/:slugDate/google',
    permission: P.ANALYTICS_GA_READ,
    params: slugParams,
    response: WebAnalyticsSchema,
  }),
  /** {product}Vision with product = aws: the face data is in Rekognition's format. */
  vision: defineRoute({
    method: 'GET',
    path: '/api/analytics/:slugDate/awsVision',
    permission: P.ANALYTICS_VISION_READ,
    params: slugParams,
    response: VisionAnalyticsSchema,
  }),
  pastEventData: defineRoute({
    method: 'GET',
    path: '/api/analytics/:slugDate/pastEventData',
    permission: P.ANALYTICS_READ,
    params: slugParams,
    response: PastEventDataSchema,
  }),
  /** Per-seat (and per-section) joins, photos or shares, read from the seat roll-up. */
  heatmap: defineRoute({
    method: 'GET',
    path: '/api/analytics/:slugDate/heatmap',
    permission: P.ANALYTICS_READ,
    params: slugParams,
    query: HeatmapQuerySchema,
    response: HeatmapSchema,
  }),
  /** CSV of every panel the caller may read; refused (422) while the event is live. */
  export: defineRoute({
    method: 'GET',
    audit: 'analytics.export',
    path: '/api/analytics/:slugDate/export',
    permission: P.ANALYTICS_READ,
    params: slugParams,
    response: null,
  }),
  /** The attendee app's page views; 204. Rate-limited like every /api/public route. */
  pageView: defineRoute({
    method: 'POST',
    path: '/api/public/pageView',
    public: true,
    body: PageViewSchema,
    response: null,
  }),
};
