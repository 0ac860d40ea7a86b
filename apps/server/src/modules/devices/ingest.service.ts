import { randomUUID } from 'node:crypto';
import { MSG, PhotoMetadataSchema, hasForbiddenChars, type Snapshot } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import { makeRenditions, probeImage } from '../../media/images.ts';
import { putMedia, putOriginal } from '../../media/media-store.ts';
import { insertSnapshot } from '../snapshots/snapshots.repository.ts';
import { toSnapshot } from '../snapshots/snapshots.mapper.ts';
import { checkSuspicious } from '../notifications/notifications.service.ts';
import { eventBySlugDate, metricsChanged } from './events-link.ts';

/** A camera host's upload as the route read it: the `metadata` field's text and the image bytes. */
export type PhotoUpload = { metadata: string; image: Buffer };

/**
 * A camera host's photo: validate, store raw/small/thumb, record it, tell the event's consoles,
 * refresh the live metrics and run the suspicious-user rule.
 */
export async function ingestPhoto(deps: Deps, upload: PhotoUpload): Promise<Snapshot> {
  let json: unknown;
  try {
    json = JSON.parse(upload.metadata);
  } catch {
    throw badRequest('Metadata is not valid JSON');
  }
  if (hasForbiddenChars(json)) throw badRequest(MSG.security.forbiddenChars);
  const parsed = PhotoMetadataSchema.safeParse(json);
  if (!parsed.success) throw badRequest('Invalid metadata', parsed.error.issues);
  const meta = parsed.data;
  const event = await eventBySlugDate(deps, meta.slugDate);
  if (!event) throw badRequest(`Unknown event "${meta.slugDate}"`);
  const hub = deps.cameras;
  if (!hub.get(meta.camera)) throw badRequest(`Unknown camera "${meta.camera}"`);

  const { format } = await probeImage(upload.image);
  const date = meta.date ? new Date(meta.date) : new Date();
  const renditions = await makeRenditions(upload.image, format, date);
  const id = randomUUID();
  const base = `${encodeKeySegment(meta.slugDate)}/${id}`;
  const [rawUri, smallUri, thumbUri] = await Promise.all([
    putMedia(deps.config.mediaDir, `${base}/raw.jpg`, renditions.raw),
    putMedia(deps.config.mediaDir, `${base}/small.jpg`, renditions.small),
    putMedia(deps.config.mediaDir, `${base}/thumb.jpg`, renditions.thumb),
    // The untouched file, for the lightbox's Exif card only (never served under /media).
    putOriginal(deps.config.dataDir, id, upload.image),
  ]);
  const row = await insertSnapshot(deps.db, {
    id,
    slug: event.slug,
    slugDate: meta.slugDate,
    userId: meta.userId,
    camera: meta.camera,
    seatType: meta.seatType,
    section: meta.section,
    row: meta.row,
    seat: meta.seat,
    date,
    thumbUri,
    smallUri,
    rawCroppedUri: rawUri,
    sharedUri: rawUri,
    mediaType: 'image',
    magicshot: meta.magicshot,
    // insertSnapshot derives the album's face filter columns from the list.
    faces: meta.faces ?? null,
  });
  hub.setActive(meta.slugDate);
  deps.ops.photosIngested.inc();
  const snapshot = toSnapshot(row);
  deps.realtime.toEvent(meta.slugDate, 'monitor newSnapshot', snapshot);
  metricsChanged(deps, meta.slugDate);
  if (!meta.magicshot) {
    checkSuspicious(deps, meta.slugDate, meta.userId).catch((err: unknown) =>
      deps.log.error({ err }, 'suspicious-user check failed'),
    );
  }
  return snapshot;
}

/** Event slugs are URL-safe already; anything else is refused rather than escaped. */
function encodeKeySegment(slugDate: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(slugDate)) throw badRequest('Unusable slugDate');
  return slugDate;
}
