import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OVERLAY_MAX_BYTES, exportRoutes, geofenceRoutes, overlayRoutes, triviaRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, notFound, ERR, type CodedText } from '../../errors.ts';
import { refuseForbiddenChars } from '../../plugins/forbidden-chars.ts';
import { uploadError } from '../../media/multipart.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { exportAmp, importAmp } from './amp.service.ts';
import { geocoderFor } from './geocoding.ts';
import { renderGeofenceMap } from './geofence.map.ts';
import { uploadOverlay } from './overlays.service.ts';
import { addQuestions, deleteQuestions, listQuestions, publicQuestions, questionsCsv } from './trivia.service.ts';

/** The .amp upload limit: a template with its graphics and seven overlays fits many times over. */
const MAX_AMP_BYTES = 100 * 1024 * 1024;

/**
 * Reads a multipart body with one file (`fileField`) and small text fields. Byte limits are set
 * before anything is parsed; a file over `maxBytes` is 413 `tooLarge`.
 */
async function readUpload(
  req: FastifyRequest,
  opts: { fileField: string; maxBytes: number; tooLarge: CodedText; notMultipart: CodedText },
): Promise<{ file: Buffer; filename: string; mimetype: string; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new AppError(415, opts.notMultipart);
  const fields: Record<string, string> = {};
  let file: { data: Buffer; filename: string; mimetype: string } | undefined;
  try {
    for await (const part of req.parts({
      limits: { fileSize: opts.maxBytes, files: 1, fields: 5, fieldSize: 100_000 },
    })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname !== opts.fileField) throw badRequest(ERR.media.sendFileInField(opts.fileField));
        file = { data, filename: part.filename, mimetype: part.mimetype };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    throw uploadError(err, { maxFiles: 1, tooLarge: opts.tooLarge });
  }
  // Text fields (the import's eventIds) and the file name follow the input rule of every route.
  refuseForbiddenChars([fields, file?.filename]);
  if (!file?.data.length) throw badRequest(ERR.media.fileMissing(opts.fileField));
  return { file: file.data, filename: file.filename, mimetype: file.mimetype, fields };
}

const EventIdsField = z.array(z.string().min(1).max(200)).min(1).max(500);

/** The template area's other parts: overlay uploads, trivia, geofence, .amp export/import (registered by registerTemplate). */
export function registerTemplatePartsRoutes(app: App, deps: Deps): void {
  /* Overlays: upload (the list itself is saved through PATCH events/overlays). */
  registerRoute(app, overlayRoutes.upload, async ({ params, req }) => {
    const { file } = await readUpload(req, {
      fileField: 'image',
      maxBytes: OVERLAY_MAX_BYTES,
      tooLarge: ERR.templateParts.overlayTooLarge,
      notMultipart: ERR.templateParts.overlayNotPng,
    });
    return uploadOverlay(deps, params.slugDate, file);
  });

  /* Trivia (spec 2 §7). */
  registerRoute(app, triviaRoutes.questions, async ({ params }) =>
    listQuestions(deps, params.slugDate, params.language),
  );
  registerRoute(app, triviaRoutes.publicQuestions, async ({ params }) =>
    publicQuestions(deps, params.slugDate, params.language),
  );
  registerRoute(app, triviaRoutes.add, async ({ params, body }) => {
    if (body.language !== params.language) throw badRequest(ERR.templateParts.languageMismatch);
    return { ok: true as const, saved: await addQuestions(deps, body) };
  });
  registerRoute(app, triviaRoutes.remove, async ({ body }) => ({
    ok: true as const,
    deleted: await deleteQuestions(deps, body),
  }));
  registerRoute(app, triviaRoutes.csv, async ({ params, reply }) => {
    const csv = questionsCsv(await listQuestions(deps, params.slugDate, params.language));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${params.slugDate}-trivia-${params.language}.csv"`)
      .send(csv);
  });

  /* Geofence: the map image and geocoding. */
  registerRoute(app, geofenceRoutes.map, async ({ query, reply }) => {
    const png = await renderGeofenceMap(query.latitude, query.longitude, query.radius);
    return reply.header('content-type', 'image/png').header('cache-control', 'private, max-age=3600').send(png);
  });
  const geocoder = geocoderFor(deps.config.geocoderUrl);
  registerRoute(app, geofenceRoutes.geocoder, async () => ({ configured: geocoder !== null }));
  registerRoute(app, geofenceRoutes.geocode, async ({ query }) => {
    if (!geocoder) throw new AppError(501, ERR.templateParts.geocodingOff);
    const hit = await geocoder.geocode(query.address);
    if (!hit) throw notFound(ERR.templateParts.addressNotFound);
    return hit;
  });

  /* Export / import (DESIGN §10). */
  registerRoute(app, exportRoutes.export, async ({ params, query, reply }) => {
    const { zip, filename } = await exportAmp(deps, params.slugDate, {
      triviaEnabled: query.triviaEnabled,
      disabledEventFields: query.disabledEventFields ?? [],
    });
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(zip);
  });
  registerRoute(app, exportRoutes.import, async ({ req }) => {
    const upload = await readUpload(req, {
      fileField: 'file',
      maxBytes: MAX_AMP_BYTES,
      tooLarge: ERR.templateParts.invalidAmp,
      notMultipart: ERR.templateParts.invalidAmp,
    });
    // Spec 2 §5: an .amp name or an octet-stream; the content is checked whatever it says.
    if (!upload.filename.toLowerCase().endsWith('.amp') && upload.mimetype !== 'application/octet-stream')
      throw new AppError(415, ERR.templateParts.invalidAmp);
    let ids: unknown;
    try {
      ids = JSON.parse(upload.fields.eventIds ?? '');
    } catch {
      throw badRequest(ERR.templateParts.eventIdsInvalid);
    }
    // A JSON escape (\u0000) is a NUL once parsed.
    refuseForbiddenChars([ids]);
    const eventIds = EventIdsField.safeParse(ids);
    if (!eventIds.success) throw badRequest(ERR.templateParts.eventIdsInvalid, eventIds.error.issues);
    return { ok: true as const, eventIds: await importAmp(deps, upload.file, eventIds.data) };
  });
}
