import path from 'node:path';
import { randomBytes } from 'node:crypto';

export type AppConfig = {
  /** Where PGlite, the media store, the outbox and the lock live. */
  dataDir: string;
  /** PostgreSQL server; when absent PGlite runs embedded. */
  databaseUrl?: string;
  /** PGlite location: a directory, or `memory://` for tests. */
  pgliteDir: string;
  mediaDir: string;
  outboxDir: string;
  adminPassword?: string;
  deviceToken: string;
  publicUrl: string;
  smtpUrl?: string;
  /** Built console; served when present. */
  webDist: string;
  logLevel: string;
  /** Rate limits and lock-outs; tests shorten nothing, they count. */
  trustProxy: boolean;
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const port = env.PORT ?? '8080';
  const host = env.HOST ?? '127.0.0.1';
  return {
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: path.join(dataDir, 'pglite'),
    mediaDir: path.join(dataDir, 'media'),
    outboxDir: path.join(dataDir, 'outbox'),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    // Without a configured token the server makes one per run and hands it to its own simulator.
    deviceToken: env.DEVICE_TOKEN || randomBytes(16).toString('hex'),
    publicUrl: env.PUBLIC_URL ?? `http://${host}:${port}`,
    smtpUrl: env.SMTP_URL || undefined,
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true',
  };
}
