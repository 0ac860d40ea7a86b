import { randomUUID } from 'node:crypto';
import { PhotoMetadataSchema, hasForbiddenChars, type Snapshot } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, ERR } from '../../errors.ts';
import { insertSnapshot } from '../snapshots/index.ts';
import { toSnapshot } from '../snapshots/index.ts';
import { checkSuspicious } from '../notifications/index.ts';
import { eventBySlugDate, metricsChanged } from '../events/index.ts';

/** How far ahead of the server's clock a photo's capture date may be (docs/protocol.md §1). */
export const MAX_CLOCK_AHEAD_MS = 24 * 60 * 60 * 1000;

/** A camera host's upload as the route read it: the `metadata` field's text and the image bytes. */
export type PhotoUpload = { metadata: string; image: Buffer };

/**
 * Past the ceiling a photo is not queued for long: its host is told to send it again after the
 * wait (503 + Retry-After; camera-host's uploadPhoto does), so the ones taken keep their pace.
 * The wait is the longer of the image pool's and the uploads' own (`uploadsWaitMs`, UploadGate:
 * the event loop as the ceiling). Asked before the upload's body is read: a refused photo costs
 * no multipart parsing and no buffer (read first, the refusals of a burst and their retries were
 * most of the server's work).
 */
export function refuseWhenBusy(deps: Deps, uploadsWaitMs = 0): void {
  const wait = Math.max(deps.images.waitMs(), uploadsWaitMs);
  if (wait <= deps.config.images.maxWaitMs) return;
  const seconds = Math.min(30, Math.max(1, Math.ceil(wait / 1000)));
  deps.ops.photosShed.inc();
  throw new AppError(503, ERR.devices.photosBusy(seconds), { headers: { 'retry-after': String(seconds) } });
}

/**
 * A camera host's photo (the route asked `refuseWhenBusy` first): validate, store raw/small/thumb, record it, tell the event's consoles,
 * refresh the live metrics and run the suspicious-user rule.
 */
export async function ingestPhoto(deps: Deps, upload: PhotoUpload): Promise<Snapshot> {
  let json: unknown;
  try {
    json = JSON.parse(upload.metadata);
  } catch {
    throw badRequest(ERR.devices.metadataNotJson);
  }
  if (hasForbiddenChars(json)) throw badRequest(ERR.security.forbiddenChars);
  const parsed = PhotoMetadataSchema.safeParse(json);
  if (!parsed.success) throw badRequest(ERR.devices.invalidMetadata, parsed.error.issues);
  const meta = parsed.data;
  // A camera's clock may run a little ahead; a photo dated days ahead would sort above every
  // real one and outlive retention. Refused before anything is read or written.
  if (meta.date && new Date(meta.date).getTime() > Date.now() + MAX_CLOCK_AHEAD_MS) {
    throw badRequest(ERR.devices.futureCaptureDate);
  }
  const event = await eventBySlugDate(deps, meta.slugDate);
  if (!event) throw badRequest(ERR.events.unknownEvent(meta.slugDate));
  const hub = deps.cameras;
  if (!hub.get(meta.camera)) throw badRequest(ERR.cameras.unknownCamera(meta.camera));

  const date = meta.date ? new Date(meta.date) : new Date();
  const renditions = await deps.images.renditions(upload.image, date);
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
  // The fan's phone hears of its photo at once, on whichever instance holds its stream.
  if (!meta.magicshot) deps.attendeeFeed.toFan(meta.userId, 'photo', { _id: snapshot._id, date: snapshot.date });
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
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(slugDate)) throw badRequest(ERR.devices.unusableSlugDate);
  return slugDate;
}
