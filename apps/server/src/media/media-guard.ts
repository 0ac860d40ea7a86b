import type { FastifyInstance } from 'fastify';
import { MSG } from '@stadiumcam/contract';
import { contentTypeOf } from './media-store.ts';

/**
 * What `/media` may answer with: images and the video types the documents allow (docs/security.md
 * §21). A file of any other type (an `.html` or `.js` written before imports were re-encoded, or
 * by a future bug) is never served: the console's origin would run it with an operator's session.
 */
const SERVED_TYPE = /^(image\/(jpeg|png|webp|gif)|video\/(mp4|webm|quicktime))$/;

/** The path of a `/media/...` request, decoded as the file store reads it; null when it cannot be. */
function mediaPathOf(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?')[0]);
  } catch {
    return null;
  }
}

/** Whether `/media/<path>` names a type /media serves (by the extension both stores type it by). */
export const isServedMediaPath = (path: string): boolean => SERVED_TYPE.test(contentTypeOf(path));

/** Not a page, whatever a browser makes of it: no script, no sniffing, no form, no plugin. */
export const MEDIA_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * The rules of every `/media` answer, from the disk store (@fastify/static) and from the S3 route
 * alike: a path of another type is 404 before any store is read; every answer says
 * `X-Content-Type-Options: nosniff` and carries a sandboxing CSP; an answer whose type is not an
 * image's or video's would be an attachment, never a page; other origins may embed the files
 * (the attendee app, mail clients).
 */
export function registerMediaGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/media/')) return;
    const path = mediaPathOf(req.url);
    if (path === null || !isServedMediaPath(path))
      return reply.status(404).send({ error: MSG.common.resourceNotFound });
  });
  app.addHook('onSend', async (req, reply) => {
    if (!req.url.startsWith('/media/')) return;
    void reply
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', MEDIA_CSP);
    const type = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]
      .trim();
    if (reply.statusCode < 300 && !SERVED_TYPE.test(type)) void reply.header('content-disposition', 'attachment');
  });
}
