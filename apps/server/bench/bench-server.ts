/**
 * The server child of the fans and realtime benches (BENCH_ROLE=server): the product's app on the
 * run's data folder, the database and Redis the parent chose (BENCH_DATABASE_URL,
 * BENCH_REDIS_URL), listening on a free port; the first one (BENCH_FIRST=1) makes today's event
 * live and logs the administrator in for the load.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../src/config.ts';

export const BENCH_TOKEN = 'bench-device-token';
export const BENCH_PASSWORD = 'bench-admin-password';

/** What the first server hands the load: the live event and an administrator's session cookie. */
export type BenchSetup = { slugDate: string; eventId: string; cookie: string };

export async function startBenchServer(opts: {
  /** Settings read as the product reads them from its environment (limits, queue size). */
  env?: NodeJS.ProcessEnv;
  /** Set on top of the bench's own (the PGlite folder, the attendee app's build). */
  config?: Partial<AppConfig>;
}) {
  const { buildApp } = await import('../src/app.ts');
  const { configFromEnv } = await import('../src/config.ts');
  const { ensureTodayEventLive } = await import('../src/modules/events/events.service.ts');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const app = await buildApp(
    {
      ...configFromEnv(opts.env ?? {}),
      dataDir,
      databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
      pgliteDir: path.join(dataDir, 'pglite'),
      mediaDir: path.join(dataDir, 'media'),
      outboxDir: path.join(dataDir, 'outbox'),
      adminPassword: BENCH_PASSWORD,
      deviceToken: BENCH_TOKEN,
      publicUrl: 'http://127.0.0.1',
      webDist: path.join(dataDir, 'no-web'),
      attendeeDist: path.join(dataDir, 'no-attendee'),
      logLevel: 'warn',
      trustProxy: false,
      ...(process.env.BENCH_REDIS_URL
        ? { redis: { url: process.env.BENCH_REDIS_URL, prefix: process.env.BENCH_REDIS_PREFIX! } }
        : {}),
      ...opts.config,
    },
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  let setup: BenchSetup | undefined;
  if (process.env.BENCH_FIRST === '1') {
    const event = await ensureTodayEventLive(app.deps);
    const login = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'admin', password: BENCH_PASSWORD }),
    });
    const sid = login.cookies.find((c) => c.name === 'sid')!.value;
    setup = { slugDate: event.slugDate, eventId: event._id, cookie: `sid=${sid}` };
  }
  return { app, url, setup };
}
