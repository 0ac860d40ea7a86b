/**
 * What no log line may carry (docs/security.md §7): passwords, tokens, cookies and the
 * database URL (it holds a password), wherever a logged object puts them. pino replaces them
 * with "[redacted]" before the line is written, so a careless `log.info({ body })` or
 * `log.error({ err, req })` cannot leak one. Routes never log query strings (ops.module.ts)
 * and secrets never travel in URLs (the export password is in a POST body).
 */
const SECRET_KEYS = [
  'password',
  'newPassword',
  'passwordHash',
  'adminPassword',
  'token',
  'deviceToken',
  'metricsToken',
  'sid',
  'cookie',
  'authorization',
  '"set-cookie"',
  'databaseUrl',
  'DATABASE_URL',
  // REDIS_URL may hold a password (config.redis = { url, prefix }); cluster.ts masks it in messages.
  'redis',
  'REDIS_URL',
  // S3 credentials (config.s3.credentials)
  'secretAccessKey',
  'sessionToken',
];

/** Each key at the top and up to three objects deep (`body.password`, `req.headers.cookie`, ...). */
export const LOG_REDACT_PATHS = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]);

export const LOG_REDACT = { paths: LOG_REDACT_PATHS, censor: '[redacted]' };
