import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Archiver } from 'archiver';
import { z } from 'zod';
import {
  AMP_FORMAT,
  AMP_FORMAT_VERSION,
  AmpManifestSchema,
  IMAGE_KEYS,
  TEMPLATE_PARTS,
  TriviaQuestionsSchema,
  partFromEvent,
  triviaId,
  type AmpManifest,
  type Event,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, notFound, ERR } from '../../errors.ts';
import { isSafeKey, keyOfUrl } from '../../media/media-store.ts';
import { refuseForbiddenChars } from '../../plugins/forbidden-chars.ts';
import { getEventBySlugDate } from '../events/index.ts';
import { badAmp, readAmpZip } from './amp.zip.ts';
import { writeEventConfigs, type ConfigFields } from './event-config.service.ts';
import { encodeOverlay, overlayKey } from './overlays.service.ts';
import { encodeTemplateImage, putImagePair } from './template.images.ts';
import { SERVER_PARTS } from './server-parts.ts';
import { checkPart } from './template.service.ts';
import { findEventRowsById } from './template-parts.repository.ts';

/**
 * The configuration fields an .amp carries (DESIGN §10). Reading the file checks only which
 * fields are there; each value is checked at import by its screen's schema and rules
 * (`checkPart`), exactly as that screen's save.
 */
const PART_NAMES = [
  'availableLanguages',
  'languages',
  'defaultLanguage',
  'images',
  'venueType',
  'theme',
  'iconColor',
  'emailSettings',
  'slideshowColor',
  'overlays',
  'share',
  'geofence',
  'seatType',
  'blockedSeats',
  'triviaEnabled',
  'triviaQuestions',
  'slideshow',
  'startTime',
  'endTime',
] as const;
type PartName = (typeof PART_NAMES)[number];
const EventPartsSchema = z.strictObject(Object.fromEntries(PART_NAMES.map((p) => [p, z.unknown()]))).partial();
type AmpParts = Partial<Record<PartName, unknown>>;

/** The screens an import saves through, in the order their rules run (media-free parts first). */
const IMPORT_SCREENS = [
  'languages',
  'colors',
  'share',
  'geofence',
  'seatOptions',
  'trivia',
  'slideshow',
  'images',
  'overlays',
] as const;

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
  if (!event) throw notFound(ERR.events.eventNotFound);
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

/** Reads and checks a whole .amp's structure; throws before anything is written. */
export async function readAmp(buf: Buffer): Promise<{
  manifest: AmpManifest;
  parts: AmpParts;
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
  return { manifest: manifest.data, parts: parts.data, media };
}

/** A `/media/` URL of event.json: the archive holds its file (readAmp checked). Anything else is the screens' to refuse. */
const isMediaUrl = (url: unknown): url is string => typeof url === 'string' && url.startsWith('/media/');
const archived = (media: Map<string, Buffer>, url: string): Buffer => media.get(keyOfUrl(url) ?? '')!;

/**
 * Every image the parts name, through the path of its screen's upload (decoded, its rules
 * checked, re-encoded) and stored under a name the server chooses in a new folder `batch`;
 * answers the parts with their URLs replaced. Nothing of the archive is stored as it came, and
 * no entry name (`p.html`, `x.js`) survives: only `/media/` URLs in graphics, overlays and the
 * slideshow banner are taken, as images.
 */
async function storeImportedMedia(deps: Deps, parts: AmpParts, media: Map<string, Buffer>, batch: string) {
  const out: AmpParts = { ...parts };
  if (parts.images && typeof parts.images === 'object') {
    const images: Record<string, unknown> = { ...(parts.images as Record<string, unknown>) };
    for (const key of IMAGE_KEYS) {
      const served = images[`${key}Url`];
      const raw = images[`${key}RawUrl`];
      if (!isMediaUrl(served) && !isMediaUrl(raw)) continue;
      // A section has both copies, made from the one file (its raw when the archive has it).
      const source = archived(media, isMediaUrl(raw) ? raw : (served as string));
      const pair = await putImagePair(
        deps,
        `${batch}/images`,
        key,
        await encodeTemplateImage(key, source, true),
        await encodeTemplateImage(key, source, false),
      );
      images[`${key}Url`] = pair.url;
      images[`${key}RawUrl`] = pair.rawUrl;
    }
    out.images = images;
  }
  if (Array.isArray(parts.overlays)) {
    const overlays: unknown[] = [];
    for (const o of parts.overlays as Record<string, unknown>[]) {
      if (!o || typeof o !== 'object' || !isMediaUrl(o.urlFullSize)) {
        overlays.push(o);
        continue;
      }
      const storageKey = overlayKey(batch);
      const url = await deps.media.put(storageKey, await encodeOverlay(archived(media, o.urlFullSize)));
      overlays.push({ ...o, storageKey, urlFullSize: url, urlRaw: url, urlMediumSize: url });
    }
    out.overlays = overlays;
  }
  const slideshow = parts.slideshow as Record<string, unknown> | undefined;
  if (slideshow && typeof slideshow === 'object' && isMediaUrl(slideshow.slideshowBannerUrl)) {
    const banner = await encodeTemplateImage('slideshowBanner', archived(media, slideshow.slideshowBannerUrl), true);
    const url = await deps.media.put(
      `${batch}/images/slideshowBanner-${randomBytes(8).toString('hex')}.${banner.ext}`,
      banner.data,
    );
    out.slideshow = { ...slideshow, slideshowBannerUrl: url };
  }
  return out;
}

/**
 * The fields of every screen the parts carry, each checked as that screen's save checks it
 * (`checkPart`: its schema's 400 text, its rules' texts); the trivia questions as the trivia
 * screen adds them. A screen's fields come whole or not at all.
 */
async function checkImportedParts(deps: Deps, parts: AmpParts): Promise<ConfigFields> {
  const fields: ConfigFields = {};
  for (const name of IMPORT_SCREENS) {
    const own = TEMPLATE_PARTS[name].fields as readonly PartName[];
    const present = own.filter((f) => parts[f] !== undefined);
    if (!present.length) continue;
    if (present.length !== own.length) throw badAmp(`event.json: ${own.join(', ')} go together`);
    const part = SERVER_PARTS.find((p) => p.name === name)!;
    const { fields: checked } = await checkPart(deps, part, partFromEvent(name, parts));
    Object.assign(fields, checked);
  }
  if (parts.triviaQuestions !== undefined) {
    const questions = TriviaQuestionsSchema.safeParse(parts.triviaQuestions);
    if (!questions.success) {
      const first = questions.error.issues[0];
      throw badRequest(ERR.common.invalidRequest(['triviaQuestions', ...first.path].join('.'), first.message));
    }
    fields.triviaQuestions = Object.fromEntries(
      Object.entries(questions.data).map(([language, list]) => [
        language,
        list.map((q) => ({ ...q, _id: triviaId(q.question) })),
      ]),
    );
  }
  return fields;
}

/**
 * Applies a checked .amp to every listed event (spec 2 §4): its images through their uploads'
 * path, every part through its screen's checks, then one write of all of it by the one writer
 * (consoles told, open attendee apps pushed). Any refusal leaves nothing: the new media folder
 * goes, and no event changes.
 */
export async function importAmp(deps: Deps, buf: Buffer, eventIds: string[]): Promise<string[]> {
  const { parts, media } = await readAmp(buf);
  const rows = await findEventRowsById(deps.db, [...new Set(eventIds)]);
  if (rows.length !== new Set(eventIds).size) throw notFound(ERR.events.eventNotFound);
  // A new folder: an import never overwrites media another event uses, and a refusal removes it whole.
  const batch = `imports/${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  try {
    const fields = await checkImportedParts(deps, await storeImportedMedia(deps, parts, media, batch));
    const written = await writeEventConfigs(
      deps,
      rows.map((r) => ({ id: r.id, fields })),
    );
    if (!written) throw notFound(ERR.events.eventNotFound);
    return rows.map((r) => r.id);
  } catch (err) {
    await deps.media.removeFolder(batch).catch(() => undefined);
    throw err;
  }
}
