import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MSG } from '@stadiumcam/contract';
import { AppError } from '../errors.ts';

export const DATABASE_UNAVAILABLE = 'The database is not answering, please try again in a moment';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const CONNECTION_TEXT = /Connection terminated|timeout exceeded when trying to connect|connection timeout/i;

/**
 * PostgreSQL out of reach (down, restarting, cut off): the request answers 503 at once and the
 * pool connects again by itself when the server is back. SQLSTATE class 08 is a connection
 * exception; 57P01–57P03 are shutdown and "cannot connect now". Drizzle wraps the driver's
 * error, so the whole cause chain is read.
 */
function databaseUnavailable(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)))
      return true;
    if (CONNECTION_TEXT.test(e.message)) return true;
  }
  return false;
}

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
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx: malformed JSON, too large, wrong content type, throttled.
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'Invalid request: malformed JSON'
          : err.message;
      return reply.status(status).send({ error: message });
    }
    if (databaseUnavailable(err)) {
      req.log.warn({ err: (err as Error).message }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ error: DATABASE_UNAVAILABLE });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: MSG.common.internalError });
  });
}
