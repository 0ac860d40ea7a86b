import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import {
  MAX_OVERLAYS,
  OVERLAY_MAX_BYTES,
  OVERLAY_PX,
  overlayHeaderError,
  readEventConfig,
  type Overlay,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, notFound, ERR } from '../../errors.ts';
import { MAX_INPUT_PIXELS } from '../../media/images.ts';
import { findEventRows } from './template-parts.repository.ts';

/**
 * The path every overlay takes, uploaded or imported (.amp). Spec 2 §5 on the real pixels: the
 * header rule first (cheap), then sharp decodes the whole image, so a PNG that lies in its header
 * or is truncated is refused too; the decoded pixels are then encoded again (8-bit RGBA PNG, no
 * metadata or text chunks), so no byte of the file as sent is ever served (docs/security.md §21).
 */
export async function encodeOverlay(data: Buffer): Promise<Buffer> {
  const headerError = overlayHeaderError(data);
  if (headerError) throw new AppError(data.length > OVERLAY_MAX_BYTES ? 413 : 422, ERR.templateParts[headerError]);
  try {
    const image = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    if (meta.format !== 'png') throw new AppError(422, ERR.templateParts.overlayNotPng);
    if (meta.isPalette || meta.bitsPerSample !== 8) throw new AppError(422, ERR.templateParts.overlay8Bit);
    if (meta.width !== OVERLAY_PX || meta.height !== OVERLAY_PX) throw new AppError(422, ERR.templateParts.overlaySize);
    const { data: pixels, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.width !== OVERLAY_PX || info.height !== OVERLAY_PX) throw new AppError(422, ERR.templateParts.overlaySize);
    return await sharp(pixels, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .png({ palette: false })
      .toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(422, ERR.templateParts.overlayNotPng);
  }
}

/** A new overlay's storage key (its file name is the server's). */
export const overlayKey = (folder: string) =>
  `${folder}/overlays/${Date.now().toString(36)}${randomBytes(3).toString('hex')}.png`;

/**
 * Stores a checked overlay for the event and answers its entry. It joins the event's list when
 * the operator saves the overlays part (PATCH events/overlays), as graphics do on 'Update event'.
 */
export async function uploadOverlay(deps: Deps, slugDate: string, data: Buffer): Promise<Overlay> {
  // One upload per event at a time: two at once could both pass the count of seven.
  const busy = deps.overlayUploads;
  if (busy.has(slugDate)) throw conflict(ERR.templateParts.overlayUploadBusy);
  busy.add(slugDate);
  try {
    const [row] = await findEventRows(deps.db, [slugDate]);
    if (!row) throw notFound(ERR.events.eventNotFound);
    const current = readEventConfig(row.config).config.overlays.filter((o) => !o.deleted);
    if (current.length >= MAX_OVERLAYS) throw new AppError(422, ERR.templateParts.overlaysMax);
    const png = await encodeOverlay(data);
    const storageKey = overlayKey(slugDate);
    const url = await deps.media.put(storageKey, png);
    return {
      storageKey,
      urlFullSize: url,
      urlRaw: url,
      urlMediumSize: url,
      disabled: false,
      deleted: false,
      sections: ['*'],
    };
  } finally {
    busy.delete(slugDate);
  }
}
