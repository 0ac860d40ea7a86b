import type { FastifyRequest } from 'fastify';
import { MAX_PHOTO_BYTES, MSG, devicesRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest } from '../../errors.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { ingestPhoto, type PhotoUpload } from './ingest.service.ts';

/** Camera hosts' photo uploads (docs/protocol.md §1). */
export function registerDevicesRoutes(app: App, deps: Deps): void {
  registerRoute(app, devicesRoutes.uploadPhoto, async ({ req }) => ingestPhoto(deps, await readUpload(req)));
}

const MAX_METADATA_BYTES = 256 * 1024;

/** Reads the multipart body: one `metadata` field and one `image` file, in either order. */
async function readUpload(req: FastifyRequest): Promise<PhotoUpload> {
  if (!req.isMultipart()) throw new AppError(415, MSG.media.notMultipart);
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
          throw badRequest(MSG.templateImages.fieldImage);
        }
        image = await part.toBuffer();
      } else if (part.fieldname === 'metadata') {
        if (part.valueTruncated) throw new AppError(413, MSG.devices.metadataTooLarge);
        metadata = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
      throw new AppError(413, MSG.templateImages.fileTooLarge(MAX_PHOTO_BYTES / (1024 * 1024)));
    }
    if (e.code === 'FST_FILES_LIMIT') throw badRequest(MSG.templateImages.fieldImage);
    throw badRequest(MSG.media.malformedUploadReason(e.message));
  }
  if (metadata === undefined) throw badRequest(MSG.devices.metadataMissing);
  if (!image?.length) throw badRequest(MSG.templateImages.fileMissing);
  return { metadata, image };
}
