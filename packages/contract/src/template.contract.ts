import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P } from './permissions.ts';
import { MSG, type TextKey } from './messages.ts';
import { ATTENDEE_TEXTS, HTML_TEXT_MAX } from './attendee-texts.ts';
import { TEMPLATE_PARTS_2 } from './template-parts.contract.ts';
import { languageCode } from './language-codes.ts';

/*
 * The template configuration (spec 2, DESIGN §10): one zod schema per configuration part, one
 * save route per part `{ eventIds, ...part }` applied to every selected event in one
 * transaction. A new part is a new schema + route + TEMPLATE_PARTS entry here, and one entry
 * in the server's part registry (apps/server/src/modules/template/server-parts.ts).
 */

/** The events a save applies to (`_id`s; the master template's too). */
export const EventIdsSchema = z.array(z.string().min(1).max(100)).min(1, 'Select at least one event').max(500);

const withEventIds = <S extends z.ZodObject>(part: S) => part.extend({ eventIds: EventIdsSchema });

/* ---------- languages (spec 2 §2 Text Settings, §3 Language row) ---------- */

/** Names that would collide with the table's own columns (CSV, rows). */
export const RESERVED_LANGUAGE_NAMES = ['key', 'description', 'maxlength', 'html', 'state', 'index'];
export const LanguageNameSchema = z
  .string()
  .trim()
  .min(1, 'Language is required')
  .max(40)
  .refine((n) => !RESERVED_LANGUAGE_NAMES.includes(n.toLowerCase()), 'This name is reserved')
  // A BCP 47 code of a known language (or a former table's English name of one): `<html lang>`.
  .refine((n) => languageCode(n) !== undefined, MSG.template.notALanguageCode);

/**
 * One row of the table: the text of each language for one key. description/maxLength/html come
 * from the app's catalogue (ATTENDEE_TEXTS); the server writes them, whatever was sent.
 */
export const LanguageRowSchema = z.strictObject({
  description: z.string().max(200),
  maxLength: z.number().int().min(1).max(HTML_TEXT_MAX),
  html: z.boolean().optional(),
  texts: z.record(z.string().max(40), z.string().max(HTML_TEXT_MAX)),
});
export type LanguageRow = z.infer<typeof LanguageRowSchema>;

export const LanguagesPartSchema = z.strictObject({
  /** key → row. */
  languages: z.record(z.string().max(100), LanguageRowSchema),
  availableLanguages: z.array(LanguageNameSchema).min(1).max(30),
  defaultLanguage: LanguageNameSchema,
});
export type LanguagesPart = z.infer<typeof LanguagesPartSchema>;

/** The template's initial table: the app's English defaults (DESIGN §10). */
export function defaultLanguageTable(): Record<string, LanguageRow> {
  return Object.fromEntries(
    Object.entries(ATTENDEE_TEXTS).map(([key, d]) => [
      key,
      {
        description: d.description,
        maxLength: d.maxLength,
        ...('html' in d ? { html: true } : {}),
        texts: { english: d.english },
      },
    ]),
  );
}

/* ---------- graphics (spec 2 §2 Graphics, §5 Image uploads) ---------- */

export const IMAGE_KEYS = ['frontPage', 'logo', 'slideshowBanner', 'watermark', 'seo', 'srsIcon'] as const;
export type ImageKey = (typeof IMAGE_KEYS)[number];
export const ImageKeySchema = z.enum(IMAGE_KEYS);
export const VENUE_TYPES = ['arena', 'stadium', 'zone'] as const;
export type VenueType = (typeof VENUE_TYPES)[number];

/** Accepted upload types (checked on the real bytes by the server). */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Byte ceiling of any template image, before the per-key rules (the upload is refused unread above it). */
export const MAX_TEMPLATE_IMAGE_BYTES = 2 * 1024 * 1024;
/** Pixel ceiling handed to sharp (limitInputPixels). */
export const MAX_TEMPLATE_IMAGE_PIXELS = 25_000_000;

const MEDIA_URL = /^\/media\/[A-Za-z0-9][A-Za-z0-9._/-]{0,300}$/;
const MediaUrlSchema = z.string().max(320).regex(MEDIA_URL, 'Not a media URL');

export type ImageUrlKey = `${ImageKey}Url` | `${ImageKey}RawUrl`;
export const IMAGE_URL_KEYS = IMAGE_KEYS.flatMap((k) => [`${k}Url`, `${k}RawUrl`]) as ImageUrlKey[];

/** `{key}Url` (served, metadata stripped) and `{key}RawUrl` (the file as uploaded). */
export const ImagesSchema = z.partialRecord(z.enum(IMAGE_URL_KEYS as [ImageUrlKey, ...ImageUrlKey[]]), MediaUrlSchema);
export type Images = z.infer<typeof ImagesSchema>;

export const ImagesPartSchema = z.strictObject({ images: ImagesSchema, venueType: z.enum(VENUE_TYPES) });
export type ImagesPart = z.infer<typeof ImagesPartSchema>;

export const ImageUploadAnswerSchema = z.object({
  key: ImageKeySchema,
  /** The file's id in the media store (the `{id}` of the delete call). */
  id: z.string(),
  url: z.string(),
  rawUrl: z.string(),
  width: z.number(),
  height: z.number(),
  bytes: z.number(),
});
export type ImageUploadAnswer = z.infer<typeof ImageUploadAnswerSchema>;

export const IMAGE_MSG = MSG.templateImages;

/** The section list of the Graphics page: label and the displayed guideline (help text only). */
export const IMAGE_SECTIONS: { key: ImageKey; label: string; guideline: string }[] = [
  { key: 'frontPage', label: 'Front Image', guideline: 'At least 1280x720 (9:16), WebP, up to 180 KB.' },
  {
    key: 'logo',
    label: 'Email Header',
    guideline: 'At least 600x300 (2:1 or 3:2 preferred), JPEG or PNG, up to 150 KB.',
  },
  { key: 'slideshowBanner', label: 'Slideshow Banner', guideline: '1920x180, JPEG or PNG, up to 150 KB.' },
  { key: 'watermark', label: 'Watermark', guideline: '500x500, PNG, up to 50 KB.' },
  { key: 'seo', label: 'SEO Image', guideline: 'Square, JPEG or PNG.' },
  { key: 'srsIcon', label: 'SRS Icon', guideline: 'Square, PNG with transparency.' },
];

/**
 * The checks of spec 2 §5 (DESIGN §6: enforced by console and server; the guidelines above are
 * only help). Answers the first broken rule's key in `IMAGE_MSG` (its text; the server's
 * error code), or null.
 */
export function checkImageRules(
  key: ImageKey,
  img: { width: number; height: number; bytes: number },
): TextKey<typeof IMAGE_MSG> | null {
  const { width: w, height: h, bytes } = img;
  switch (key) {
    case 'watermark':
      if (w !== h) return 'watermarkSquare';
      if (w < 1080 || w > 2160) return 'watermarkDimensions';
      if (bytes > 150_000) return 'watermarkTooLarge';
      return null;
    case 'frontPage':
      if (w < 720 || h < 1280) return 'frontPageMin';
      if (bytes > 180_000) return 'frontPageTooLarge';
      if (h / w < 16 / 9) return 'frontPageAspect';
      return null;
    case 'logo':
      if (w < 600 || h < 300) return 'logoMin';
      if (bytes > 150_000) return 'logoTooLarge';
      if (w / h < 16 / 9) return 'logoAspect';
      return null;
    case 'slideshowBanner':
      return w === 1920 && h === 180 ? null : 'slideshowBannerSize';
    case 'seo':
    case 'srsIcon':
      return null;
  }
}

/* ---------- colours (spec 2 §3 Colours, §5 Colours import) ---------- */

export const HEX_COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
export const HexColorSchema = z.string().regex(HEX_COLOR, 'A colour is # and 3 or 6 hex digits');

export const THEME_KEYS = [
  'backgroundColor',
  'primaryColor',
  'secondaryColor',
  'activeColor',
  'downloadButtonColor',
  'emailButtonColor',
  'webShareButtonColor',
  'ptzControlButtonColor',
  'ptzControlIconColor',
  'cameraButtonColor',
  'cameraIconColor',
  'mainTextColor',
  'primaryTextColor',
  'secondaryTextColor',
  'activeTextColor',
  'shimmerBaseColor',
  'shimmerAccentColor',
] as const;
export const ICON_COLOR_KEYS = [
  'cloudBackground',
  'mapGrid',
  'cameraLens',
  'stadiumSeats',
  'stadiumWalls',
  'stadiumDoors',
  'stadiumFlags',
  'circleZone',
  'circleZoneMan',
  'successCircle',
  'errorCircle',
] as const;
export const EMAIL_COLOR_KEYS = [
  'bodyBgColor',
  'bodyTextColor',
  'buttonColor',
  'buttonTextColor',
  'headerBgColor',
  'headerTextColor',
] as const;

const hexObject = <const K extends readonly string[]>(keys: K) =>
  z.strictObject(
    Object.fromEntries(keys.map((k) => [k, HexColorSchema])) as { [P in K[number]]: typeof HexColorSchema },
  );

export const ThemeSchema = hexObject(THEME_KEYS);
export const IconColorSchema = hexObject(ICON_COLOR_KEYS);
export const EmailSettingsSchema = hexObject(EMAIL_COLOR_KEYS);
export type Theme = z.infer<typeof ThemeSchema>;
export type IconColor = z.infer<typeof IconColorSchema>;
export type EmailSettings = z.infer<typeof EmailSettingsSchema>;

export const ColorsSchema = z.strictObject({
  theme: ThemeSchema,
  iconColor: IconColorSchema,
  emailSettings: EmailSettingsSchema,
  slideshowColor: HexColorSchema,
});
export type Colors = z.infer<typeof ColorsSchema>;

export const ColorsPartSchema = z.strictObject({ colors: ColorsSchema });
export type ColorsPart = z.infer<typeof ColorsPartSchema>;

export const DEFAULT_COLORS: Colors = {
  theme: {
    backgroundColor: '#0b1f3a',
    primaryColor: '#1c6dd0',
    secondaryColor: '#13315c',
    activeColor: '#f5b700',
    downloadButtonColor: '#1c6dd0',
    emailButtonColor: '#13315c',
    // White text on it reads 5.2:1 (the former #2a9d8f: 3.3:1, under WCAG's 4.5:1).
    webShareButtonColor: '#1f7a6f',
    ptzControlButtonColor: '#13315c',
    ptzControlIconColor: '#ffffff',
    cameraButtonColor: '#f5b700',
    cameraIconColor: '#0b1f3a',
    mainTextColor: '#ffffff',
    primaryTextColor: '#ffffff',
    secondaryTextColor: '#b8c4d6',
    activeTextColor: '#0b1f3a',
    shimmerBaseColor: '#13315c',
    shimmerAccentColor: '#1f4a85',
  },
  iconColor: {
    cloudBackground: '#dfe9f5',
    mapGrid: '#9fb3c8',
    cameraLens: '#1c6dd0',
    stadiumSeats: '#1c6dd0',
    stadiumWalls: '#13315c',
    stadiumDoors: '#f5b700',
    stadiumFlags: '#e63946',
    circleZone: '#2a9d8f',
    circleZoneMan: '#0b1f3a',
    successCircle: '#2a9d8f',
    errorCircle: '#e63946',
  },
  emailSettings: {
    bodyBgColor: '#f4f6fa',
    bodyTextColor: '#1b2430',
    buttonColor: '#1c6dd0',
    buttonTextColor: '#ffffff',
    headerBgColor: '#0b1f3a',
    headerTextColor: '#ffffff',
  },
  slideshowColor: '#000000',
};

export const COLORS_MSG = MSG.templateColors;

/** The colour-page preview groups (spec 2 §2), in carousel order. */
export const PREVIEW_GROUPS = ['Main Colors', 'Onboarding', 'SRS', 'Photo-Taking', 'Album', 'Share', 'Email'] as const;
export const ScreenshotSchema = z.strictObject({
  group: z.enum(PREVIEW_GROUPS),
  /** An attendee-app screen name (`landing`, `seat`, ...) or `email`. */
  screen: z.string().min(1).max(40),
  title: z.string().max(80),
});
export type Screenshot = z.infer<typeof ScreenshotSchema>;

export const ScreenshotsPartSchema = z.strictObject({
  /** sha-256 (hex) of the colours the list was made with. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  screenshots: z.array(ScreenshotSchema).max(50),
});

export const ScreenshotsPreviewSchema = z.strictObject({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  screenshots: z.array(ScreenshotSchema).max(50),
  slugDate: z.string().min(1).max(100),
  theme: ThemeSchema,
  iconColor: IconColorSchema,
  emailSettings: EmailSettingsSchema,
});
export const ScreenshotsPreviewAnswerSchema = z.object({
  hash: z.string(),
  /** false when this hash was seen before and the answer came from the cache. */
  fresh: z.boolean(),
  screenshots: z.array(ScreenshotSchema.extend({ url: z.string() })),
});

/* ---------- the part registry ---------- */

/**
 * A configuration part: its save route, the event fields it writes, and how the stored fields
 * map to the part's value (identity unless the spec's payload nests them, as colours do).
 */
export type TemplatePartDef<S extends z.ZodObject = z.ZodObject> = {
  schema: S;
  /** The event fields this part owns. */
  fields: readonly string[];
  toFields?: (value: z.output<S>) => Record<string, unknown>;
  fromFields?: (fields: Record<string, unknown>) => z.input<S>;
};

export const templateRoutes = {
  /** The language path (spec 2 §7): answers all three fields. */
  languages: defineRoute({
    method: 'PATCH',
    audit: 'template.languages',
    path: '/api/events/languages',
    permission: P.TEMPLATE,
    body: withEventIds(LanguagesPartSchema),
    response: LanguagesPartSchema,
  }),
  images: defineRoute({
    method: 'PATCH',
    audit: 'template.images',
    path: '/api/events/images',
    permission: [P.GRAPHICS, P.TEMPLATE],
    or: true,
    body: withEventIds(ImagesPartSchema),
    response: ImagesPartSchema,
  }),
  colors: defineRoute({
    method: 'PATCH',
    audit: 'template.colors',
    path: '/api/events/colors',
    permission: P.TEMPLATE,
    body: withEventIds(ColorsPartSchema),
    response: ColorsPartSchema,
  }),
  screenshots: defineRoute({
    method: 'POST',
    audit: 'template.screenshots',
    path: '/api/events/screenshots',
    permission: P.TEMPLATE,
    body: withEventIds(ScreenshotsPartSchema),
    response: ScreenshotsPartSchema,
  }),
  screenshotsPreview: defineRoute({
    method: 'POST',
    path: '/api/events/screenshots/preview',
    permission: P.TEMPLATE,
    body: ScreenshotsPreviewSchema,
    response: ScreenshotsPreviewAnswerSchema,
  }),
  /** Multipart field `image`; stores the file only (saved into the event by PATCH events/images). */
  uploadImage: defineRoute({
    method: 'POST',
    audit: 'template.imageUpload',
    path: '/api/events/:slugDate/images/:key',
    permission: [P.GRAPHICS, P.TEMPLATE],
    or: true,
    multipart: true,
    params: z.object({ slugDate: z.string().min(1).max(100), key: ImageKeySchema }),
    response: ImageUploadAnswerSchema,
  }),
  /** Removes an uploaded file no event uses any more; 204. */
  deleteImage: defineRoute({
    method: 'DELETE',
    audit: 'template.imageDelete',
    path: '/api/events/:slugDate/images/:id/:key',
    permission: [P.GRAPHICS, P.TEMPLATE],
    or: true,
    params: z.object({
      slugDate: z.string().min(1).max(100),
      id: z.string().regex(/^[a-f0-9]{8,64}$/),
      key: ImageKeySchema,
    }),
    response: null,
  }),
};

/** Every save-by-eventIds part: its route, schema and the event fields it owns. */
export const TEMPLATE_PARTS = {
  // Overlays, share, geofence, seat options, trivia, slideshow (issue 12).
  ...TEMPLATE_PARTS_2,
  languages: {
    route: templateRoutes.languages,
    schema: LanguagesPartSchema,
    fields: ['languages', 'availableLanguages', 'defaultLanguage'],
  },
  images: { route: templateRoutes.images, schema: ImagesPartSchema, fields: ['images', 'venueType'] },
  colors: {
    route: templateRoutes.colors,
    schema: ColorsPartSchema,
    fields: ['theme', 'iconColor', 'emailSettings', 'slideshowColor'],
    toFields: (v: ColorsPart) => ({ ...v.colors }),
    fromFields: (f: Record<string, unknown>) => ({ colors: f as Colors }),
  },
  screenshots: {
    route: templateRoutes.screenshots,
    schema: ScreenshotsPartSchema,
    fields: ['screenshots', 'screenshotsHash'],
    toFields: (v: z.infer<typeof ScreenshotsPartSchema>) => ({ screenshots: v.screenshots, screenshotsHash: v.hash }),
    fromFields: (f: Record<string, unknown>) => ({
      screenshots: f.screenshots as Screenshot[],
      hash: f.screenshotsHash as string,
    }),
  },
} as const;
export type TemplatePartName = keyof typeof TEMPLATE_PARTS;

/** The part's value as stored in an event (for a screen's form). */
export function partFromEvent<N extends TemplatePartName>(
  name: N,
  event: Record<string, unknown>,
): z.input<(typeof TEMPLATE_PARTS)[N]['schema']> {
  const def = TEMPLATE_PARTS[name] as TemplatePartDef & { route: unknown };
  const fields = Object.fromEntries(def.fields.map((f) => [f, event[f]]));
  return (def.fromFields ? def.fromFields(fields) : fields) as z.input<(typeof TEMPLATE_PARTS)[N]['schema']>;
}

/** The event fields a part's value writes. */
export function partToFields(name: TemplatePartName, value: Record<string, unknown>): Record<string, unknown> {
  const def = TEMPLATE_PARTS[name] as unknown as TemplatePartDef;
  return def.toFields ? def.toFields(value) : Object.fromEntries(def.fields.map((f) => [f, value[f]]));
}

/* ---------- what the attendee app reads (GET /api/public/event) ---------- */

/**
 * The configuration parts the attendee app reads (DESIGN §10). Parts another screen owns
 * (share, seat options, geofence, trivia) pass through loosely until their screens define them.
 */
export const PublicTemplateSchema = z.object({
  /** Changes with every save: the app compares it to know it is up to date. */
  version: z.string(),
  languages: z.record(z.string(), z.object({ html: z.boolean().optional(), texts: z.record(z.string(), z.string()) })),
  availableLanguages: z.array(z.string()),
  defaultLanguage: z.string(),
  images: z.record(z.string(), z.string()),
  venueType: z.string(),
  theme: z.record(z.string(), z.string()),
  iconColor: z.record(z.string(), z.string()),
  share: z.array(z.unknown()),
  seatType: z.array(z.unknown()),
  blockedSeats: z.array(z.unknown()),
  geofence: z.record(z.string(), z.unknown()),
  triviaEnabled: z.boolean(),
});
export type PublicTemplate = z.infer<typeof PublicTemplateSchema>;

/** The attendee-app screens the colours page previews, by group (`email` = the photo e-mail). */
export const PREVIEW_SCREENS: Screenshot[] = [
  { group: 'Main Colors', screen: 'landing', title: 'Front page' },
  { group: 'Onboarding', screen: 'landing', title: 'Language and start' },
  { group: 'SRS', screen: 'seat', title: 'Seat entry' },
  { group: 'Photo-Taking', screen: 'queue', title: 'Queue' },
  { group: 'Photo-Taking', screen: 'photo/preview', title: 'Photo and frames' },
  { group: 'Album', screen: 'album', title: 'My photos' },
  { group: 'Share', screen: 'share/preview', title: 'Share' },
  { group: 'Email', screen: 'email', title: 'Photo e-mail' },
];

/** Where a preview frame opens the real app (`email` is rendered by the console itself). */
export const previewUrl = (slugDate: string, screen: string): string =>
  screen === 'email' ? '' : `/app/?preview=1&event=${encodeURIComponent(slugDate)}#/${screen}`;
