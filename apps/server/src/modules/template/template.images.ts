import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import {
  IMAGE_MIME_TYPES,
  MAX_TEMPLATE_IMAGE_PIXELS,
  checkImageRules,
  type ImageKey,
  type ImageUploadAnswer,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, notFound, unprocessable, ERR } from '../../errors.ts';
import { getEventBySlugDate } from '../events/index.ts';
import { countEventsUsing } from './template.repository.ts';

const EXT: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };
const MIME: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** A template image decoded, checked and re-encoded: what is stored, never the bytes as sent. */
export type EncodedImage = { data: Buffer; ext: string; width: number; height: number };

/** The header only (nothing decoded yet): a 30000x30000 image is refused by its size with its own text. */
async function headerOf(data: Buffer): Promise<Metadata> {
  try {
    return await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError(415, ERR.templateImages.onlyImages);
  }
}

/**
 * The path every template image takes, uploaded (Graphics) or imported (.amp): an image by its
 * real bytes (JPEG, PNG or WebP; not SVG), within the pixel ceiling, the section's own rules of
 * spec 2 §5, then decoded whole (a truncated file fails here) and re-encoded in its own format
 * without metadata (docs/security.md §21): a polyglot (a PNG whose text chunk holds a script)
 * comes out as pixels only. `upright` turns it by its Exif orientation (the served copy).
 */
export async function encodeTemplateImage(key: ImageKey, data: Buffer, upright: boolean): Promise<EncodedImage> {
  const meta = await headerOf(data);
  const format = meta.format ?? '';
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!EXT[format] || !width || !height) throw new AppError(415, ERR.templateImages.onlyImages);
  if (width * height > MAX_TEMPLATE_IMAGE_PIXELS) throw new AppError(413, ERR.templateImages.tooManyPixels);
  const broken = checkImageRules(key, { width, height, bytes: data.length });
  if (broken) throw unprocessable(ERR.templateImages[broken]);
  try {
    let image = sharp(data, { limitInputPixels: MAX_TEMPLATE_IMAGE_PIXELS, failOn: 'error' });
    if (upright) image = image.rotate();
    // Lossless where the format allows, the best JPEG otherwise: the "raw" keeps its pixels.
    const out =
      format === 'jpeg'
        ? image.jpeg({ quality: upright ? 90 : 100 })
        : format === 'png'
          ? image.png()
          : image.webp(upright ? {} : { lossless: true });
    return { data: await out.toBuffer(), ext: EXT[format], width, height };
  } catch {
    throw new AppError(415, ERR.templateImages.onlyImages);
  }
}

/**
 * A template image upload (spec 2 §5): the declared type and name must agree with the real bytes
 * (a PNG named .webp is refused), then `encodeTemplateImage`. Stored as two re-encoded copies
 * under names the server chooses: `{key}RawUrl` (its pixels as sent) and `{key}Url` (upright:
 * what the app shows); the event itself changes only on 'Update Event' (PATCH events/images).
 */
export async function storeImage(
  deps: Deps,
  slugDate: string,
  key: ImageKey,
  file: { data: Buffer; mimetype: string; filename: string },
): Promise<ImageUploadAnswer> {
  if (!(await getEventBySlugDate(deps, slugDate))) throw notFound(ERR.events.eventNotFound);
  if (!file.data.length || !(IMAGE_MIME_TYPES as readonly string[]).includes(file.mimetype)) {
    throw new AppError(415, ERR.templateImages.onlyImages);
  }
  const format = (await headerOf(file.data)).format ?? '';
  if (!EXT[format]) throw new AppError(415, ERR.templateImages.onlyImages);
  const extension = file.filename.toLowerCase().split('.').at(-1) ?? '';
  const extFormat = extension === 'jpg' ? 'jpeg' : extension;
  if (MIME[format] !== file.mimetype || (EXT[extFormat] && extFormat !== format)) {
    throw new AppError(415, ERR.templateImages.typeMismatch);
  }
  const served = await encodeTemplateImage(key, file.data, true);
  const raw = await encodeTemplateImage(key, file.data, false);
  const { id, url, rawUrl } = await putImagePair(deps, `${slugDate}/images`, key, served, raw);
  return { key, id, url, rawUrl, width: served.width, height: served.height, bytes: file.data.length };
}

/** Stores a served and a raw copy as `<folder>/<key>-<id>[-raw].<ext>`: both or neither. */
export async function putImagePair(
  deps: Deps,
  folder: string,
  key: ImageKey,
  served: EncodedImage,
  raw: EncodedImage,
): Promise<{ id: string; url: string; rawUrl: string }> {
  const id = randomBytes(8).toString('hex');
  const base = `${folder}/${key}-${id}`;
  const rawKey = `${base}-raw.${raw.ext}`;
  const rawUrl = await deps.media.put(rawKey, raw.data);
  // A raw without its served copy would be an upload nobody can use.
  const url = await deps.media.put(`${base}.${served.ext}`, served.data).catch(async (err: unknown) => {
    await deps.media.remove(rawKey).catch(() => undefined);
    throw err;
  });
  return { id, url, rawUrl };
}

/**
 * Deletes an uploaded image's files unless an event still uses them (a saved event keeps its
 * image until 'Update Event' saves it without; the console only clears its section).
 */
export async function deleteImage(deps: Deps, slugDate: string, id: string, key: ImageKey): Promise<void> {
  if (!(await getEventBySlugDate(deps, slugDate))) throw notFound(ERR.events.eventNotFound);
  const base = `${slugDate}/images/${key}-${id}`;
  if (await countEventsUsing(deps.db, `/media/${base}`)) return;
  for (const ext of Object.values(EXT)) {
    await deps.media.remove(`${base}.${ext}`);
    await deps.media.remove(`${base}-raw.${ext}`);
  }
}
