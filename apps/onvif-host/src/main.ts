import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { OnvifHost } from './host.ts';

/*
 * `npm run host:onvif -- --config cameras.json`: one camera host for the ONVIF cameras the file
 * lists (docs/cameras-onvif.md). Passwords and the device token come from the environment.
 * Log lines are JSON on stdout; no secret is ever in one.
 */
const line = (level: string) => (obj: unknown, msg?: string) =>
  process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg, ...(obj as object) })}\n`);
const log = { info: line('info'), warn: line('warn') };

const { values } = parseArgs({ options: { config: { type: 'string', default: 'cameras.json' } } });
try {
  const config = await loadConfig(values.config, process.env);
  const host = new OnvifHost(config, log);
  log.info(
    { hostId: config.hostId, server: config.server, cameras: config.cameras.map((c) => c.id) },
    'ONVIF host started',
  );
  const stop = () => {
    log.info({}, 'ONVIF host stopping');
    void host.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  log.warn({ error: (err as Error).message }, 'ONVIF host cannot start');
  process.exit(1);
}
