import { buildApp } from './app.ts';
import { configFromEnv } from './config.ts';
import { lockDataDir } from './lock.ts';

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

if (process.env.SIMULATOR !== 'off') {
  const { startVenue } = await import('@stadiumcam/venue-sim');
  await startVenue({ serverUrl: `http://${host}:${port}`, deviceToken: config.deviceToken, log: app.log });
}

console.log(
  `\n  StadiumCam console: http://${host}:${port}\n  Log in as "admin" (password: ADMIN_PASSWORD, or ${config.dataDir}/admin-password.txt)\n`,
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void app.close().finally(() => {
      unlock();
      process.exit(0);
    });
  });
}
