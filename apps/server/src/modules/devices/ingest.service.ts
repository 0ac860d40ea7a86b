import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { MAX_PHOTO_BYTES, PhotoMetadataSchema, type Snapshot } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest } from '../../errors.ts';
import { makeRenditions, probeImage } from '../../media/images.ts';
import { putMedia } from '../../media/media-store.ts';
import { insertSnapshot } from '../snapshots/snapshots.repository.ts';
import { toSnapshot } from '../snapshots/snapshots.mapper.ts';
import { checkSuspicious } from '../notifications/notifications.service.ts';
import { cameraHub } from '../cameras/cameras.service.ts';
import { eventBySlugDate, metricsChanged } from './events-link.ts';

const MAX_METADATA_BYTES = 256 * 1024;

type Upload = { metadata: string; image: Buffer };

/** Reads the multipart body: one `metadata` field and one `image` file, in either order. */
async function readUpload(req: FastifyRequest): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError(415, 'Upload must be multipart/form-data');
  let metadata: string | undefined;
  let image: Buffer | undefined;
  const parts = req.parts({
    limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5, fieldSize: MAX_METADATA_BYTES },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image' || image) {
          await part.toBuffer();
          throw badRequest('Send one file, in the field "image"');
        }
        image = await part.toBuffer();
      } else if (part.fieldname === 'metadata') {
        if (part.valueTruncated) throw new AppError(413, 'Metadata is too large');
        metadata = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
      throw new AppError(413, `The image is larger than ${MAX_PHOTO_BYTES / (1024 * 1024)} MB`);
    }
    if (e.code === 'FST_FILES_LIMIT') throw badRequest('Send one file, in the field "image"');
    throw badRequest(`Malformed upload: ${e.message ?? 'unreadable body'}`);
  }
  if (metadata === undefined) throw badRequest('The "metadata" field is missing');
  if (!image?.length) throw badRequest('The "image" file is missing');
  return { metadata, image };
}

/**
 * A camera host's photo: validate, store raw/small/thumb, record it, tell the event's consoles,
 * refresh the live metrics and run the suspicious-user rule.
 */
export async function ingestPhoto(deps: Deps, req: FastifyRequest): Promise<Snapshot> {
  const upload = await readUpload(req);
  let json: unknown;
  try {
    json = JSON.parse(upload.metadata);
  } catch {
    throw badRequest('Metadata is not valid JSON');
  }
  const parsed = PhotoMetadataSchema.safeParse(json);
  if (!parsed.success) throw badRequest('Invalid metadata', parsed.error.issues);
  const meta = parsed.data;
  const event = await eventBySlugDate(deps, meta.slugDate);
  if (!event) throw badRequest(`Unknown event "${meta.slugDate}"`);
  const hub = cameraHub(deps);
  if (!hub.get(meta.camera)) throw badRequest(`Unknown camera "${meta.camera}"`);

  const { format } = await probeImage(upload.image);
  const renditions = await makeRenditions(upload.image, format);
  const id = randomUUID();
  const base = `${encodeKeySegment(meta.slugDate)}/${id}`;
  const [rawUri, smallUri, thumbUri] = await Promise.all([
    putMedia(deps.config.mediaDir, `${base}/raw.jpg`, renditions.raw),
    putMedia(deps.config.mediaDir, `${base}/small.jpg`, renditions.small),
    putMedia(deps.config.mediaDir, `${base}/thumb.jpg`, renditions.thumb),
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
    date: meta.date ? new Date(meta.date) : new Date(),
    thumbUri,
    smallUri,
    rawCroppedUri: rawUri,
    sharedUri: rawUri,
    mediaType: 'image',
    magicshot: meta.magicshot,
    // insertSnapshot derives the album's face filter columns from the list.
    faces: meta.faces ?? null,
  });
  hub.activeSlugDate = meta.slugDate;
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
