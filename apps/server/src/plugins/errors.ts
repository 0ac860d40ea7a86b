import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';

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
      const where = first?.path ? `${first.path}: ` : '';
      return reply.status(400).send({ error: `Invalid request: ${where}${first?.message ?? 'bad input'}`, details });
    }
    if (err instanceof AppError) {
      if (err.headers) void reply.headers(err.headers);
      return reply
        .status(err.statusCode)
        .send(err.details ? { error: err.message, details: err.details } : { error: err.message });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response did not match its contract');
      return reply.status(500).send({ error: 'Internal server error' });
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
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'Internal server error' });
  });
}
