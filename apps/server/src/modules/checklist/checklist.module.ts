import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { registerChecklistRoutes } from './checklist.routes.ts';

/** The pre-live checklist (issue 32 §2): one read-only route. No boot task. */
export function registerChecklist(app: App, deps: Deps): void {
  registerChecklistRoutes(app, deps);
}
