import type { FastifyRequest } from 'fastify';
import { uploadError } from '../../media/multipart.ts';
import { MAX_PHOTO_BYTES, devicesRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, ERR } from '../../errors.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { ingestPhoto, refuseWhenBusy, type PhotoUpload } from './ingest.service.ts';
import { UploadGate } from './upload-gate.ts';

/** Camera hosts' photo uploads (docs/protocol.md §1). */
export function registerDevicesRoutes(app: App, deps: Deps): void {
  const uploads = new UploadGate();
  registerRoute(app, devicesRoutes.uploadPhoto, async ({ req }) => {
    refuseWhenBusy(deps, uploads.waitMs());
    const leave = uploads.enter();
    try {
      return await ingestPhoto(deps, await readUpload(req));
    } finally {
      leave();
    }
  });
}

const MAX_METADATA_BYTES = 256 * 1024;

/** Reads the multipart body: one `metadata` field and one `image` file, in either order. */
async function readUpload(req: FastifyRequest): Promise<PhotoUpload> {
  if (!req.isMultipart()) throw new AppError(415, ERR.media.notMultipart);
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
          throw badRequest(ERR.templateImages.fieldImage);
        }
        image = await part.toBuffer();
      } else if (part.fieldname === 'metadata') {
        if (part.valueTruncated) throw new AppError(413, ERR.devices.metadataTooLarge);
        metadata = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (err) {
    throw uploadError(err, { maxFiles: 1, tooLarge: ERR.templateImages.fileTooLarge(MAX_PHOTO_BYTES / (1024 * 1024)) });
  }
  if (metadata === undefined) throw badRequest(ERR.devices.metadataMissing);
  if (!image?.length) throw badRequest(ERR.templateImages.fileMissing);
  return { metadata, image };
}
