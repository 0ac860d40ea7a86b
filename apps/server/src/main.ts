import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from './app.ts';
import { configFromEnv, deviceTokenProblem } from './config.ts';
import { lockDataDir, startupFailure } from './lock.ts';
import { ensureTodayEventLive } from './modules/events/index.ts';
import { sweepOrphans } from './modules/snapshots/index.ts';

/** When this process started: files changed before it are not writes of this process. */
const startedAt = new Date();

// A short shared token is a guessable key to every camera host's role (docs/security.md §15).
const tokenProblem = deviceTokenProblem();
if (tokenProblem) {
  console.error(`\n  Cannot start: ${tokenProblem}\n`);
  process.exit(1);
}
const config = configFromEnv();
let unlock = () => {};
if (!config.databaseUrl) {
  try {
    unlock = lockDataDir(config.dataDir);
  } catch (err) {
    console.error(`\n  ${(err as Error).message}\n`);
    process.exit(1);
  }
}

const app = await buildApp(config).catch((err: unknown) => {
  // One clear line (the cause first), not a driver's stack: usually a wrong DATABASE_URL.
  console.error(`\n  Cannot start: ${startupFailure(err, config.databaseUrl)}\n`);
  unlock();
  process.exit(1);
});
const { port, host } = config;
await app.listen({ port, host });

/**
 * Photo files a crash (kill -9, power loss) left without a row go, in the background so a big
 * store does not delay the start (issue 16 §11). With PGlite the data folder is locked to this
 * process, so everything older than its start is settled; instances sharing PostgreSQL leave
 * the last 10 minutes alone, as another instance may be writing them.
 *
 * Not a boot task of modules/index.ts on purpose: it is the process's, not the app's. It needs
 * this process's data-folder lock (taken above, before buildApp) and start time to know which
 * files are settled; tests build many apps in one process without that lock, and nothing in the
 * app waits on it. Started after listen and not awaited: a big store never delays the start.
 */
const SHARED_GRACE_MS = 10 * 60 * 1000;
void sweepOrphans(app.deps, new Date(startedAt.getTime() - (config.databaseUrl ? SHARED_GRACE_MS : 0))).then(
  (removed) => app.log.info(removed, 'orphan media swept'),
  (err: unknown) => app.log.error({ err }, 'orphan media sweep failed'),
);

/** The admin's password as the first start set it (ADMIN_PASSWORD or the saved random one). */
async function adminCredentials(): Promise<{ username: string; password: string } | undefined> {
  const password =
    config.adminPassword ??
    (await readFile(path.join(config.dataDir, 'admin-password.txt'), 'utf8').then(
      (s) => s.trim(),
      () => undefined,
    ));
  return password ? { username: 'admin', password } : undefined;
}

let venue: { stop: () => Promise<void> } | undefined;
if (config.simulator) {
  // The simulated venue needs a live event to photograph for.
  await ensureTodayEventLive(app.deps);
  const { startVenue } = await import('@stadiumcam/venue-sim');
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  venue = await startVenue({
    serverUrl: `http://${local.includes(':') ? `[${local}]` : local}:${port}`,
    deviceToken: config.deviceToken,
    ...config.simulator,
    log: app.log,
    // On a first start the simulator uploads its venue's map files as the admin (a technician).
    technician: await adminCredentials(),
  });
}

console.log(
  `\n  StadiumCam console: http://${host}:${port}\n  Log in as "admin" (password: ADMIN_PASSWORD, or ${config.dataDir}/admin-password.txt)\n`,
);

/**
 * SIGTERM/SIGINT drain (docs/operations.md): /readyz turns 503 so a load balancer stops sending
 * work, the simulator stops, then Fastify stops accepting, finishes the requests in flight and
 * closes every socket (hosts and consoles reconnect to another instance). A hard stop after
 * 10 s keeps a stuck request from holding a deploy.
 */
const DRAIN_MS = 10_000;
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.deps.ops.draining = true;
    app.log.info({ signal }, 'draining');
    setTimeout(() => {
      app.log.error('drain took longer than 10 s: stopping now');
      unlock();
      process.exit(1);
    }, DRAIN_MS).unref();
    void (venue?.stop() ?? Promise.resolve())
      .then(() => app.close())
      .then(
        () => {
          unlock();
          process.exit(0);
        },
        (err: unknown) => {
          app.log.error({ err }, 'drain failed');
          unlock();
          process.exit(1);
        },
      );
  });
}
