import { MAX_TEMPLATE_IMAGE_BYTES, TEMPLATE_PARTS, templateRoutes, type RouteDef } from '@stadiumcam/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, ERR } from '../../errors.ts';
import { refuseForbiddenChars } from '../../plugins/forbidden-chars.ts';
import { uploadError } from '../../media/multipart.ts';
import { registerRoute, type Handler } from '../../plugins/routes.ts';
import { SERVER_PARTS } from './server-parts.ts';
import { previewScreenshots, savePart } from './template.service.ts';
import { deleteImage, storeImage } from './template.images.ts';
import { registerTemplatePartsRoutes } from './template-parts.routes.ts';
import { listenEventConfigWrites } from './event-config.service.ts';

/** One file in the field `image`, refused unread above the byte ceiling. */
async function readImage(req: FastifyRequest): Promise<{ data: Buffer; mimetype: string; filename: string }> {
  if (!req.isMultipart()) throw new AppError(415, ERR.templateImages.onlyImages);
  let file: { data: Buffer; mimetype: string; filename: string } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_TEMPLATE_IMAGE_BYTES, files: 1, fields: 5 } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'image') {
        await part.toBuffer();
        throw badRequest(ERR.templateImages.fieldImage);
      }
      file = { data: await part.toBuffer(), mimetype: part.mimetype, filename: part.filename };
    }
  } catch (err) {
    throw uploadError(err, {
      maxFiles: 1,
      tooLarge: ERR.templateImages.fileTooLarge(MAX_TEMPLATE_IMAGE_BYTES / (1024 * 1024)),
    });
  }
  refuseForbiddenChars([file?.filename]);
  if (!file) throw badRequest(ERR.templateImages.fileMissing);
  return file;
}

/**
 * The template area: one save route per configuration part, image uploads, colour previews, and
 * the other parts' routes (overlays, trivia, geofence, .amp: template-parts.routes.ts). No boot task.
 */
export function registerTemplate(app: App, deps: Deps): void {
  for (const part of SERVER_PARTS) {
    const route: RouteDef = TEMPLATE_PARTS[part.name].route;
    const handler: Handler<RouteDef> = async ({ body }) => (await savePart(deps, part, body as never)) as never;
    registerRoute(app, route, handler);
  }
  registerRoute(app, templateRoutes.uploadImage, async ({ params, req }) =>
    storeImage(deps, params.slugDate, params.key, await readImage(req)),
  );
  registerRoute(app, templateRoutes.deleteImage, async ({ params }) => {
    await deleteImage(deps, params.slugDate, params.id, params.key);
    return undefined;
  });
  // Hashes of colour sets already previewed by this server (bounded).
  const seen = new Set<string>();
  registerRoute(app, templateRoutes.screenshotsPreview, async ({ body }) => previewScreenshots(deps, seen, body));
  registerTemplatePartsRoutes(app, deps);
  listenEventConfigWrites(deps);
}
