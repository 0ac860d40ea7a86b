import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Archiver } from 'archiver';
import { z } from 'zod';
import {
  AMP_FORMAT,
  AMP_FORMAT_VERSION,
  AmpManifestSchema,
  ColorsSchema,
  GeofenceSchema,
  MSG,
  OverlaysSchema,
  SeatOptionsPartSchema,
  ShareSchema,
  SlideshowSettingsSchema,
  TriviaQuestionSchema,
  type AmpManifest,
  type Event,
  type Overlay,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../errors.ts';
import { isSafeKey, keyOfUrl } from '../../media/media-store.ts';
import { probeImage } from '../../media/images.ts';
import { refuseForbiddenChars } from '../../plugins/forbidden-chars.ts';
import { getEventBySlugDate } from '../events/events.service.ts';
import { toEvent } from '../events/events.mapper.ts';
import { badAmp, readAmpZip } from './amp.zip.ts';
import { findEventRowsById, mergeConfigs } from './template-parts.repository.ts';

/**
 * The configuration parts an .amp carries (DESIGN §10). Parts of this issue are checked by
 * their schemas; the others only as JSON of a bounded size.
 */
const PARTS = {
  availableLanguages: z.array(z.string().max(40)).max(50),
  languages: z.record(z.string(), z.unknown()),
  defaultLanguage: z.string().max(40),
  images: z.record(z.string(), z.unknown()),
  venueType: z.string().max(20),
  theme: z.record(z.string(), z.unknown()),
  iconColor: z.record(z.string(), z.unknown()),
  emailSettings: z.record(z.string(), z.unknown()),
  slideshowColor: ColorsSchema.shape.slideshowColor,
  overlays: OverlaysSchema,
  share: ShareSchema,
  geofence: GeofenceSchema,
  seatType: SeatOptionsPartSchema.shape.seatType,
  blockedSeats: SeatOptionsPartSchema.shape.blockedSeats,
  triviaEnabled: z.boolean(),
  triviaQuestions: z.record(z.string().regex(/^[a-z][a-z_-]{0,39}$/), z.array(TriviaQuestionSchema).max(1000)),
  slideshow: SlideshowSettingsSchema.partial(),
  startTime: z.string().max(40).nullable(),
  endTime: z.string().max(40).nullable(),
} as const;
type PartName = keyof typeof PARTS;
const PART_NAMES = Object.keys(PARTS) as PartName[];
/** Parts an import writes into the event's configuration (times belong to the event row). */
const CONFIG_PARTS = PART_NAMES.filter((p) => p !== 'startTime' && p !== 'endTime');
const EventPartsSchema = z.strictObject(PARTS).partial();

/** Written into every manifest; import checks the format version, not this. */
const APP_VERSION = '0.1.0';

const require = createRequire(import.meta.url);
const archiver = require('archiver') as { create: (f: string, o: Record<string, unknown>) => Archiver };

/** Every `/media/...` URL inside a value (graphics, overlays, banner...). */
function mediaUrls(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (value.startsWith('/media/')) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) mediaUrls(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) mediaUrls(v, out);
  }
  return out;
}

/** The same value with every media URL replaced through `map`. */
function rewriteUrls(value: unknown, map: Map<string, string>): unknown {
  if (typeof value === 'string') return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => rewriteUrls(v, map));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteUrls(v, map)]));
  return value;
}

export type ExportOptions = {
  triviaEnabled: boolean;
  disabledEventFields: AmpManifest['options']['disabledEventFields'];
};

/** The parts of an event that an export with these options carries. */
export function exportParts(event: Event, options: ExportOptions): Record<string, unknown> {
  const skip = new Set<string>(options.disabledEventFields);
  if (!options.triviaEnabled) skip.add('triviaEnabled').add('triviaQuestions');
  const parts: Record<string, unknown> = {};
  for (const name of PART_NAMES) {
    if (skip.has(name) || event[name] === undefined) continue;
    parts[name] = event[name];
  }
  return parts;
}

/** Streams the event's .amp: manifest.json, event.json and media/<key> for every media URL. */
export async function exportAmp(
  deps: Deps,
  slugDate: string,
  options: ExportOptions,
): Promise<{ zip: Archiver; filename: string }> {
  const event = await getEventBySlugDate(deps, slugDate);
  if (!event) throw notFound(MSG.events.eventNotFound);
  const parts = exportParts(event, options);
  const media: string[] = [];
  const files: { name: string; data: Buffer }[] = [];
  for (const url of mediaUrls(parts)) {
    const key = keyOfUrl(url);
    if (!key) continue;
    try {
      files.push({ name: `media/${key}`, data: await deps.media.read(key) });
      media.push(key);
    } catch (err) {
      // The S3 store down fails the export; a missing file is left out.
      if (err instanceof AppError) throw err;
      deps.log.warn({ key }, 'export: media file missing, left out');
    }
  }
  const manifest: AmpManifest = {
    format: AMP_FORMAT,
    formatVersion: AMP_FORMAT_VERSION,
    appVersion: APP_VERSION,
    exportedAt: new Date().toISOString(),
    slugDate,
    options: { triviaEnabled: options.triviaEnabled, disabledEventFields: options.disabledEventFields },
    media,
  };
  const zip = archiver.create('zip', { zlib: { level: 6 } });
  zip.append(JSON.stringify(manifest, null, 2), { name: 'manifest.json' });
  zip.append(JSON.stringify(parts, null, 2), { name: 'event.json' });
  for (const f of files) zip.append(f.data, { name: f.name });
  void zip.finalize();
  return { zip, filename: `${slugDate}.amp` };
}

function parseJson(files: Map<string, Buffer>, name: string): unknown {
  const data = files.get(name);
  if (!data) throw badAmp(`${name} is missing`);
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    throw badAmp(`${name} is not valid JSON`);
  }
  // The input rule of every route (docs/security.md §10): the parts go into jsonb, where
  // PostgreSQL refuses \u0000, and names with bidi overrides would display as something else.
  refuseForbiddenChars([value], name);
  return value;
}

/** Reads and checks a whole .amp; throws before anything is written. */
export async function readAmp(buf: Buffer): Promise<{
  manifest: AmpManifest;
  parts: z.infer<typeof EventPartsSchema>;
  media: Map<string, Buffer>;
}> {
  const files = readAmpZip(buf);
  const manifest = AmpManifestSchema.safeParse(parseJson(files, 'manifest.json'));
  if (!manifest.success) throw badAmp(manifest.error.issues.map((i) => i.message).join('; '));
  const parts = EventPartsSchema.safeParse(parseJson(files, 'event.json'));
  if (!parts.success)
    throw badAmp(parts.error.issues.map((i) => `${i.path.join('.') || 'event.json'}: ${i.message}`).join('; '));
  const media = new Map<string, Buffer>();
  for (const [name, data] of files) {
    if (name === 'manifest.json' || name === 'event.json') continue;
    const key = name.startsWith('media/') ? name.slice('media/'.length) : '';
    if (!key || !isSafeKey(key) || !manifest.data.media.includes(key)) throw badAmp(`unexpected entry "${name}"`);
    media.set(key, data);
  }
  for (const key of manifest.data.media) if (!media.has(key)) throw badAmp(`media/${key} is missing`);
  for (const url of mediaUrls(parts.data)) {
    const key = keyOfUrl(url);
    if (!key || !media.has(key)) throw badAmp(`${url} is not in the archive`);
  }
  // Media are images checked on their pixels (the same probe as every upload).
  for (const [key, data] of media) {
    try {
      await probeImage(data);
    } catch {
      throw badAmp(`media/${key} is not a JPEG, PNG or WebP image`);
    }
  }
  return { manifest: manifest.data, parts: parts.data, media };
}

/** Applies a checked .amp to every listed event in one transaction; media get fresh keys. */
export async function importAmp(deps: Deps, buf: Buffer, eventIds: string[]): Promise<string[]> {
  const { parts, media } = await readAmp(buf);
  const rows = await findEventRowsById(deps.db, [...new Set(eventIds)]);
  if (rows.length !== new Set(eventIds).size) throw notFound(MSG.events.eventNotFound);
  // New keys: an import never overwrites media another event uses.
  const batch = `imports/${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const urls = new Map<string, string>();
  // The batch is new: on a failed write or merge all of it goes, and no event names any of it.
  const dropBatch = (err: unknown) =>
    deps.media
      .removeFolder(batch)
      .catch(() => undefined)
      .then(() => Promise.reject(err as Error));
  try {
    for (const [key, data] of media) urls.set(`/media/${key}`, await deps.media.put(`${batch}/${key}`, data));
  } catch (err) {
    return dropBatch(err);
  }
  const config: Record<string, unknown> = {};
  for (const name of CONFIG_PARTS) if (parts[name] !== undefined) config[name] = rewriteUrls(parts[name], urls);
  // An overlay's storage key names its file: the imported copy's, so the target can save it again.
  if (Array.isArray(config.overlays))
    config.overlays = (config.overlays as Overlay[]).map((o) => ({
      ...o,
      storageKey: keyOfUrl(o.urlFullSize) ?? o.storageKey,
    }));
  const updated = await mergeConfigs(
    deps.db,
    rows.map((r) => ({ id: r.id, parts: config })),
  ).catch(dropBatch);
  for (const row of updated) {
    deps.realtime.consoles.emit('monitor event updated', { slugDate: row.slugDate, event: toEvent(row) });
  }
  return updated.map((r) => r.id);
}
