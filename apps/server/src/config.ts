import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';

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
  /** PUBLIC_URL's origin when it is set: the one origin browsers may call from (DESIGN §4). */
  publicOrigin?: string;
  smtpUrl?: string;
  /** Built console; served when present. */
  webDist: string;
  /** Built attendee app; served at /app/ when present. */
  attendeeDist: string;
  logLevel: string;
  /** Guards /metrics when set (Authorization: Bearer <token>). */
  metricsToken?: string;
  /** A console session unused this long ends (SESSION_IDLE_HOURS, 12); it ends 7 days after login anyway. */
  sessionIdleMs: number;
  /**
   * Which X-Forwarded-For hops to trust (Fastify's trustProxy): a hop count, or a list of
   * proxy addresses/CIDRs; the client is the right-most untrusted hop. `false` = none.
   */
  trustProxy: false | number | string;
  /** A Nominatim-compatible geocoding service (GEOCODER_URL); without it operators type lat/lon. */
  geocoderUrl?: string;
  /** Requests per minute per client address on /api/public that carry no fan id (mostly fan id requests). */
  publicRateLimit: number;
  /** The attendee path's other limits (docs/security.md §19, the figures they were sized from). */
  publicLimits: PublicLimits;
  /** FAN_TOKEN_SECRET: the key that signs fan ids; without it one is made once and kept in the database. */
  fanTokenSecret?: string;
  /**
   * The suspicious-user rule (docs/protocol.md §4): within `windowMinutes`, at least `photos`
   * photos or at least `seats` distinct seats by one user id at one event.
   */
  suspicious: { photos: number; seats: number; windowMinutes: number };
  /** Where main.ts listens. */
  port: number;
  host: string;
  /** The venue simulator main.ts starts (`SIMULATOR=off`: none); unset numbers take its defaults. */
  simulator: false | SimulatorOptions;
  /** How long the server waits for a camera host's answer before telling the caller it did not answer. */
  hostAckTimeoutMs: number;
  /**
   * The photos' image work (media/image-pool.ts): IMAGE_WORKERS worker threads (default the
   * cores; 0 = in this process), and INGEST_MAX_WAIT_MS, the longest a photo may wait for them
   * before its host is told to retry later (503 with Retry-After, docs/protocol.md §1).
   */
  images: { workers: number; maxWaitMs: number };
  /**
   * Several instances (DESIGN §13, docs/operations.md): a Redis server shared by every instance,
   * and the prefix of every key and channel this deployment uses there (tests use their own).
   */
  redis?: { url: string; prefix: string };
  /** An S3-compatible media store (S3_BUCKET); media stay under `mediaDir` without it. */
  s3?: S3Settings;
  /** Audit log entries older than this many days are removed, at boot and daily (AUDIT_RETENTION_DAYS, 400). */
  auditRetentionDays: number;
};

export type PublicLimits = {
  /** Requests per minute of one fan id (PUBLIC_FAN_RATE_LIMIT). */
  perFan: number;
  /** Requests per minute of one client address, fan ids included (PUBLIC_ADDRESS_RATE_LIMIT). */
  perAddress: number;
  /** Fans waiting in one camera's queue at most (QUEUE_MAX). */
  queueMax: number;
  /** Open live streams of one fan id (STREAMS_PER_FAN) and of one address (STREAMS_PER_ADDRESS), per instance. */
  streamsPerFan: number;
  streamsPerAddress: number;
  /** Open live streams of one instance (MAX_STREAMS). */
  maxStreams: number;
};

export type S3Settings = {
  bucket: string;
  /** S3_ENDPOINT: a MinIO, Ceph, R2... URL; AWS's own endpoint when absent. */
  endpoint?: string;
  region: string;
  /** Bucket in the path (`<endpoint>/<bucket>/key`), as most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; absent: the SDK's default chain (instance role, profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
};

export type SimulatorOptions = {
  seed?: number;
  hosts?: number;
  camerasPerHost?: number;
  fps?: number;
  attendeeRate?: number;
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');

const positiveInt = (value: string | undefined, fallback: number) => {
  const v = Number(value);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

/** Hours and the like: fractions allowed (`0.5`). */
const positiveNumber = (value: string | undefined, fallback: number) => {
  const v = Number(value);
  return value && Number.isFinite(v) && v > 0 ? v : fallback;
};

/** The shortest DEVICE_TOKEN a server starts with (docs/operations.md, docs/security.md §15). */
export const MIN_DEVICE_TOKEN_LENGTH = 32;

/**
 * Why the configured DEVICE_TOKEN must not be used, or null: one shorter than 32 characters,
 * except with NODE_ENV=development. Unset is fine: the server then makes a 32-character one for
 * its built-in simulator.
 */
export function deviceTokenProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  const token = env.DEVICE_TOKEN;
  if (!token || env.NODE_ENV === 'development' || token.length >= MIN_DEVICE_TOKEN_LENGTH) return null;
  return `DEVICE_TOKEN must be at least ${MIN_DEVICE_TOKEN_LENGTH} characters (it has ${token.length}): set a long random value (openssl rand -hex 32), or leave it unset for the built-in simulator`;
}

/** The only place that reads the environment (besides the simulator's own options in main.ts). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const num = (value: string | undefined) => (value ? Number(value) : undefined);
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
    publicOrigin: env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : undefined,
    smtpUrl: env.SMTP_URL || undefined,
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    attendeeDist: env.ATTENDEE_DIST ? path.resolve(env.ATTENDEE_DIST) : path.join(repoRoot, 'apps/attendee/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    metricsToken: env.METRICS_TOKEN || undefined,
    sessionIdleMs: positiveNumber(env.SESSION_IDLE_HOURS, 12) * 60 * 60_000,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    geocoderUrl: env.GEOCODER_URL || undefined,
    publicRateLimit: positiveInt(env.PUBLIC_RATE_LIMIT, 3_000),
    publicLimits: {
      perFan: positiveInt(env.PUBLIC_FAN_RATE_LIMIT, 240),
      perAddress: positiveInt(env.PUBLIC_ADDRESS_RATE_LIMIT, 120_000),
      queueMax: positiveInt(env.QUEUE_MAX, 60),
      streamsPerFan: positiveInt(env.STREAMS_PER_FAN, 4),
      streamsPerAddress: positiveInt(env.STREAMS_PER_ADDRESS, 15_000),
      maxStreams: positiveInt(env.MAX_STREAMS, 20_000),
    },
    fanTokenSecret: env.FAN_TOKEN_SECRET || undefined,
    suspicious: {
      photos: positiveInt(env.SUSPICIOUS_PHOTOS, 8),
      seats: positiveInt(env.SUSPICIOUS_SEATS, 3),
      windowMinutes: positiveInt(env.SUSPICIOUS_WINDOW_MINUTES, 30),
    },
    port,
    host,
    simulator:
      env.SIMULATOR === 'off'
        ? false
        : {
            seed: num(env.SIM_SEED),
            hosts: num(env.SIM_HOSTS),
            camerasPerHost: num(env.SIM_CAMERAS),
            fps: num(env.SIM_FPS),
            attendeeRate: num(env.SIM_ATTENDEE_RATE),
          },
    hostAckTimeoutMs: 10_000,
    images: {
      workers: env.IMAGE_WORKERS === '0' ? 0 : positiveInt(env.IMAGE_WORKERS, availableParallelism()),
      maxWaitMs: positiveInt(env.INGEST_MAX_WAIT_MS, 2_000),
    },
    ...(env.REDIS_URL ? { redis: { url: env.REDIS_URL, prefix: env.REDIS_PREFIX || 'stadiumcam' } } : {}),
    s3: s3FromEnv(env),
    auditRetentionDays: positiveInt(env.AUDIT_RETENTION_DAYS, 400),
  };
}

function s3FromEnv(env: NodeJS.ProcessEnv): S3Settings | undefined {
  if (!env.S3_BUCKET) return undefined;
  const endpoint = env.S3_ENDPOINT || undefined;
  return {
    bucket: env.S3_BUCKET,
    endpoint,
    region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
    // Path style by default with a custom endpoint (MinIO and most others); virtual hosts on AWS.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : !!endpoint,
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            sessionToken: env.AWS_SESSION_TOKEN || undefined,
          }
        : undefined,
  };
}

/**
 * TRUST_PROXY: `true` = one proxy in front (the hop it saw is the client; a client-written
 * X-Forwarded-For left of it is ignored), a number = that many proxies, otherwise a comma list
 * of proxy addresses or CIDRs. Never "trust every hop": the left-most entry is the client's own.
 */
export function parseTrustProxy(value: string | undefined): false | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
