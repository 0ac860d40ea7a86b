import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { attendeeAppRoutes } from '@stadiumcam/contract';
import { AppError, ERR } from '../errors.ts';

/**
 * `perMinute` requests a minute per client address (429 with Retry-After beyond), for one route
 * of its own (the photo e-mail). With several instances the counts live in Redis, so a phone
 * cannot multiply its allowance by the number of servers; while Redis is away requests pass
 * rather than fail (docs/operations.md).
 */
export function rateLimitOptions(deps: Deps, perMinute: number, name: string): RateLimitPluginOptions {
  const { redis, key } = deps.cluster;
  return {
    max: perMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: key(`rate:${name}:`), skipOnError: true } : {}),
    errorResponseBuilder: (_req, ctx) =>
      new AppError(429, ERR.common.tooManyRequests, {
        headers: { 'retry-after': String(Math.ceil(ctx.ttl / 1000)) },
      }),
  };
}

/**
 * Registers routes of the attendee path (/api/public) in a scope of their own. Every request
 * under /api/public is limited by `installPublicLimits` (one hook on the root), whichever module
 * registers the route, so a new public route cannot be left out.
 */
export async function registerPublicScope(
  app: FastifyInstance,
  _deps: Deps,
  register: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    register(scope);
  });
}

// Augmenting fastify's own interfaces needs interface syntax.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyRequest {
    /** The fan id of a valid fan token (`X-Fan-Token`, or `?fan=` on the live stream); null without one. */
    fanId: string | null;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

const WINDOW_MS = 60_000;
export const FAN_TOKEN_HEADER = 'x-fan-token';

/** One fixed window's counts; a step that goes over its cap stops the ones after it. */
type Step = { key: string; max: number };
type Taken = { ok: true } | { ok: false; retryAfter: number };

/**
 * Counts the steps in order and stops at the first over its cap, so a phone over its own
 * allowance is refused before it counts against its address: an abusive phone is refused alone.
 * Redis (several instances): one script per request, atomic; while Redis is away, requests pass.
 */
function createCounter(deps: Deps): (steps: Step[]) => Promise<Taken> {
  const { redis, key } = deps.cluster;
  const retryAfter = (now: number) => Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000));
  if (redis) {
    const script = `for i = 1, #KEYS do
  local n = redis.call('INCR', KEYS[i])
  if n == 1 then redis.call('PEXPIRE', KEYS[i], ${WINDOW_MS + 1_000}) end
  if n > tonumber(ARGV[i]) then return i end
end
return 0`;
    return async (steps) => {
      const now = Date.now();
      const window = Math.floor(now / WINDOW_MS);
      try {
        const over = (await redis.eval(
          script,
          steps.length,
          ...steps.map((s) => key(`public:${window}:${s.key}`)),
          ...steps.map((s) => String(s.max)),
        )) as number;
        return over ? { ok: false, retryAfter: retryAfter(now) } : { ok: true };
      } catch {
        return { ok: true };
      }
    };
  }
  let window = -1;
  let counts = new Map<string, number>();
  return async (steps) => {
    const now = Date.now();
    const w = Math.floor(now / WINDOW_MS);
    if (w !== window) {
      window = w;
      counts = new Map();
    }
    for (const s of steps) {
      const n = (counts.get(s.key) ?? 0) + 1;
      counts.set(s.key, n);
      if (n > s.max) return { ok: false, retryAfter: retryAfter(now) };
    }
    return { ok: true };
  };
}

const FAN_ID_CALL = `POST ${attendeeAppRoutes.fan.path}`;
const isFanIdCall = (req: FastifyRequest) => `${req.method} ${req.url.split('?', 1)[0]}` === FAN_ID_CALL;

/** The fan token a request carries: the header, or `?fan=` (an EventSource cannot send headers). */
export function fanTokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers[FAN_TOKEN_HEADER];
  if (typeof header === 'string') return header;
  const query = req.query as Record<string, unknown> | undefined;
  return typeof query?.fan === 'string' ? query.fan : undefined;
}

/**
 * Every request under /api/public (docs/security.md §19), before its body is read: with a valid
 * fan token it counts against the fan (`perFan` a minute); without one, a phone asking for its
 * fan id counts against the address's budget for that call (`publicRateLimit`), any other call
 * against a budget of the same size of its own, so a phone sending made-up ids in a loop uses
 * up only that one and the phones arriving behind it still get their fan ids; then every
 * request counts against the address's ceiling (`perAddress`), sized for a stadium's phones
 * behind one Wi-Fi address. 429 with Retry-After (the end of the minute).
 */
export function installPublicLimits(app: FastifyInstance, deps: Deps, verify: (token: unknown) => string | null): void {
  const take = createCounter(deps);
  app.decorateRequest('fanId', null);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/public/')) return;
    const { perFan, perAddress } = deps.config.publicLimits;
    const fanId = verify(fanTokenOf(req));
    req.fanId = fanId;
    const first: Step = fanId
      ? { key: `fan:${fanId}`, max: perFan }
      : { key: `${isFanIdCall(req) ? 'fanid' : 'anon'}:${req.ip}`, max: deps.config.publicRateLimit };
    const taken = await take([first, { key: `addr:${req.ip}`, max: perAddress }]);
    if (!taken.ok)
      throw new AppError(429, ERR.common.tooManyRequests, { headers: { 'retry-after': String(taken.retryAfter) } });
  });
}
