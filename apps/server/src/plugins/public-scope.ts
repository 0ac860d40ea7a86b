import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { MSG } from '@stadiumcam/contract';
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';

/**
 * `perMinute` requests a minute per client address (429 with Retry-After beyond). With several
 * instances the counts live in Redis, so a phone cannot multiply its allowance by the number of
 * servers; while Redis is away requests pass rather than fail (docs/operations.md).
 */
export function rateLimitOptions(deps: Deps, perMinute: number, name: string): RateLimitPluginOptions {
  const { redis, key } = deps.cluster;
  return {
    max: perMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: key(`rate:${name}:`), skipOnError: true } : {}),
    errorResponseBuilder: (_req, ctx) =>
      new AppError(429, MSG.common.tooManyRequests, {
        headers: { 'retry-after': String(Math.ceil(ctx.ttl / 1000)) },
      }),
  };
}

/** Registers routes of the attendee path (/api/public) in a scope rate-limited per client address. */
export async function registerPublicScope(
  app: FastifyInstance,
  deps: Deps,
  register: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(rateLimit, rateLimitOptions(deps, deps.config.publicRateLimit, 'public'));
    register(scope);
  });
}
