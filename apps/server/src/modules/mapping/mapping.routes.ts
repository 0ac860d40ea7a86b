import type { FastifyRequest } from 'fastify';
import {
  MAX_CONFIG_FILE_BYTES,
  MAX_REFERENCE_IMAGE_BYTES,
  cameraStats,
  mappingRoutes,
  queueEntries,
} from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, ERR } from '../../errors.ts';
import { uploadError } from '../../media/multipart.ts';
import { refuseForbiddenChars } from '../../plugins/forbidden-chars.ts';
import { registerRoute } from '../../plugins/routes.ts';
import {
  addRegion,
  deleteRegion,
  downloadFile,
  listFiles,
  reloadSeatMap,
  removeFile,
  setReference,
  referenceImageFromCamera,
  updateRegion,
  uploadCameraFile,
  uploadConfigFiles,
  type UploadedFiles,
} from './mapping.service.ts';

const MAX_FILES_PER_UPLOAD = 50;

/**
 * Reads a multipart body with the byte limits set before parsing: a file above `maxBytes`
 * stops the read with 413 and nothing is stored.
 */
async function readMultipart(req: FastifyRequest, maxBytes: number, maxFiles: number): Promise<UploadedFiles> {
  if (!req.isMultipart()) throw new AppError(415, ERR.media.notMultipart);
  const out: UploadedFiles = { fields: {}, files: [] };
  try {
    for await (const part of req.parts({
      limits: { fileSize: maxBytes, files: maxFiles, fields: 10, fieldSize: 1000 },
    })) {
      if (part.type === 'file') out.files.push({ name: part.filename, data: await part.toBuffer() });
      else out.fields[part.fieldname] = String(part.value);
    }
  } catch (err) {
    throw uploadError(err, { maxFiles, tooLarge: ERR.media.fileTooLarge(Math.round(maxBytes / 1024 / 1024)) });
  }
  refuseForbiddenChars([out.fields, out.files.map((f) => f.name)]);
  if (!out.files.length) throw badRequest(ERR.media.noFileInUpload);
  return out;
}

/** Config files, the seat map, the mapping tool's region and reference calls (docs/mapping.md). */
export function registerMappingRoutes(app: App, deps: Deps): void {
  const r = mappingRoutes;
  registerRoute(app, r.upload, async ({ req, user }) =>
    uploadConfigFiles(deps, await readMultipart(req, MAX_CONFIG_FILE_BYTES, MAX_FILES_PER_UPLOAD), user.username),
  );
  registerRoute(app, r.list, async () => listFiles(deps));
  registerRoute(app, r.remove, async ({ body, user }) => removeFile(deps, body.name, user.username));
  registerRoute(app, r.reload, async ({ user }) => reloadSeatMap(deps, user.username));
  registerRoute(app, r.uploadJson, async ({ req, user }) =>
    uploadCameraFile(deps, await readMultipart(req, MAX_CONFIG_FILE_BYTES, 1), 'json', user.username),
  );
  registerRoute(app, r.uploadJpg, async ({ req, user }) =>
    uploadCameraFile(deps, await readMultipart(req, MAX_REFERENCE_IMAGE_BYTES, 1), 'jpg', user.username),
  );
  const send = async (name: string, reply: import('fastify').FastifyReply) => {
    const file = await downloadFile(deps, name);
    const base = name.split('/').pop()!;
    return reply
      .type(file.type)
      .header('content-disposition', `attachment; filename="${base.replace(/[^\w.-]/g, '_')}"`)
      .send(file.data);
  };
  registerRoute(app, r.download, async ({ params, reply }) => send(params.name, reply).then(() => undefined));
  registerRoute(app, r.downloadShot, async ({ params, reply }) =>
    send(`shots/${params.name}`, reply).then(() => undefined),
  );
  registerRoute(app, r.queue, async () => queueEntries(deps.seatMap.current));
  registerRoute(app, r.stats, async () => cameraStats(deps.seatMap.current));
  registerRoute(app, r.seatMap, async () => deps.seatMap.current);
  registerRoute(app, r.addRegion, async ({ params, body, user }) =>
    addRegion(deps, params.camera, body, user.username),
  );
  registerRoute(app, r.updateRegion, async ({ params, body, user }) =>
    updateRegion(deps, params.camera, params, body, user.username),
  );
  registerRoute(app, r.deleteRegion, async ({ params, user }) =>
    deleteRegion(deps, params.camera, params, user.username),
  );
  registerRoute(app, r.setReference, async ({ params, body, user }) =>
    setReference(deps, params.camera, body, user.username),
  );
  registerRoute(app, r.setReferenceImage, async ({ params, user }) =>
    referenceImageFromCamera(deps, params.camera, user.username),
  );
}
