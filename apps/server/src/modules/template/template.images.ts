import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import {
  IMAGE_MSG,
  IMAGE_MIME_TYPES,
  MAX_TEMPLATE_IMAGE_PIXELS,
  MSG,
  checkImageRules,
  type ImageKey,
  type ImageUploadAnswer,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, notFound, unprocessable } from '../../errors.ts';
import { getEventBySlugDate } from '../events/events.service.ts';
import { countEventsUsing } from './template.repository.ts';

const EXT: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };
const MIME: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

export const IMAGE_UPLOAD_MSG = MSG.templateImages;

/**
 * A template image (spec 2 §5): an image by its real bytes (JPEG, PNG or WebP; not SVG, not a
 * PNG named .webp), within the pixel ceiling, then the section's own rules. Stored as the file
 * uploaded (`{key}RawUrl`) and a re-encoded copy without metadata (`{key}Url`); the event
 * itself changes only on 'Update Event' (PATCH events/images).
 */
export async function storeImage(
  deps: Deps,
  slugDate: string,
  key: ImageKey,
  file: { data: Buffer; mimetype: string; filename: string },
): Promise<ImageUploadAnswer> {
  if (!(await getEventBySlugDate(deps, slugDate))) throw notFound(MSG.events.eventNotFound);
  if (!file.data.length || !(IMAGE_MIME_TYPES as readonly string[]).includes(file.mimetype)) {
    throw new AppError(415, IMAGE_MSG.onlyImages);
  }
  let meta: Metadata;
  try {
    // The header only (nothing decoded yet): a 30000x30000 image is then refused by its size
    // below with its own text, instead of sharp's pixel limit reading as "not an image".
    meta = await sharp(file.data, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError(415, IMAGE_MSG.onlyImages);
  }
  const format = meta.format ?? '';
  if (!EXT[format]) throw new AppError(415, IMAGE_MSG.onlyImages);
  const extension = file.filename.toLowerCase().split('.').at(-1) ?? '';
  const extFormat = extension === 'jpg' ? 'jpeg' : extension;
  if (MIME[format] !== file.mimetype || (EXT[extFormat] && extFormat !== format)) {
    throw new AppError(415, IMAGE_UPLOAD_MSG.typeMismatch);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw new AppError(415, IMAGE_MSG.onlyImages);
  if (width * height > MAX_TEMPLATE_IMAGE_PIXELS) throw new AppError(413, IMAGE_UPLOAD_MSG.tooManyPixels);
  const broken = checkImageRules(key, { width, height, bytes: file.data.length });
  if (broken) throw unprocessable(broken);

  let served: Buffer;
  try {
    // Decoding the whole image proves it is not truncated; the copy drops Exif and other metadata.
    served = await sharp(file.data, { limitInputPixels: MAX_TEMPLATE_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .toFormat(format)
      .toBuffer();
  } catch {
    throw new AppError(415, IMAGE_MSG.onlyImages);
  }
  const id = randomBytes(8).toString('hex');
  const base = `${slugDate}/images/${key}-${id}`;
  const rawKey = `${base}-raw.${EXT[format]}`;
  const rawUrl = await deps.media.put(rawKey, file.data);
  // Both files or neither: a raw without its served copy would be an upload nobody can use.
  const url = await deps.media.put(`${base}.${EXT[format]}`, served).catch(async (err: unknown) => {
    await deps.media.remove(rawKey).catch(() => undefined);
    throw err;
  });
  return { key, id, url, rawUrl, width, height, bytes: file.data.length };
}

/**
 * Deletes an uploaded image's files unless an event still uses them (a saved event keeps its
 * image until 'Update Event' saves it without; the console only clears its section).
 */
export async function deleteImage(deps: Deps, slugDate: string, id: string, key: ImageKey): Promise<void> {
  if (!(await getEventBySlugDate(deps, slugDate))) throw notFound(MSG.events.eventNotFound);
  const base = `${slugDate}/images/${key}-${id}`;
  if (await countEventsUsing(deps.db, `/media/${base}`)) return;
  for (const ext of Object.values(EXT)) {
    await deps.media.remove(`${base}.${ext}`);
    await deps.media.remove(`${base}-raw.${ext}`);
  }
}
