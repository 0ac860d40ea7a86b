import { randomUUID } from 'node:crypto';
import { MSG, PhotoMetadataSchema, hasForbiddenChars, type Snapshot } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import { makeRenditions } from '../../media/images.ts';
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
    throw badRequest(MSG.devices.metadataNotJson);
  }
  if (hasForbiddenChars(json)) throw badRequest(MSG.security.forbiddenChars);
  const parsed = PhotoMetadataSchema.safeParse(json);
  if (!parsed.success) throw badRequest(MSG.devices.invalidMetadata, parsed.error.issues);
  const meta = parsed.data;
  const event = await eventBySlugDate(deps, meta.slugDate);
  if (!event) throw badRequest(MSG.events.unknownEvent(meta.slugDate));
  const hub = deps.cameras;
  if (!hub.get(meta.camera)) throw badRequest(MSG.cameras.unknownCamera(meta.camera));

  const date = meta.date ? new Date(meta.date) : new Date();
  const renditions = await makeRenditions(upload.image, date);
  const id = randomUUID();
  const base = `${encodeKeySegment(meta.slugDate)}/${id}`;
  // Files first, the row after: a row never names a file that is not there. A failed write
  // (the S3 store down) or row takes the photo's files back; the start-up sweep gets the rest.
  const forget = () =>
    Promise.all([deps.media.removeFolder(base), deps.originals.remove(id)]).catch((err: unknown) =>
      deps.log.warn({ err, id }, 'files of a failed upload left for the orphan sweep'),
    );
  const written = await Promise.allSettled([
    deps.media.put(`${base}/raw.jpg`, renditions.raw),
    deps.media.put(`${base}/small.jpg`, renditions.small),
    deps.media.put(`${base}/thumb.jpg`, renditions.thumb),
    // The untouched file, for the lightbox's Exif card only (never served under /media).
    deps.originals.put(id, upload.image),
  ]);
  const failed = written.find((w) => w.status === 'rejected');
  if (failed) {
    await forget();
    throw failed.reason;
  }
  const [rawUri, smallUri, thumbUri] = written.map((w) => (w as PromiseFulfilledResult<string>).value);
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
  }).catch(async (err: unknown) => {
    await forget();
    throw err;
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
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(slugDate)) throw badRequest(MSG.devices.unusableSlugDate);
  return slugDate;
}
