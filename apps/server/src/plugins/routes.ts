import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  can,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@stadiumcam/contract';
import { forbidden, unauthorized, ERR } from '../errors.ts';
import {
  auditSafeObject,
  newAuditScope,
  runInAuditScope,
  targetsOf,
  type AuditRecord,
  type AuditScope,
} from '../audit-context.ts';
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

/**
 * A phone's calls carry a seat, a choice or an address: far under this. A larger body is
 * refused (413) from its Content-Length before it is read or parsed, so a phone sending
 * megabytes costs the server one header check (issue 30, bad input under load).
 */
export const PUBLIC_BODY_LIMIT = 16 * 1024;

export type Handler<R extends RouteDef> = (ctx: HandlerCtx<R>) => Promise<RouteResponse<R> | undefined>;

// Augmenting fastify's own interfaces needs interface syntax.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered through the contract, for the route × role test. */
    routeDefs: RouteDef[];
    deviceToken: string;
    /**
     * The device token check with its per-address throttle (modules/devices/device-gate.ts):
     * null when the token is right, else the error to answer.
     */
    deviceGate?: { check: (token: unknown, address: string) => Promise<Error | null> };
    /** Writes one audit log entry (modules/audit); set at boot, read per request. */
    recordAudit?: (entry: AuditRecord) => Promise<void>;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The audited call's scope (audit-context.ts); set by the handler of a route with `audit`. */
    auditScope?: AuditScope;
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
    ...(def.audit ? { onSend: auditOnSend(app, def) } : {}),
    ...(def.public ? { bodyLimit: PUBLIC_BODY_LIMIT } : {}),
    onRequest: async (req) => {
      if (def.public) return;
      if (def.device) {
        const header = req.headers.authorization;
        const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
        if (app.deviceGate) {
          const refusal = await app.deviceGate.check(token, req.ip);
          if (refusal) throw refusal;
        } else if (!tokenMatches(token, app.deviceToken)) throw unauthorized(ERR.devices.invalidDeviceToken);
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
      // A handler that sends its own answer (CSV, archives, exports, metrics) may return before
      // that answer is written: compression above its sync threshold pipes it through a stream,
      // so `reply.sent` is still false. Such a route answers with the reply itself, never a
      // second send (the 204 that replaced /metrics for Prometheus, issue 27 §12).
      let replied = false;
      const send = reply.send.bind(reply);
      reply.send = (payload) => {
        replied = true;
        return send(payload);
      };
      const ctx = {
        params: req.params as RouteParams<R>,
        query: req.query as RouteQuery<R>,
        body: req.body as RouteBody<R>,
        user: req.user as HandlerCtx<R>['user'],
        req,
        reply,
      };
      let result: Awaited<ReturnType<Handler<R>>>;
      if (def.audit) {
        // Services add before/after to this scope (auditNote); the onSend hook records it.
        req.auditScope = newAuditScope();
        result = await runInAuditScope(req.auditScope, () => handler(ctx));
      } else result = await handler(ctx);
      if (replied || reply.sent || result === reply) return reply;
      if (def.response === null) {
        return result === undefined && reply.statusCode === 200 ? reply.status(204).send() : reply;
      }
      return result;
    },
  });
}

/** The error text of a refused call: the `{ error }` body every failure answers (plugins/errors.ts). */
function reasonOf(payload: unknown): string | null {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  try {
    const body = JSON.parse(String(payload)) as { error?: unknown };
    return typeof body.error === 'string' ? body.error.slice(0, 500) : null;
  } catch {
    return null;
  }
}

/**
 * The audit log's one recording point for HTTP (docs/audit.md): every call of a route with
 * `audit`, done (2xx/3xx) or refused (the status's error text), once its answer is known and
 * before it leaves, so a client that reads the log next finds it. Anonymous calls are left out
 * (a scan is no operator's action) unless a service named the user (a failed login).
 */
function auditOnSend(app: FastifyInstance, def: RouteDef) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const scope = req.auditScope ?? newAuditScope();
    const actor = scope.actor ?? (req.user ? { id: req.user._id, username: req.user.username } : null);
    const action = scope.action ?? def.audit!;
    if (!actor && scope.username === undefined) return payload;
    if (!app.recordAudit) return payload;
    const refused = reply.statusCode >= 400;
    const found = targetsOf(req.params, req.query, def.multipart ? null : req.body);
    const asked = auditSafeObject({
      ...(req.query && typeof req.query === 'object' ? req.query : {}),
      ...(!def.multipart && req.body && typeof req.body === 'object' ? req.body : {}),
    });
    try {
      await app.recordAudit({
        action,
        actorId: actor?.id ?? null,
        username: actor?.username ?? scope.username ?? null,
        slugDate: scope.slugDate !== undefined ? scope.slugDate : found.slugDate,
        targets: { ...found.targets, ...auditSafeObject(scope.targets) },
        detail: { ...(Object.keys(asked).length ? { request: asked } : {}), ...auditSafeObject(scope.detail) },
        address: req.ip ?? null,
        result: refused ? 'refused' : 'done',
        reason: refused ? (reasonOf(payload) ?? `HTTP ${reply.statusCode}`) : null,
      });
    } catch (err) {
      // The answer is already decided; a lost entry is logged, never a second failure.
      req.log.error({ err, action }, 'audit entry not written');
    }
    return payload;
  };
}
