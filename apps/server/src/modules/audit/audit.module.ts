import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerAuditRoutes } from './audit.routes.ts';
import { applyAuditRetention, recordAudit } from './audit.service.ts';

const DAY_MS = 24 * 60 * 60_000;

/**
 * The operator's record (docs/audit.md): the writer every audited route and socket command
 * records through (plugins/routes.ts, monitor.socket.ts), its list and CSV routes, and the
 * retention sweep at boot and once a day.
 */
export async function registerAudit(app: App, deps: Deps): Promise<void> {
  app.recordAudit = (entry) => recordAudit(deps, entry);
  registerAuditRoutes(app, deps);
  const sweep = () =>
    applyAuditRetention(deps).catch((err: unknown) => deps.log.warn({ err }, 'audit retention not applied'));
  await sweep();
  const timer = setInterval(() => void sweep(), DAY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
