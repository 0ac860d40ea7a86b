import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  MSG,
  can,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@stadiumcam/contract';
import { forbidden, unauthorized } from '../errors.ts';
import { refuseForbiddenChars } from './forbidden-chars.ts';
import type { AuthUser } from './session.ts';

export type HandlerCtx<R extends RouteDef> = {
  params: RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  /** Set for every route that needs a session; null on public and device routes. */
  user: R extends { permission: unknown } ? AuthUser : AuthUser | null;
  req: FastifyRequest;
  reply: FastifyReply;
};

export type Handler<R extends RouteDef> = (ctx: HandlerCtx<R>) => Promise<RouteResponse<R> | undefined>;

// Augmenting fastify's own interfaces needs interface syntax.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered through the contract, for the route × role test. */
    routeDefs: RouteDef[];
    deviceToken: string;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

export function describeAccess(def: RouteDef): string {
  if (def.public) return 'public';
  if (def.device) return 'device';
  return JSON.stringify(def.permission);
}

export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Registers one contract route. Validation and serialisation come from its zod schemas;
 * the guard runs before the body is read. A route with no declared access throws at boot.
 */
export function registerRoute<R extends RouteDef>(app: FastifyInstance, def: R, handler: Handler<R>): void {
  if (!def.public && !def.device && !def.permission) {
    const { method, path } = def as RouteDef;
    throw new Error(`Route ${method} ${path} declares no permission (nor public/device)`);
  }
  app.routeDefs.push(def);
  app.route({
    method: def.method,
    url: def.path,
    schema: {
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body && !def.multipart ? { body: def.body } : {}),
      ...(def.response ? { response: { 200: def.response } } : {}),
    },
    onRequest: async (req) => {
      if (def.public) return;
      if (def.device) {
        const header = req.headers.authorization;
        const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
        if (!tokenMatches(token, app.deviceToken)) throw unauthorized(MSG.devices.invalidDeviceToken);
        return;
      }
      if (!req.user) throw unauthorized();
      if (def.permission === 'session') return;
      if (!can(req.user.permissions, def.permission, { or: def.or })) {
        req.log.warn({ user: req.user.username, route: `${def.method} ${def.path}` }, 'permission refused');
        throw forbidden();
      }
    },
    // Before the schemas run: a NUL or bidi override anywhere is a 400, never a database 500.
    preValidation: async (req) => {
      refuseForbiddenChars([req.params, req.query, req.body]);
    },
    handler: async (req, reply) => {
      const result = await handler({
        params: req.params as RouteParams<R>,
        query: req.query as RouteQuery<R>,
        body: req.body as RouteBody<R>,
        user: req.user as HandlerCtx<R>['user'],
        req,
        reply,
      });
      if (def.response === null) {
        if (!reply.sent && reply.statusCode === 200 && result === undefined) return reply.status(204).send();
        return reply;
      }
      return result;
    },
  });
}
