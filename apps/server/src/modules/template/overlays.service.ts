import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import {
  MAX_OVERLAYS,
  MSG,
  OVERLAY_MAX_BYTES,
  OVERLAY_PX,
  overlayHeaderError,
  type Overlay,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { MAX_INPUT_PIXELS } from '../../media/images.ts';
import { findEventRows } from './template-parts.repository.ts';

/**
 * Spec 2 §5 on the real pixels: the header rule first (cheap), then sharp decodes the whole
 * image so a PNG that lies in its header or is truncated is refused too.
 */
export async function checkOverlayPng(data: Buffer): Promise<void> {
  const headerError = overlayHeaderError(data);
  if (headerError) throw new AppError(data.length > OVERLAY_MAX_BYTES ? 413 : 422, headerError);
  try {
    const image = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    if (meta.format !== 'png') throw new AppError(422, MSG.templateParts.overlayNotPng);
    if (meta.isPalette || meta.bitsPerSample !== 8) throw new AppError(422, MSG.templateParts.overlay8Bit);
    if (meta.width !== OVERLAY_PX || meta.height !== OVERLAY_PX) throw new AppError(422, MSG.templateParts.overlaySize);
    const { info } = await image.raw().toBuffer({ resolveWithObject: true });
    if (info.width !== OVERLAY_PX || info.height !== OVERLAY_PX) throw new AppError(422, MSG.templateParts.overlaySize);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(422, MSG.templateParts.overlayNotPng);
  }
}

/**
 * Stores a checked overlay for the event and answers its entry. It joins the event's list when
 * the operator saves the overlays part (PATCH events/overlays), as graphics do on 'Update event'.
 */
export async function uploadOverlay(deps: Deps, slugDate: string, data: Buffer): Promise<Overlay> {
  // One upload per event at a time: two at once could both pass the count of seven.
  const busy = deps.overlayUploads;
  if (busy.has(slugDate)) throw conflict(MSG.templateParts.overlayUploadBusy);
  busy.add(slugDate);
  try {
    const [row] = await findEventRows(deps.db, [slugDate]);
    if (!row) throw notFound(MSG.events.eventNotFound);
    const current = ((row.config.overlays as Overlay[] | undefined) ?? []).filter((o) => !o.deleted);
    if (current.length >= MAX_OVERLAYS) throw new AppError(422, MSG.templateParts.overlaysMax);
    await checkOverlayPng(data);
    const storageKey = `${slugDate}/overlays/${Date.now().toString(36)}${randomBytes(3).toString('hex')}.png`;
    const url = await deps.media.put(storageKey, data);
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
