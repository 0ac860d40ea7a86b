import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import zlib from 'node:zlib';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { EMPTY_SEAT_MAP, MSG, parseQuery } from '@stadiumcam/contract';
import type { AppConfig } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import type { Deps } from './deps.ts';
import { createMailer } from './mail/mailer.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { SESSION_COOKIE } from './plugins/session.ts';
import { loadSessionUser } from './modules/auth/index.ts';
import { ownOrigin, refererOrigin, trustProxyOption } from './plugins/origin.ts';
import { createRealtime } from './plugins/socket.ts';
import { modules } from './modules/index.ts';
import { CameraHub } from './modules/cameras/index.ts';
import { createMetricsState } from './modules/events/index.ts';
import { PageAnchors } from './modules/snapshots/index.ts';
import { PageViewCounter, QueueJoinLog } from './modules/analytics/index.ts';
import { createAttendeeFeed } from './modules/attendee/index.ts';
import { createOpsMetrics } from './modules/ops/index.ts';
import { LOG_REDACT } from './plugins/log-redact.ts';
import { createCluster } from './cluster.ts';
import { createMediaStores } from './media/stores.ts';
import { createImagePool } from './media/image-pool.ts';
import { S3MediaStore } from './media/s3-store.ts';
import { registerDiskMediaRoute, registerS3MediaRoute } from './media/media-route.ts';
import { registerMediaGuard } from './media/media-guard.ts';
import { eventConfigWriter } from './modules/template/index.ts';
import { preLiveFailures } from './modules/checklist/index.ts';

export type App = FastifyInstance & { deps: Deps };

const IMMUTABLE = 'public, max-age=31536000, immutable';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Builds the whole server (API, sockets, static console and media) on one database.
 * Tests build it with PGlite in memory or a PostgreSQL test database.
 */
export async function buildApp(
  config: AppConfig,
  opts: { logger?: boolean; database?: Database; logStream?: { write: (line: string) => void } } = {},
): Promise<App> {
  const database = opts.database ?? (await openDatabase(config));
  const app = Fastify({
    // Readable lines on a terminal, JSON lines otherwise (docs/operations.md).
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: LOG_REDACT,
            ...(opts.logStream
              ? { stream: opts.logStream }
              : process.stdout.isTTY
                ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
                : {}),
          },
    // One debug line per request from the ops area instead of two info lines per request.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxyOption(config.trustProxy),
    routerOptions: { querystringParser: parseQuery },
    bodyLimit: 1024 * 1024,
  }) as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('routeDefs', []);
  app.decorate('deviceToken', config.deviceToken);
  app.decorateRequest('user', null);
  registerErrorHandler(app);

  await app.register(cookie);
  // Security headers, built once: @fastify/helmet rebuilt helmet's middleware (its CSP directives
  // parsed again) on every request, 2.6 % of the server's CPU in the fans bench.
  const securityHeaders = helmet({
    // The console loads media and frames from blob: and data: URLs; websockets to itself.
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // HSTS only over TLS (below): on plain http it would pin a LAN address to https.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (req, reply, done) =>
    securityHeaders(req.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
  app.addHook('onSend', async (req, reply) => {
    if (req.protocol === 'https') void reply.header('strict-transport-security', 'max-age=15552000; includeSubDomains');
  });
  // Only images and videos, never sniffed, never a page; embeddable by other origins (docs/security.md §21).
  registerMediaGuard(app);
  // API answers (album pages, lists) compressed on the fly; the console's files are precompressed
  // at build and served as they are. Brotli at a low quality: the gain over gzip without its cost.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 20, fields: 50 } });

  // Session first, then the origin rule for state-changing browser requests (DESIGN §4).
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const sid = req.cookies[SESSION_COOKIE];
    req.user = await loadSessionUser(database.db, sid, config.sessionIdleMs);
    if (UNSAFE_METHODS.has(req.method) && (sid || req.headers.origin)) {
      const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
      if (origin !== ownOrigin(config, req.protocol, req.host)) {
        return reply.status(403).send({ error: MSG.common.crossOrigin });
      }
    }
  });

  // The data folder holds the database, originals and mails: its owner's only.
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await chmod(config.dataDir, 0o700);
  const stores = createMediaStores(config, app.log);
  if (stores.media instanceof S3MediaStore) registerS3MediaRoute(app, stores.media);
  else {
    await mkdir(config.mediaDir, { recursive: true, mode: 0o700 });
    registerDiskMediaRoute(app, config.mediaDir);
  }
  const hasWeb = existsSync(config.webDist);
  if (hasWeb) {
    // The build writes .br and .gz beside each asset; file names under /assets/ carry a content
    // hash, so they never change: a year, immutable. index.html names them: always revalidated.
    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        reply.header('Cache-Control', /[\\/]assets[\\/]/.test(file) ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'GET' && hasWeb && !req.url.startsWith('/api/') && !req.url.startsWith('/media/')) {
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ error: MSG.common.resourceNotFound });
  });

  const cluster = await createCluster(config, app.log).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  const realtime = createRealtime(app, {
    loadUser: (sid) => loadSessionUser(database.db, sid, config.sessionIdleMs),
    config,
    adapter: cluster.adapter,
  });
  const deps = {
    db: database.db,
    dbKind: database.kind,
    config,
    mailer: createMailer(config),
    realtime,
    log: app.log,
    attendeeFeed: createAttendeeFeed(cluster),
    anchors: new PageAnchors(database.db, (err) => app.log.warn({ err }, 'page anchors')),
    metrics: createMetricsState(),
    eventCache: new Map(),
    pageViews: new PageViewCounter(database.db, (err) => app.log.warn({ err }, 'page views kept for the next write')),
    queueJoins: new QueueJoinLog(database.db, (err) => app.log.warn({ err }, 'queue joins kept for the next write')),
    overlayLayers: new Map(),
    overlayUploads: new Set(),
    suspiciousChecks: new Map(),
    ops: createOpsMetrics(),
    seatMap: { current: EMPTY_SEAT_MAP },
    cluster,
    media: stores.media,
    originals: stores.originals,
    images: createImagePool(config.images.workers, (err) => app.log.error({ err }, 'image worker failed')),
  } satisfies Omit<Deps, 'cameras' | 'eventConfig' | 'preLiveFailures'> as Deps;
  // The hub reports queues back through deps (live metrics), so it is made last.
  deps.cameras = new CameraHub(deps);
  deps.eventConfig = eventConfigWriter(deps);
  deps.preLiveFailures = preLiveFailures(deps);
  app.decorate('deps', deps);
  // Routes, sockets and boot tasks of every area, in modules/index.ts's order.
  for (const register of modules) await register(app, deps);
  app.addHook('onClose', async () => {
    await deps.pageViews.close();
    await deps.queueJoins.close();
    await cluster.close();
    await database.close();
    await stores.close();
    await deps.images.close();
  });
  return app;
}
