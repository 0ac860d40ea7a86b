import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { keyOfUrl } from './media-store.ts';
import type { S3MediaStore } from './s3-store.ts';

const SINGLE_RANGE = /^bytes=\d*-\d*$/;

/**
 * GET/HEAD /media/<key> from the bucket, streamed through the server (docs/operations.md,
 * "Object storage"): the same URLs and headers as on disk (@fastify/static), so links in the
 * album, mails and the attendee app never carry a signature and a ban's move breaks them at once.
 * The bucket answers conditional requests (ETag → 304) and single ranges (206) itself.
 */
export function registerS3MediaRoute(app: FastifyInstance, store: S3MediaStore): void {
  const serve = (head: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const key = keyOfUrl(`/media/${(req.params as { '*': string })['*']}`);
    if (!key) return reply.callNotFound();
    const { range, 'if-none-match': ifNoneMatch, 'if-modified-since': since } = req.headers;
    const answer = await store.get(key, {
      head,
      range: !head && range && SINGLE_RANGE.test(range) ? range : undefined,
      ifNoneMatch,
      ifModifiedSince: since && !ifNoneMatch && !Number.isNaN(Date.parse(since)) ? new Date(since) : undefined,
    });
    if (answer.status === 404) return reply.callNotFound();
    if (answer.status === 304 || answer.status === 416) return reply.status(answer.status).send();
    void reply
      .status(answer.status)
      .header('content-type', answer.contentType)
      .header('content-length', String(answer.info.size))
      .header('last-modified', answer.info.modified.toUTCString())
      .header('accept-ranges', 'bytes')
      // As @fastify/static on disk: browsers revalidate with the ETag.
      .header('cache-control', 'public, max-age=0');
    if (answer.etag) void reply.header('etag', answer.etag);
    if (answer.range) void reply.header('content-range', answer.range);
    return reply.send(head ? undefined : answer.body);
  };
  app.route({ method: 'GET', url: '/media/*', exposeHeadRoute: false, handler: serve(false) });
  app.route({ method: 'HEAD', url: '/media/*', handler: serve(true) });
}

/**
 * GET/HEAD /media/<key> from the disk store: @fastify/send (what @fastify/static sends with: ETag,
 * Last-Modified, 304, single ranges) for a key the store's own rule accepts. Not @fastify/static's
 * wildcard route: on every request it lists each folder of the path to check the spelling's
 * case, and an event's folder holds one folder per photo, so a thumb cost a listing of the
 * whole album (14 ms of CPU per request at 20,000 photos, growing with the event; the fans
 * bench's burst spent 3 % of the loop there). Keys are the store's (lower-case ids, fixed
 * names), so a spelling alias names no other file.
 */
export function registerDiskMediaRoute(app: FastifyInstance, root: string): void {
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = keyOfUrl(`/media/${(req.params as { '*': string })['*']}`);
    if (!key) return reply.callNotFound();
    const sent = await send(req.raw, `/${encodeURI(key)}`, { root, index: false, dotfiles: 'deny', maxAge: 0 });
    if (sent.type !== 'file') return reply.callNotFound();
    return reply.code(sent.statusCode).headers(sent.headers).send(sent.stream);
  };
  app.route({ method: 'GET', url: '/media/*', exposeHeadRoute: false, handler: serve });
  app.route({ method: 'HEAD', url: '/media/*', handler: serve });
}
