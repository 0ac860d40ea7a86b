import rateLimit from '@fastify/rate-limit';
import { attendeeRoutes, devicesRoutes } from '@stadiumcam/contract';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { registerRoute } from '../../plugins/routes.ts';
import { chooseOverlay, joinQueue, publicEvent, share, userSnapshots } from './attendee.service.ts';
import { ingestPhoto } from './ingest.service.ts';
import { ensureDemoOverlays } from './overlays.bootstrap.ts';

/** Requests per minute per client address on /api/public (attendee phones). */
const PUBLIC_RATE_LIMIT = Number(process.env.PUBLIC_RATE_LIMIT) || 600;

/** Camera hosts' photo uploads and the attendee path (docs/protocol.md §1, §3). */
export async function devicesModule(app: App, deps: Deps): Promise<void> {
  registerRoute(app, devicesRoutes.uploadPhoto, async ({ req }) => ingestPhoto(deps, req));

  await app.register(async (attendee) => {
    await attendee.register(rateLimit, {
      max: PUBLIC_RATE_LIMIT,
      timeWindow: 60_000,
      errorResponseBuilder: (_req, ctx) =>
        new AppError(429, 'Too many requests, please slow down', undefined, {
          'retry-after': String(Math.ceil(ctx.ttl / 1000)),
        }),
    });
    registerRoute(attendee, attendeeRoutes.event, async () => publicEvent(deps));
    registerRoute(attendee, attendeeRoutes.joinQueue, async ({ body }) => joinQueue(deps, body));
    registerRoute(attendee, attendeeRoutes.snapshots, async ({ query }) =>
      userSnapshots(deps, query.slugDate, query.userId),
    );
    registerRoute(attendee, attendeeRoutes.chooseOverlay, async ({ params, body }) =>
      chooseOverlay(deps, params.id, body.userId, body.overlay),
    );
    registerRoute(attendee, attendeeRoutes.share, async ({ params, body }) => share(deps, params.id, body));
  });

  // After buildApp's bootstrap has created the master template.
  app.addHook('onReady', async () => {
    await ensureDemoOverlays(deps);
  });
}
