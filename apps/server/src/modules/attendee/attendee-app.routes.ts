import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { attendeeAppRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError, forbidden, notFound, unauthorized, ERR } from '../../errors.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { rateLimitOptions } from '../../plugins/public-scope.ts';
import { currentEvent, eventBySlugDate } from '../events/index.ts';
import { toPublicTemplate } from '../template/index.ts';
import { emailPhoto, queuePosition, seatChoices } from './attendee-app.service.ts';
import { checkTriviaAnswer } from './trivia-answer.service.ts';
import { eventText } from '../snapshots/index.ts';
import type { FanIds } from './fan-token.ts';
import { pushQueuePlaces } from './fan-push.ts';

const HEARTBEAT_MS = 25_000;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** What a refused stream is told to wait before trying again. */
const STREAM_RETRY_S = '30';
/** Photo e-mails per minute per client address. */
const EMAILS_PER_MINUTE = 5;

const esc = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The attendee app: its built files at /app/ (index.html with the current event's title,
 * description, SEO image and colour in the meta tags), the live template stream, the queue
 * position and the photo e-mail (docs/attendee-app.md).
 */
export async function registerAttendeeAppRoutes(app: App, deps: Deps, fans: FanIds): Promise<void> {
  // Open streams end when the server closes (they are never idle, so close would wait on them).
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });
  // Open streams per fan id and per client address on this instance (docs/security.md §19).
  const perFan = new Map<string, number>();
  const perAddress = new Map<string, number>();
  const bump = (counts: Map<string, number>, key: string, by: number) => {
    const n = (counts.get(key) ?? 0) + by;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
  };
  const limits = deps.config.publicLimits;

  registerRoute(app, attendeeAppRoutes.fan, async () => fans.issue());
  pushQueuePlaces(deps);

  registerRoute(app, attendeeAppRoutes.stream, async ({ query, reply, req }) => {
    const fanId = req.fanId;
    if (!fanId) throw unauthorized(ERR.attendeeApp.fanIdNeeded);
    const event = await eventBySlugDate(deps, query.slugDate);
    if (!event) throw notFound(ERR.events.eventNotFound);
    // Checked and counted in one turn (no await between): two opened at once cannot both pass a cap.
    const address = req.ip;
    const retry = { headers: { 'retry-after': STREAM_RETRY_S } };
    if ((perFan.get(fanId) ?? 0) >= limits.streamsPerFan)
      throw new AppError(429, ERR.attendeeApp.tooManyFanStreams, retry);
    if (deps.attendeeFeed.size() >= limits.maxStreams || (perAddress.get(address) ?? 0) >= limits.streamsPerAddress)
      throw new AppError(503, ERR.attendeeApp.tooManyStreams, retry);
    bump(perFan, fanId, 1);
    bump(perAddress, address, 1);
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write(`retry: 3000\n: ${toPublicTemplate(event).version}\n\n`);
    const unsubscribe = deps.attendeeFeed.subscribe(event.slugDate, (frame) => reply.raw.write(frame));
    // The fan's own pushes on the same stream (issue 30 §3): its queue place, then its photo.
    const unsubscribeFan = deps.attendeeFeed.subscribeFan(fanId, (name, data) => {
      reply.raw.write(`event: ${name}\ndata: ${data}\n\n`);
    });
    reply.raw.write(`event: queue\ndata: ${JSON.stringify(queuePosition(deps, fanId))}\n\n`);
    const heartbeat = setInterval(() => reply.raw.write(': ping\n\n'), HEARTBEAT_MS);
    const end = () => {
      if (!streams.delete(end)) return;
      clearInterval(heartbeat);
      unsubscribe();
      unsubscribeFan();
      bump(perFan, fanId, -1);
      bump(perAddress, address, -1);
      reply.raw.end();
    };
    streams.add(end);
    req.raw.on('close', end);
    return undefined;
  });

  registerRoute(app, attendeeAppRoutes.queuePosition, async ({ query, req }) => {
    if (!req.fanId) throw unauthorized(ERR.attendeeApp.fanIdNeeded);
    if (req.fanId !== query.userId) throw forbidden(ERR.attendeeApp.fanIdMismatch);
    return queuePosition(deps, query.userId);
  });
  registerRoute(app, attendeeAppRoutes.triviaAnswer, async ({ params, body }) =>
    checkTriviaAnswer(deps, params.slugDate, params.language, body),
  );
  registerRoute(app, attendeeAppRoutes.seats, async ({ query }) => seatChoices(deps, query));

  await app.register(async (limited) => {
    await limited.register(rateLimit, rateLimitOptions(deps, EMAILS_PER_MINUTE, 'email'));
    registerRoute(limited, attendeeAppRoutes.email, async ({ params, body }) => emailPhoto(deps, params.id, body));
  });

  const dist = deps.config.attendeeDist;
  if (!existsSync(path.join(dist, 'index.html'))) return;
  const indexHtml = await readFile(path.join(dist, 'index.html'), 'utf8');
  // The build writes .br and .gz beside each text file (vite-precompress.ts): a phone's file costs
  // a read, not a compression (7 ms of CPU per phone for the script, docs/bench-fans.md). Files
  // under assets/ carry a content hash: a year, immutable, so the service worker's install comes
  // from the phone's HTTP cache. sw.js, the manifest and the icons keep their names: revalidated.
  // The page itself (index.html) is the event's, below.
  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/app/',
    decorateReply: false,
    index: false,
    wildcard: false,
    globIgnore: ['index.html*', '**/*.br', '**/*.gz'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      void reply.header('cache-control', /[\\/]assets[\\/]/.test(file) ? IMMUTABLE : 'no-cache');
    },
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
