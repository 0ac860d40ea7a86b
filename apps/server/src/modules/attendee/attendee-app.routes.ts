import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { ATTENDEE_APP_MSG, MSG, attendeeAppRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../errors.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { rateLimitOptions } from '../../plugins/public-scope.ts';
import { currentEvent, eventBySlugDate } from '../devices/events-link.ts';
import { toPublicTemplate } from './public-event.ts';
import { emailPhoto, queuePosition, seatChoices } from './attendee-app.service.ts';
import { eventText } from './photo-email.service.ts';

/** Open live streams one server keeps at most (each is a socket and a few KB). */
const MAX_STREAMS = 20_000;
const HEARTBEAT_MS = 25_000;
/** Photo e-mails per minute per client address. */
const EMAILS_PER_MINUTE = 5;

const esc = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The attendee app: its built files at /app/ (index.html with the current event's title,
 * description, SEO image and colour in the meta tags), the live template stream, the queue
 * position and the photo e-mail (docs/attendee-app.md).
 */
export async function registerAttendeeAppRoutes(app: App, deps: Deps): Promise<void> {
  // Open streams end when the server closes (they are never idle, so close would wait on them).
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });

  registerRoute(app, attendeeAppRoutes.stream, async ({ query, reply, req }) => {
    const event = await eventBySlugDate(deps, query.slugDate);
    if (!event) throw notFound(MSG.events.eventNotFound);
    if (deps.attendeeFeed.size() >= MAX_STREAMS) throw new AppError(503, ATTENDEE_APP_MSG.tooManyStreams);
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write(`retry: 3000\n: ${toPublicTemplate(event).version}\n\n`);
    const unsubscribe = deps.attendeeFeed.subscribe(event.slugDate, (data) => {
      reply.raw.write(`event: template\ndata: ${data}\n\n`);
    });
    const heartbeat = setInterval(() => reply.raw.write(': ping\n\n'), HEARTBEAT_MS);
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(end);
      reply.raw.end();
    };
    streams.add(end);
    req.raw.on('close', end);
    return undefined;
  });

  registerRoute(app, attendeeAppRoutes.queuePosition, async ({ query }) => queuePosition(deps, query.userId));
  registerRoute(app, attendeeAppRoutes.seats, async ({ query }) => seatChoices(deps, query));

  await app.register(async (limited) => {
    await limited.register(rateLimit, rateLimitOptions(deps, EMAILS_PER_MINUTE, 'email'));
    registerRoute(limited, attendeeAppRoutes.email, async ({ params, body }) => emailPhoto(deps, params.id, body));
  });

  const dist = deps.config.attendeeDist;
  if (!existsSync(path.join(dist, 'index.html'))) return;
  const indexHtml = await readFile(path.join(dist, 'index.html'), 'utf8');
  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/app/',
    decorateReply: false,
    index: false,
    wildcard: false,
  });
  const page = async () => {
    const event = await currentEvent(deps);
    const images = event.images as Record<string, string | undefined>;
    const theme = event.theme as Record<string, string | undefined>;
    const values: Record<string, string> = {
      APP_TITLE: eventText(event, 'meta.title'),
      APP_DESCRIPTION: eventText(event, 'meta.description'),
      APP_IMAGE: images.seoUrl ? new URL(images.seoUrl, deps.config.publicUrl).toString() : '',
      APP_THEME: theme.backgroundColor ?? '#0b1f3a',
    };
    return indexHtml.replace(/%(APP_\w+)%/g, (m, k: string) => esc(values[k] ?? ''));
  };
  app.get('/app', (_req, reply) => reply.redirect('/app/'));
  app.get('/app/*', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(await page()),
  );
}
