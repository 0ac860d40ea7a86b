import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { ensureAnalyticsRollup } from './analytics-rollup.repository.ts';
import { registerAnalyticsRoutes } from './analytics.routes.ts';

/** Analytics (spec 3 §2.4, DESIGN §12): roll-up triggers at boot, the figures, the CSV, page views. */
export async function registerAnalytics(app: App, deps: Deps): Promise<void> {
  await ensureAnalyticsRollup(deps.db);
  await registerAnalyticsRoutes(app, deps);
}
