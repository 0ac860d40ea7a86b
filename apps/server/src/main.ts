import { buildApp } from './app.ts';
import { configFromEnv } from './config.ts';
import { lockDataDir } from './lock.ts';
import { ensureTodayEventLive } from './modules/events/events.service.ts';

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

const app = await buildApp(config);
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
await app.listen({ port, host });

let venue: { stop: () => Promise<void> } | undefined;
if (process.env.SIMULATOR !== 'off') {
  // The simulated venue needs a live event to photograph for.
  await ensureTodayEventLive(app.deps);
  const { startVenue } = await import('@stadiumcam/venue-sim');
  const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  venue = await startVenue({
    serverUrl: `http://${local.includes(':') ? `[${local}]` : local}:${port}`,
    deviceToken: config.deviceToken,
    seed: num('SIM_SEED'),
    hosts: num('SIM_HOSTS'),
    camerasPerHost: num('SIM_CAMERAS'),
    fps: num('SIM_FPS'),
    attendeeRate: num('SIM_ATTENDEE_RATE'),
    log: app.log,
  });
}

console.log(
  `\n  StadiumCam console: http://${host}:${port}\n  Log in as "admin" (password: ADMIN_PASSWORD, or ${config.dataDir}/admin-password.txt)\n`,
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void (venue?.stop() ?? Promise.resolve())
      .then(() => app.close())
      .finally(() => {
        unlock();
        process.exit(0);
      });
  });
}
