import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MSG } from '@stadiumcam/contract';
import { AppError } from '../errors.ts';

/** Node's socket and DNS errors of a server out of reach (a stopped container's name does not resolve). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs: class 08 connection exceptions; 57P01 admin shutdown, 57P02 crash shutdown,
 * 57P03 cannot connect now (starting up, shutting down, recovering); 53300 too many clients.
 */
const SQLSTATE = /^(08...|57P0[123]|53300)$/;
/**
 * node-postgres and its pool: the connection dropped ("Connection terminated unexpectedly"),
 * a client used after its connection broke (the rollback of a transaction in flight: "Client
 * has encountered a connection error and is not queryable"), the pool's connect timeout.
 */
const CONNECTION_TEXT =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|connection timeout/i;

/**
 * PostgreSQL out of reach (down, restarting, refusing, cut off): the request answers 503 at
 * once and the pool connects again by itself when the server is back. Drizzle wraps the
 * driver's error (`Failed query: …`), so the whole cause chain is read.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (CONNECTION_TEXT.test(e.message)) return true;
  }
  return false;
}

/** Seconds a client waits before trying again after a 503 (a restart of PostgreSQL takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Every failure answers `{ error, details? }`; a 500 never shows a stack (DESIGN §4). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        path: (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.'),
        message: v.message,
        in: err.validationContext,
      }));
      const first = details[0];
      return reply.status(400).send({ error: MSG.common.invalidRequest(first?.path, first?.message), details });
    }
    if (err instanceof AppError) {
      if (err.headers) void reply.headers(err.headers);
      return reply
        .status(err.statusCode)
        .send(err.details ? { error: err.message, details: err.details } : { error: err.message });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response did not match its contract');
      return reply.status(500).send({ error: MSG.common.internalError });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? 0;
      return reply.status(413).send({ error: MSG.common.bodyTooLarge(Math.round(limit / 1024)) });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx: malformed JSON, too large, wrong content type, throttled.
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'Invalid request: malformed JSON'
          : err.message;
      return reply.status(status).send({ error: message });
    }
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: (err as Error).message }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ error: MSG.common.databaseUnavailable });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: MSG.common.internalError });
  });
}
