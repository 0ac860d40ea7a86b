import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * Registers routes of the attendee path (/api/public) in a scope rate-limited per client
 * address (`perMinute` requests a minute; 429 with Retry-After beyond).
 */
export async function registerPublicScope(
  app: FastifyInstance,
  perMinute: number,
  register: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      max: perMinute,
      timeWindow: 60_000,
      errorResponseBuilder: (_req, ctx) =>
        new AppError(429, 'Too many requests, please slow down', {
          headers: { 'retry-after': String(Math.ceil(ctx.ttl / 1000)) },
        }),
    });
    register(scope);
  });
}
