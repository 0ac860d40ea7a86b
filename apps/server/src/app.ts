import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { parseQuery } from '@stadiumcam/contract';
import type { AppConfig } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import type { Deps } from './deps.ts';
import { createMailer } from './mail/mailer.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { loadSessionUser, SESSION_COOKIE } from './plugins/session.ts';
import { createRealtime } from './plugins/socket.ts';
import { modules } from './modules/index.ts';
import { bootstrap } from './bootstrap.ts';

export type App = FastifyInstance & { deps: Deps };

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Builds the whole server (API, sockets, static console and media) on one database.
 * Tests build it with PGlite in memory or a PostgreSQL test database.
 */
export async function buildApp(config: AppConfig, opts: { logger?: boolean; database?: Database } = {}): Promise<App> {
  const database = opts.database ?? (await openDatabase(config));
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
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
  await app.register(helmet, {
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
  });
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 20, fields: 50 } });

  // Session first, then the origin rule for state-changing browser requests (DESIGN §4).
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const sid = req.cookies[SESSION_COOKIE];
    req.user = await loadSessionUser(database.db, sid);
    if (UNSAFE_METHODS.has(req.method) && (sid || req.headers.origin)) {
      const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
      if (origin !== `${req.protocol}://${req.host}`) {
        return reply.status(403).send({ error: 'Cross-origin request refused' });
      }
    }
  });

  await mkdir(config.mediaDir, { recursive: true });
  await app.register(fastifyStatic, { root: config.mediaDir, prefix: '/media/', decorateReply: false, index: false });
  const hasWeb = existsSync(config.webDist);
  if (hasWeb) await app.register(fastifyStatic, { root: config.webDist, prefix: '/', wildcard: true });

  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'GET' && hasWeb && !req.url.startsWith('/api/') && !req.url.startsWith('/media/')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Not found' });
  });

  const realtime = createRealtime(app, database.db, config.deviceToken);
  const deps: Deps = {
    db: database.db,
    dbKind: database.kind,
    config,
    mailer: createMailer(config),
    realtime,
    log: app.log,
  };
  app.decorate('deps', deps);
  for (const register of modules) await register(app, deps);
  await bootstrap(deps);
  app.addHook('onClose', async () => {
    await database.close();
  });
  return app;
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
