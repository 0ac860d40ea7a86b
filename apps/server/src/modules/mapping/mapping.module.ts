import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerMappingRoutes } from './mapping.routes.ts';
import { loadSeatMap } from './mapping.service.ts';
import { registerMappingSocket } from './mapping.socket.ts';

/** The seat map and the mapping (DESIGN §11, docs/mapping.md). */
export async function registerMapping(app: App, deps: Deps): Promise<void> {
  await loadSeatMap(deps);
  // Another instance reloaded the seat map: read the stored model again.
  deps.cluster.on('seat map', () => {
    loadSeatMap(deps).catch((err: unknown) => deps.log.error({ err }, 'seat map not reloaded'));
  });
  registerMappingRoutes(app, deps);
  registerMappingSocket(deps);
}
