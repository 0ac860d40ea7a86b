import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { ensureMasterTemplate } from './events.bootstrap.ts';
import { registerEventsRoutes } from './events.routes.ts';
import { disposeMetrics } from './metrics.service.ts';

/** Events and live metrics. Boot: the master template on first start. */
export async function registerEvents(app: App, deps: Deps): Promise<void> {
  await ensureMasterTemplate(deps);
  registerEventsRoutes(app, deps);
  // No metrics timer may fire on a closed database.
  app.addHook('onClose', async () => disposeMetrics(deps));
}
