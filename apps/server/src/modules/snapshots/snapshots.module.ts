import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerSnapshotsRoutes } from './snapshots.routes.ts';

/**
 * The album: listing, moderation, export, sharing. Its counter triggers are a migration
 * (db/migrations/0001_album_counters.sql), so there is no boot task.
 */
export function registerSnapshots(app: App, deps: Deps): void {
  registerSnapshotsRoutes(app, deps);
}
