/**
 * An event's configuration (`events.config`, DESIGN §10) as stored: every field with the schema
 * its template screen saves it with, and the value a fresh master template starts with. The
 * server's one writer (modules/template/event-config.service.ts) writes only values these
 * schemas accept, and every read parses the stored value with them (`readEventConfig`).
 */
import { z } from 'zod';
import { SlideshowSettingsSchema } from './slideshow.contract.ts';
import {
  ColorsSchema,
  DEFAULT_COLORS,
  ImagesPartSchema,
  LanguagesPartSchema,
  ScreenshotSchema,
  defaultLanguageTable,
} from './template.contract.ts';
import {
  GeofenceSchema,
  OverlaysSchema,
  SeatOptionsPartSchema,
  ShareSchema,
  TriviaQuestionSchema,
} from './template-parts.contract.ts';

/** language → questions (spec 2 §7); the _id is the question text (`triviaId`). */
export const TriviaQuestionsSchema = z.record(
  z.string().regex(/^[a-z][a-z_-]{0,39}$/),
  z.array(TriviaQuestionSchema).max(1000),
);

/** Every stored field and its schema: the screens' part schemas, field by field. */
export const EVENT_CONFIG_FIELDS = {
  overlays: OverlaysSchema,
  languages: LanguagesPartSchema.shape.languages,
  availableLanguages: LanguagesPartSchema.shape.availableLanguages,
  defaultLanguage: LanguagesPartSchema.shape.defaultLanguage,
  images: ImagesPartSchema.shape.images,
  venueType: ImagesPartSchema.shape.venueType,
  theme: ColorsSchema.shape.theme,
  iconColor: ColorsSchema.shape.iconColor,
  emailSettings: ColorsSchema.shape.emailSettings,
  slideshowColor: ColorsSchema.shape.slideshowColor,
  seatType: SeatOptionsPartSchema.shape.seatType,
  blockedSeats: SeatOptionsPartSchema.shape.blockedSeats,
  screenshots: z.array(ScreenshotSchema).max(50),
  screenshotsHash: z.string().max(64),
  triviaEnabled: z.boolean(),
  triviaQuestions: TriviaQuestionsSchema,
  slideshow: SlideshowSettingsSchema,
  share: ShareSchema,
  geofence: GeofenceSchema,
} as const;
export type EventConfigField = keyof typeof EVENT_CONFIG_FIELDS;
export type EventConfig = { [F in EventConfigField]: z.output<(typeof EVENT_CONFIG_FIELDS)[F]> };
export const EVENT_CONFIG_FIELD_NAMES = Object.keys(EVENT_CONFIG_FIELDS) as EventConfigField[];

/** The configuration a fresh master template starts with (spec 2 §3 defaults). */
export function defaultEventConfig(): EventConfig {
  return {
    overlays: [],
    availableLanguages: ['english'],
    // The attendee app's English texts are the initial table (DESIGN §10).
    languages: defaultLanguageTable(),
    defaultLanguage: 'english',
    images: {},
    venueType: 'stadium',
    ...structuredClone(DEFAULT_COLORS),
    seatType: [],
    blockedSeats: [],
    screenshots: [],
    screenshotsHash: '',
    triviaEnabled: false,
    triviaQuestions: {},
    slideshow: { transitionTime: 5000, transitionDuration: 1000, animation: 'ease-in-out', backgroundColor: '#ffffff' },
    share: [
      { platform: 'download', enabled: true },
      { platform: 'email', enabled: true },
      { platform: 'share', enabled: true },
      { platform: 'print', enabled: false },
    ],
    geofence: { enabled: false, address: '', radius: 0, latitude: 0, longitude: 0, locations: [] },
  };
}

/**
 * A stored configuration, parsed field by field: a missing field is its default; a field that
 * no longer parses is its default too and is named in `rejected` (the caller logs it), never
 * cast. Unknown stored keys are dropped.
 */
export function readEventConfig(stored: unknown): { config: EventConfig; rejected: EventConfigField[] } {
  const raw = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const config = defaultEventConfig() as Record<EventConfigField, unknown>;
  const rejected: EventConfigField[] = [];
  for (const field of EVENT_CONFIG_FIELD_NAMES) {
    if (raw[field] === undefined) continue;
    const parsed = EVENT_CONFIG_FIELDS[field].safeParse(raw[field]);
    if (parsed.success) config[field] = parsed.data;
    else rejected.push(field);
  }
  return { config: config as EventConfig, rejected };
}

/** Checks fields about to be written (a writer's own mistake throws: nothing is written). */
export function checkEventConfigFields(fields: Partial<EventConfig>): Partial<EventConfig> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    const schema = EVENT_CONFIG_FIELDS[field as EventConfigField] as z.ZodType | undefined;
    if (!schema) throw new Error(`unknown configuration field "${field}"`);
    out[field] = schema.parse(value);
  }
  return out;
}
